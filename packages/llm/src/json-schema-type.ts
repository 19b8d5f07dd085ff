/**
 * The TypeScript type a literal JSON Schema describes, for typing tool arguments declared with a JSON
 * Schema written `as const` (or inline, where `tool()` keeps it literal). Covers the keywords tool
 * parameters use: `type` (also as a list), `properties` / `required`, `items`, `enum`, `const`,
 * `anyOf` / `oneOf`. A schema that is not a literal gives `unknown` (`Record<string, unknown>` for an
 * object), so code that builds schemas at run time still compiles without casts.
 */

type TypeOfName<TName, TSchema> = TName extends "string"
  ? string
  : TName extends "number" | "integer"
    ? number
    : TName extends "boolean"
      ? boolean
      : TName extends "null"
        ? null
        : TName extends "array"
          ? TSchema extends { readonly items: infer TItems }
            ? JsonSchemaType<TItems>[]
            : unknown[]
          : TName extends "object"
            ? JsonObjectType<TSchema>
            : unknown;

type RequiredKeys<TSchema> = TSchema extends { readonly required: readonly (infer K extends string)[] }
  ? K
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The object type of a JSON Schema with `properties` (properties not in `required` are optional). */
export type JsonObjectType<TSchema> = TSchema extends { readonly properties: infer TProperties }
  ? string extends keyof TProperties
    ? Record<string, unknown>
    : Simplify<
        {
          -readonly [K in keyof TProperties & RequiredKeys<TSchema>]: JsonSchemaType<TProperties[K]>;
        } & {
          -readonly [K in Exclude<keyof TProperties, RequiredKeys<TSchema>>]?: JsonSchemaType<TProperties[K]>;
        }
      >
  : Record<string, unknown>;

/** The TypeScript type a (literal) JSON Schema describes; `unknown` when it cannot tell. */
export type JsonSchemaType<TSchema> = TSchema extends true
  ? unknown
  : TSchema extends { readonly const: infer TConst }
    ? TConst
    : TSchema extends { readonly enum: readonly (infer TValue)[] }
      ? TValue
      : TSchema extends { readonly anyOf: readonly (infer TBranch)[] }
        ? JsonSchemaType<TBranch>
        : TSchema extends { readonly oneOf: readonly (infer TBranch)[] }
          ? JsonSchemaType<TBranch>
          : TSchema extends { readonly type: infer TName }
            ? string extends TName
              ? unknown
              : TName extends readonly (infer TNames)[]
                ? TypeOfName<TNames, TSchema>
                : TypeOfName<TName, TSchema>
            : unknown;
