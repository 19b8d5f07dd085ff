import { getNamedType, type Issue, namedTypeName } from "@junction/core";
import { z } from "zod";

/**
 * Writes zod schemas as JSON Schema and reads them back. Named socket types (classes such as
 * `ChatMessage`) cannot be described by JSON Schema, so they are written by name,
 * `{ "x-junction-type": "ChatMessage" }`, and resolved through the named-type registry on load.
 */

type JsonSchema = Record<string, unknown>;

const unrepresentable = new Set([
  "custom",
  "date",
  "bigint",
  "symbol",
  "map",
  "set",
  "transform",
  "function",
  "nan",
  "undefined",
  "void",
  "promise",
]);

/** The JSON each loaded schema was read from, so writing it again gives back the same document. */
const sources = new WeakMap<z.ZodType, JsonSchema>();

/**
 * Writes a zod schema as JSON Schema (input side), named types by name; records every type that
 * cannot be written.
 */
export function schemaToJSON(
  schema: z.ZodType,
  path: readonly (string | number)[],
  issues: Issue[],
): JsonSchema {
  const source = sources.get(schema);
  if (source !== undefined) return structuredClone(source);
  const json = z.toJSONSchema(schema, {
    io: "input",
    reused: "inline",
    unrepresentable: "any",
    override: (context) => {
      const zodSchema = context.zodSchema as unknown as z.ZodType;
      const name = namedTypeName(zodSchema);
      const target = context.jsonSchema as JsonSchema;
      if (name !== undefined) {
        for (const key of Object.keys(target)) delete target[key];
        target["x-junction-type"] = name;
        return;
      }
      const type = (zodSchema._zod.def as { type: string }).type;
      if (unrepresentable.has(type) && Object.keys(target).length === 0) {
        issues.push({
          path,
          message: `a "${type}" schema cannot be written as JSON Schema. Use JSON types, or a named type (defineNamedType) for class instances.`,
        });
      }
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function containsNamedType(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some(containsNamedType);
  if (Object.hasOwn(node, "x-junction-type")) return true;
  return Object.values(node).some(containsNamedType);
}

/** Reads a JSON Schema written by {@link schemaToJSON} back into a zod schema; records every problem. */
export function schemaFromJSON(
  node: unknown,
  path: readonly (string | number)[],
  issues: Issue[],
): z.ZodType {
  const schema = readSchema(node, path, issues);
  if (typeof node === "object" && node !== null && namedTypeName(schema) === undefined) {
    sources.set(schema, structuredClone(node as JsonSchema));
  }
  return schema;
}

function readSchema(node: unknown, path: readonly (string | number)[], issues: Issue[]): z.ZodType {
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    issues.push({ path, message: "expected a JSON Schema object." });
    return z.unknown();
  }
  const schema = node as JsonSchema;
  const named = schema["x-junction-type"];
  if (named !== undefined) {
    const found = typeof named === "string" ? getNamedType(named) : undefined;
    if (found === undefined) {
      issues.push({
        path,
        message: `unknown named type ${JSON.stringify(named)}. Import the package that defines it.`,
      });
      return z.unknown();
    }
    return found;
  }
  if (!containsNamedType(schema)) {
    try {
      return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (error) {
      issues.push({
        path,
        message: `not a supported JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      });
      return z.unknown();
    }
  }
  if (schema.type === "array") return z.array(schemaFromJSON(schema.items, [...path, "items"], issues));
  if (schema.type === "object" && typeof schema.properties === "object" && schema.properties !== null) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const shape: Record<string, z.ZodType> = {};
    for (const [key, child] of Object.entries(schema.properties)) {
      const inner = schemaFromJSON(child, [...path, "properties", key], issues);
      shape[key] = required.has(key) ? inner : inner.optional();
    }
    return z.object(shape);
  }
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf.map((child, index) =>
      schemaFromJSON(child, [...path, "anyOf", index], issues),
    );
    return options.length === 1 ? options[0]! : z.union(options as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }
  issues.push({
    path,
    message: "named types are supported at the top, in array items, object properties and anyOf.",
  });
  return z.unknown();
}
