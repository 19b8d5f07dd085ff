import type { z } from "zod";

/**
 * Type-level reading of an `outputSchema`: a zod schema gives its output type; a JSON Schema object
 * literal (written inline in `new Agent({...})`, or declared `as const`) gives the type it describes;
 * anything else gives `unknown`.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type MaxDepth = 10;

type RequiredNames<S> = S extends { readonly required: readonly (infer TName)[] } ? TName : never;

type FromObject<S, TDepth extends unknown[]> = S extends { readonly properties: infer TProperties }
  ? Simplify<
      {
        -readonly [K in keyof TProperties as K extends RequiredNames<S> ? K : never]: JsonSchemaValue<
          TProperties[K],
          [...TDepth, 0]
        >;
      } & {
        -readonly [K in keyof TProperties as K extends RequiredNames<S> ? never : K]?: JsonSchemaValue<
          TProperties[K],
          [...TDepth, 0]
        >;
      }
    >
  : Record<string, unknown>;

type FromTypeName<TName, S, TDepth extends unknown[]> = TName extends "string"
  ? string
  : TName extends "number" | "integer"
    ? number
    : TName extends "boolean"
      ? boolean
      : TName extends "null"
        ? null
        : TName extends "array"
          ? S extends { readonly items: infer TItems }
            ? JsonSchemaValue<TItems, [...TDepth, 0]>[]
            : unknown[]
          : TName extends "object"
            ? FromObject<S, TDepth>
            : unknown;

/**
 * The value type a literal JSON Schema describes: `type` (one name or a list), `properties` with
 * `required`, `items`, `enum`, `const`, `anyOf` / `oneOf`. Unknown shapes and non-literal schemas
 * give `unknown`.
 *
 * @example
 * ```ts
 * type T = JsonSchemaValue<{ type: "object"; properties: { n: { type: "integer" } }; required: ["n"] }>;
 * // { n: number }
 * ```
 */
export type JsonSchemaValue<S, TDepth extends unknown[] = []> = TDepth["length"] extends MaxDepth
  ? unknown
  : S extends { readonly const: infer TConst }
    ? TConst
    : S extends { readonly enum: readonly (infer TMember)[] }
      ? TMember
      : S extends { readonly anyOf: readonly (infer TMember)[] }
        ? JsonSchemaValue<TMember, [...TDepth, 0]>
        : S extends { readonly oneOf: readonly (infer TMember)[] }
          ? JsonSchemaValue<TMember, [...TDepth, 0]>
          : S extends { readonly type: infer TName }
            ? string extends TName
              ? unknown
              : TName extends readonly (infer TEach)[]
                ? FromTypeName<TEach, S, TDepth>
                : FromTypeName<TName, S, TDepth>
            : unknown;

/**
 * The type of the `structured_output` an `outputSchema` produces: `z.output` of a zod schema, the
 * described type of a literal JSON Schema ({@link JsonSchemaValue}), else `unknown`.
 */
export type InferOutputSchema<TSchema> = TSchema extends z.ZodType
  ? z.output<TSchema>
  : TSchema extends object
    ? JsonSchemaValue<TSchema>
    : unknown;
