/**
 * The TypeScript type a literal JSON Schema describes, for typing tool arguments declared with a JSON
 * Schema written `as const` (or inline, where `tool()` keeps it literal) and an Agent's `outputSchema`.
 * Covers the keywords those use: `type` (also as a list), `properties` / `required`, `items`, `enum`,
 * `const`, `anyOf` / `oneOf`. A schema that is not a literal gives `unknown` (`Record<string, unknown>`
 * for an object), so code that builds schemas at run time still compiles without casts. Nesting deeper
 * than 10 levels gives `unknown` (a recursive or very deep schema cannot make the compiler give up).
 */

type MaxDepth = 10;
type Deeper<TDepth extends unknown[]> = [...TDepth, 0];

type TypeOfName<TName, TSchema, TDepth extends unknown[]> = TName extends "string"
  ? string
  : TName extends "number" | "integer"
    ? number
    : TName extends "boolean"
      ? boolean
      : TName extends "null"
        ? null
        : TName extends "array"
          ? TSchema extends { readonly items: infer TItems }
            ? JsonSchemaType<TItems, Deeper<TDepth>>[]
            : unknown[]
          : TName extends "object"
            ? JsonObjectType<TSchema, TDepth>
            : unknown;

type RequiredKeys<TSchema> = TSchema extends { readonly required: readonly (infer K extends string)[] }
  ? K
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The object type of a JSON Schema with `properties` (properties not in `required` are optional). */
export type JsonObjectType<TSchema, TDepth extends unknown[] = []> = TSchema extends {
  readonly properties: infer TProperties;
}
  ? string extends keyof TProperties
    ? Record<string, unknown>
    : Simplify<
        {
          -readonly [K in keyof TProperties & RequiredKeys<TSchema>]: JsonSchemaType<
            TProperties[K],
            Deeper<TDepth>
          >;
        } & {
          -readonly [K in Exclude<keyof TProperties, RequiredKeys<TSchema>>]?: JsonSchemaType<
            TProperties[K],
            Deeper<TDepth>
          >;
        }
      >
  : Record<string, unknown>;

/**
 * The TypeScript type a (literal) JSON Schema describes; `unknown` when it cannot tell.
 *
 * @example
 * ```ts
 * type T = JsonSchemaType<{ type: "object"; properties: { n: { type: "integer" } }; required: ["n"] }>;
 * // { n: number }
 * ```
 */
export type JsonSchemaType<TSchema, TDepth extends unknown[] = []> = TDepth["length"] extends MaxDepth
  ? unknown
  : TSchema extends true
    ? unknown
    : TSchema extends { readonly const: infer TConst }
      ? TConst
      : TSchema extends { readonly enum: readonly (infer TValue)[] }
        ? TValue
        : TSchema extends { readonly anyOf: readonly (infer TBranch)[] }
          ? JsonSchemaType<TBranch, Deeper<TDepth>>
          : TSchema extends { readonly oneOf: readonly (infer TBranch)[] }
            ? JsonSchemaType<TBranch, Deeper<TDepth>>
            : TSchema extends { readonly type: infer TName }
              ? string extends TName
                ? unknown
                : TName extends readonly (infer TNames)[]
                  ? TypeOfName<TNames, TSchema, TDepth>
                  : TypeOfName<TName, TSchema, TDepth>
              : unknown;
