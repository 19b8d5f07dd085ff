import { decodeNamedJSON, type NamedTypeWire, namedTypeWire, unwrapSchema } from "@junction/core";
import type { z } from "zod";

/**
 * Internal: how named socket types are described to a model (JSON Schema) and how the model's JSON
 * arguments are turned back into instances, through each type's wire form (`namedTypeWire`). Used by
 * `tool()` with zod parameters and by `ComponentTool`.
 */

/** The wire form of a named type (registered with `defineNamedType(name, schema, { wire })`). */
function codecOf(schema: z.ZodType): NamedTypeWire | undefined {
  return namedTypeWire(unwrapSchema(schema));
}

/** The JSON Schema of a named type a model can send as JSON, or `undefined` when it has none. */
export function namedTypeJsonSchema(schema: z.ZodType): Record<string, unknown> | undefined {
  const wire = namedTypeWire(schema);
  return wire === undefined ? undefined : (structuredClone(wire.jsonSchema) as Record<string, unknown>);
}

/**
 * Turns JSON values of named-type parameters (anywhere inside arrays, objects and records) into
 * instances, e.g. a serialized chat message into a `ChatMessage`. Other values pass through unchanged.
 *
 * @param schema - the parameter's schema
 * @param value - the model's value
 * @throws the named type's decoding error for a malformed value (the caller reports it as a tool error)
 */
export function decodeNamedValue(schema: z.ZodType, value: unknown): unknown {
  return decodeNamedJSON(schema, value, { source: "wire", onFailure: "throw" });
}

/** True when a schema (or the element of an array schema) is a named type with a codec. */
export function hasNamedCodec(schema: z.ZodType): boolean {
  if (codecOf(schema) !== undefined) return true;
  const def = unwrapSchema(schema)._zod.def as { type: string; element?: z.ZodType };
  return def.type === "array" && def.element !== undefined && codecOf(def.element) !== undefined;
}
