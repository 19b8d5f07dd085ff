import { z } from "zod";

/**
 * Interim bridge to core's socket-schema JSON helpers (`socketSchemaToJSON` / `socketSchemaFromJSON`).
 * Until core exports them, plain zod JSON Schema conversion is used (no named types).
 */

/** True for a zod 4 schema (also one made by another copy of zod). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    "_zod" in value &&
    typeof (value as { _zod: unknown })._zod === "object"
  );
}

/** Writes a socket schema as JSON Schema. */
export function schemaToJSON(schema: z.ZodType): unknown {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = json;
  return rest;
}

/** Reads a socket schema back from JSON Schema. */
export function schemaFromJSON(json: unknown): z.ZodType {
  if (json === true) return z.any();
  return z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
}
