import { namedTypeName } from "@junction/core";
import type { z } from "zod";
import { ChatMessage } from "./chat-message.js";
import { chatRoles } from "./content-parts.js";

/**
 * Internal: how named socket types are described to a model (JSON Schema) and how the model's JSON
 * arguments are turned back into instances. Used by `tool()` with zod parameters and by `ComponentTool`.
 */

interface NamedTypeCodec {
  readonly jsonSchema: Record<string, unknown>;
  decode(value: unknown): unknown;
}

const codecs: Readonly<Record<string, NamedTypeCodec>> = {
  ChatMessage: {
    jsonSchema: {
      type: "object",
      description:
        "A chat message: { role, content: [{ text }], name?, meta? } with role one of user, system, assistant, tool.",
      properties: {
        role: { type: "string", enum: [...chatRoles] },
        content: { type: "array", items: { type: "object" } },
        name: { type: ["string", "null"] },
        meta: { type: "object" },
      },
      required: ["role", "content"],
    },
    decode: (value) => (value instanceof ChatMessage ? value : ChatMessage.fromJSON(value)),
  },
};

/** The JSON Schema of a named type a model can send as JSON, or `undefined` when it has none. */
export function namedTypeJsonSchema(schema: z.ZodType): Record<string, unknown> | undefined {
  const name = namedTypeName(schema);
  const codec = name === undefined ? undefined : codecs[name];
  return codec === undefined ? undefined : structuredClone(codec.jsonSchema);
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

function codecOf(schema: z.ZodType): NamedTypeCodec | undefined {
  const name = namedTypeName(unwrap(schema));
  return name === undefined ? undefined : codecs[name];
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
