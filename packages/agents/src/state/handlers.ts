import { defaultRegistry } from "@junction/core";

/**
 * How a State key merges a new value into its current one: `(current, value) => merged`.
 * `current` is `undefined` when the key has no value yet. A list key's `current` is a read-only view.
 */
export type MergeHandler = (current: unknown, value: unknown) => unknown;

/**
 * The default handler of list keys: appends. A list value appends its items, a single value is
 * appended as one item; a missing current value counts as the empty list. Returns a new array.
 *
 * @param current - the current value (`undefined`, a list, or a single value)
 * @param value - a list of items to append, or one item
 * @example
 * ```ts
 * mergeLists([1, 2], [3]); // [1, 2, 3]
 * mergeLists([1, 2], 3);   // [1, 2, 3]
 * ```
 */
export function mergeLists(current: unknown, value: unknown): unknown[] {
  const base = current === undefined || current === null ? [] : Array.isArray(current) ? current : [current];
  const added = Array.isArray(value) ? value : [value];
  return [...base, ...added];
}

/**
 * The default handler of every non-list key: the new value replaces the current one.
 *
 * @param _current - ignored
 * @param value - the new value
 */
export function replaceValues(_current: unknown, value: unknown): unknown {
  return value;
}

/** The registered names of the built-in handlers (used when a State schema is written to JSON). */
export const mergeListsName = "junction.agents.mergeLists";
/** @see {@link mergeListsName} */
export const replaceValuesName = "junction.agents.replaceValues";

defaultRegistry.registerFunction(mergeListsName, mergeLists);
defaultRegistry.registerFunction(replaceValuesName, replaceValues);
