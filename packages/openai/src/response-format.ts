import { z } from "zod";
import { makeSchemaStrict } from "./strict-schema.js";

/** OpenAI's `response_format` request field, as JSON. */
export type ResponseFormatJSON =
  | { readonly type: "text" }
  | { readonly type: "json_object" }
  | {
      readonly type: "json_schema";
      readonly json_schema: {
        readonly name: string;
        readonly schema?: Readonly<Record<string, unknown>> | undefined;
        readonly strict?: boolean | null | undefined;
        readonly description?: string | undefined;
      };
    };

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/**
 * Converts a zod schema into a strict `json_schema` response format: the JSON Schema from
 * `z.toJSONSchema`, made strict (every object closed, every property required), named after the
 * schema's `title` meta (`schema.meta({ title: "CalendarEvent" })`) or `"response"`.
 *
 * @param schema - the shape the model's reply must have
 */
export function zodToResponseFormat(schema: z.ZodType): ResponseFormatJSON {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema) as Record<string, unknown>;
  const title = jsonSchema.title;
  const name = typeof title === "string" && namePattern.test(title) ? title : "response";
  const description =
    typeof jsonSchema.description === "string" ? { description: jsonSchema.description } : {};
  return {
    type: "json_schema",
    json_schema: { name, schema: makeSchemaStrict(jsonSchema), strict: true, ...description },
  };
}

const responseFormatJSONSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({
      name: z.string().regex(namePattern, "must match ^[a-zA-Z0-9_-]{1,64}$"),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
      description: z.string().optional(),
    }),
  }),
]);

/**
 * The `responseFormat` param: a zod schema (converted with {@link zodToResponseFormat}) or the JSON
 * `response_format` object itself. Params keep the JSON form, so the component serializes.
 */
export const responseFormatSchema = z
  .custom<z.ZodType | ResponseFormatJSON>(
    (value) => isZodSchema(value) || responseFormatJSONSchema.safeParse(value).success,
    {
      message:
        'expected a zod schema or a response_format object such as { type: "json_schema", json_schema: { name, schema, strict } } or { type: "json_object" }.',
    },
  )
  .transform(
    (value): ResponseFormatJSON =>
      isZodSchema(value) ? zodToResponseFormat(value) : (value as ResponseFormatJSON),
  );
