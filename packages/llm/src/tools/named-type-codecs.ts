import { type NamedTypeWire, namedTypeWire } from "@junction/core";
import type { z } from "zod";

/**
 * Internal: how named socket types are described to a model (JSON Schema) and how the model's JSON
 * arguments are turned back into instances, through each type's wire form (`namedTypeWire`). Used by
 * `tool()` with zod parameters and by `ComponentTool`.
 */

/** The wire form of a named type (registered with `defineNamedType(name, schema, { wire })`). */
function codecOf(schema: z.ZodType): NamedTypeWire | undefined {
  return namedTypeWire(unwrap(schema));
}

/** The JSON Schema of a named type a model can send as JSON, or `undefined` when it has none. */
export function namedTypeJsonSchema(schema: z.ZodType): Record<string, unknown> | undefined {
  const wire = namedTypeWire(schema);
  return wire === undefined ? undefined : (structuredClone(wire.jsonSchema) as Record<string, unknown>);
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType)
      current = def.innerType;
    else return current;
  }
}

/**
 * Turns JSON values of named-type parameters (and arrays of them) into instances, e.g. a serialized
 * chat message into a `ChatMessage`. Other values pass through unchanged.
 *
 * @param schema - the parameter's schema
 * @param value - the model's value
 */
export function decodeNamedValue(schema: z.ZodType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  const direct = codecOf(schema);
  if (direct !== undefined) return direct.decode(value);
  const inner = unwrap(schema);
  const def = inner._zod.def as { type: string; element?: z.ZodType };
  if (def.type === "array" && def.element !== undefined && Array.isArray(value)) {
    const element = codecOf(def.element);
    if (element !== undefined) return value.map((item) => element.decode(item));
  }
  return value;
}

/** True when a schema (or the element of an array schema) is a named type with a codec. */
export function hasNamedCodec(schema: z.ZodType): boolean {
  if (codecOf(schema) !== undefined) return true;
  const def = unwrap(schema)._zod.def as { type: string; element?: z.ZodType };
  return def.type === "array" && def.element !== undefined && codecOf(def.element) !== undefined;
}
