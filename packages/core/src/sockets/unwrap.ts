import type { z } from "zod";

/**
 * Looking through the wrappers of a socket schema (`optional`, `nullable`, `default`, …) to the schema
 * that decides what a present value is. One walk for every part of Junction that reads values through
 * a schema: snapshots, remote callers' JSON, tool arguments, agent state, compatibility checks.
 */

/**
 * Wrappers whose inner schema decides how a present value is read: what decoding looks through. A value
 * of `z.array(X).nullable().optional()` that is there is an array of `X`.
 */
export const valueWrappers: ReadonlySet<string> = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "readonly",
  "nonoptional",
  "catch",
]);

/**
 * Wrappers that leave the kind of value unchanged (`nullable` excluded: it adds `null`): what type
 * compatibility and mappings look through.
 */
export const kindWrappers: ReadonlySet<string> = new Set([
  "optional",
  "default",
  "prefault",
  "readonly",
  "nonoptional",
  "catch",
]);

/** The most wrappers looked through; deeper nesting is not a real schema (a cycle is not possible). */
const maxWrappers = 32;

/**
 * The schema inside `schema`'s wrappers.
 *
 * @param schema - a socket (or parameter, or state key) schema
 * @param wrappers - which wrapper types to look through (default: optional, nullable, default, prefault,
 *   readonly, nonoptional and catch)
 * @example
 * ```ts
 * unwrapSchema(z.array(chatMessageSchema).optional()); // the z.array(...) schema
 * ```
 */
export function unwrapSchema(schema: z.ZodType, wrappers: ReadonlySet<string> = valueWrappers): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < maxWrappers; depth++) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    if (def.innerType === undefined || !wrappers.has(def.type)) return current;
    current = def.innerType;
  }
  return current;
}
