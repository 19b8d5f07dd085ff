import type { JsonSchemaType } from "@junction/llm";
import type { z } from "zod";

/**
 * Type-level reading of an `outputSchema`: a zod schema gives its output type; a JSON Schema object
 * literal (written inline in `new Agent({...})`, or declared `as const`) gives the type it describes;
 * anything else gives `unknown`.
 */

/**
 * The value type a literal JSON Schema describes — the same mapping as tool arguments use
 * (`JsonSchemaType` of `@junction/llm`): `type` (one name or a list), `properties` with `required`,
 * `items`, `enum`, `const`, `anyOf` / `oneOf`; unknown shapes, non-literal schemas and nesting deeper than
 * 10 levels give `unknown`.
 *
 * @example
 * ```ts
 * type T = JsonSchemaValue<{ type: "object"; properties: { n: { type: "integer" } }; required: ["n"] }>;
 * // { n: number }
 * ```
 */
export type JsonSchemaValue<S> = JsonSchemaType<S>;

/**
 * The type of the `structured_output` an `outputSchema` produces: `z.output` of a zod schema, the
 * described type of a literal JSON Schema ({@link JsonSchemaValue}), else `unknown`.
 */
export type InferOutputSchema<TSchema> = TSchema extends z.ZodType
  ? z.output<TSchema>
  : TSchema extends object
    ? JsonSchemaValue<TSchema>
    : unknown;
