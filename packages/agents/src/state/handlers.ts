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

function idOf(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const id = (item as { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}

/**
 * The default handler of list keys whose items are `Document`s (the State key `documents` an agent's
 * retrieval tools fill): merges by `id`. An item whose id is already in the list replaces it in place
 * (a document retrieved twice appears once, with its latest score); new items are appended in order.
 * Items without a string `id` are appended like {@link mergeLists} does.
 *
 * @param current - the current value (`undefined`, a list, or a single item)
 * @param value - a list of items to merge, or one item
 * @example
 * ```ts
 * mergeById([{ id: "a", score: 1 }], [{ id: "a", score: 2 }, { id: "b" }]); // [{ id: "a", score: 2 }, { id: "b" }]
 * ```
 */
export function mergeById(current: unknown, value: unknown): unknown[] {
  const result =
    current === undefined || current === null ? [] : Array.isArray(current) ? [...current] : [current];
  const positions = new Map<string, number>();
  result.forEach((item, index) => {
    const id = idOf(item);
    if (id !== undefined && !positions.has(id)) positions.set(id, index);
  });
  for (const item of Array.isArray(value) ? value : [value]) {
    const id = idOf(item);
    const position = id === undefined ? undefined : positions.get(id);
    if (position !== undefined) {
      result[position] = item;
      continue;
    }
    if (id !== undefined) positions.set(id, result.length);
    result.push(item);
  }
  return result;
}

/** The registered names of the built-in handlers (used when a State schema is written to JSON). */
export const mergeListsName = "junction.agents.mergeLists";
/** @see {@link mergeListsName} */
export const replaceValuesName = "junction.agents.replaceValues";
/** @see {@link mergeListsName} */
export const mergeByIdName = "junction.agents.mergeById";

defaultRegistry.registerFunction(mergeListsName, mergeLists);
defaultRegistry.registerFunction(replaceValuesName, replaceValues);
defaultRegistry.registerFunction(mergeByIdName, mergeById);
