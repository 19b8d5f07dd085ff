import { socketSchemaFromJSON, socketSchemaToJSON } from "@junction/core";
import { z } from "zod";

/**
 * Socket types as component params.
 *
 * Components whose sockets are chosen by configuration (`ConditionalRouter`'s `outputType`,
 * `BranchJoiner`'s `type`, `ListJoiner`'s `listType`, `OutputAdapter`'s `outputType`) take a zod schema in
 * code and a JSON Schema in documents. The params schema accepts either and always yields a zod schema;
 * the component's serializer writes it back as JSON Schema, so `init_parameters` stay plain JSON.
 */

/** A socket type as a param: a zod schema, or its JSON Schema form (`true` and `{}` mean "any value"). */
export type SocketTypeInput = z.ZodType | Readonly<Record<string, unknown>> | boolean;

/** The params schema of one socket type: accepts a zod schema or JSON Schema, yields a zod schema. */
export const socketTypeParam = z
  .union([
    z.custom<z.ZodType>((value) => isZodSchema(value), "expected a zod schema"),
    z.record(z.string(), z.unknown()),
    z.boolean(),
  ])
  .transform((value, context): z.ZodType => {
    if (isZodSchema(value)) return value;
    try {
      return socketSchemaFromJSON(value);
    } catch (error) {
      context.issues.push({
        code: "custom",
        input: value,
        message: `not a readable socket type (JSON Schema): ${error instanceof Error ? error.message : String(error)}`,
      });
      return z.never();
    }
  });

/** Writes a socket type as JSON Schema for `init_parameters`. */
export function socketTypeToJSON(schema: z.ZodType): unknown {
  return socketSchemaToJSON(schema);
}

/** True for a zod 4 schema (also one made by another copy of zod). */
function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    "_zod" in value &&
    typeof (value as { _zod: unknown })._zod === "object"
  );
}
