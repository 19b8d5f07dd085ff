/**
 * Append-only list storage with read-only snapshot views.
 *
 * A State list key (the message history above all) grows by appends on every agent step. Copying the
 * list on every read would make each step cost O(history); handing out the internal array would let
 * any hook or tool mutate the State behind its back. Instead the State keeps an append-only buffer and
 * hands out **views**: a `Proxy` over the buffer that fixes the length at the time of the read and
 * rejects every mutation. Creating a view is O(1); because the buffer is only ever appended to, a view
 * keeps showing exactly the items it showed when it was taken.
 */

/** The buffer and visible length behind one view. */
interface ViewTarget {
  readonly buffer: unknown[];
  readonly length: number;
}

/** Reading this key from a view returns its {@link ViewTarget} (cheaper than a WeakMap lookup). */
const targetKey: unique symbol = Symbol("junction.state.listView");

function isIndexKey(key: string | symbol): key is string {
  if (typeof key !== "string" || key.length === 0) return false;
  const code = key.charCodeAt(0);
  if (code < 48 || code > 57) return false;
  const index = Number(key);
  return Number.isInteger(index) && index >= 0 && String(index) === key;
}

function readOnly(): never {
  throw new TypeError(
    "State lists are read-only snapshots. Change a State value with state.set(key, value) instead of mutating what get() returned.",
  );
}

/**
 * Makes a read-only view showing the first `length` items of `buffer`. The view is an array to every
 * reader (`Array.isArray`, indexing, iteration, `map`, `JSON.stringify`); writes throw a `TypeError`.
 */
export function makeListView<T>(buffer: T[], length: number): readonly T[] {
  // One small object per view: the traps are shared (a Proxy calls them with the handler as `this`).
  const handler: ViewHandler = Object.create(viewTraps);
  handler.length = length;
  return new Proxy(buffer, handler) as readonly T[];
}

/** A view's handler: its visible length, over the shared {@link viewTraps}. */
interface ViewHandler extends ProxyHandler<unknown[]> {
  length: number;
}

const viewTraps: ProxyHandler<unknown[]> & ThisType<ViewHandler> = {
  get(target, key, receiver) {
    const length = this.length;
    if (key === "length") return length;
    if (key === targetKey) return { buffer: target, length };
    if (isIndexKey(key)) return Number(key) < length ? target[Number(key)] : undefined;
    return Reflect.get(target, key, receiver);
  },
  has(target, key) {
    if (isIndexKey(key)) return Number(key) < this.length;
    return Reflect.has(target, key);
  },
  ownKeys(target) {
    const length = this.length;
    const keys: (string | symbol)[] = [];
    for (let index = 0; index < length; index++) keys.push(String(index));
    for (const key of Reflect.ownKeys(target)) if (!isIndexKey(key)) keys.push(key);
    return keys;
  },
  getOwnPropertyDescriptor(target, key) {
    const length = this.length;
    if (key === "length") return { value: length, writable: true, enumerable: false, configurable: false };
    if (isIndexKey(key)) {
      if (Number(key) >= length) return undefined;
      return { value: target[Number(key)], writable: false, enumerable: true, configurable: true };
    }
    return Reflect.getOwnPropertyDescriptor(target, key);
  },
  set: readOnly,
  defineProperty: readOnly,
  deleteProperty: readOnly,
  setPrototypeOf: readOnly,
  preventExtensions: readOnly,
};

/** A plain array copy of a list (a view's items are copied from its buffer, not read through the proxy). */
export function copyList<T>(value: readonly T[]): T[] {
  const target = listViewTarget(value);
  return target === undefined ? Array.from(value) : (target.buffer.slice(0, target.length) as T[]);
}

/** The buffer and length behind a view made by {@link makeListView}, or `undefined` for any other value. */
export function listViewTarget(value: unknown): ViewTarget | undefined {
  if (!Array.isArray(value)) return undefined;
  return (value as unknown as { [targetKey]?: ViewTarget })[targetKey];
}

/**
 * One list value held by a State: an append-only buffer owned by the State, and the cached view of
 * its current length (rebuilt lazily after an append).
 */
export class ListEntry {
  readonly #buffer: unknown[];
  #view: readonly unknown[] | undefined;

  /** @param items - the initial items; copied, so the caller's array is never aliased */
  constructor(items: Iterable<unknown>) {
    this.#buffer = Array.from(items);
  }

  /** The number of items. */
  get length(): number {
    return this.#buffer.length;
  }

  /** Appends items in O(items). */
  append(items: readonly unknown[]): void {
    if (items.length === 0) return;
    for (const item of items) this.#buffer.push(item);
    this.#view = undefined;
  }

  /** A read-only snapshot of the current items, O(1). */
  view(): readonly unknown[] {
    if (this.#view === undefined) this.#view = makeListView(this.#buffer, this.#buffer.length);
    return this.#view;
  }

  /** The last item, without building a view. */
  last(): unknown {
    return this.#buffer[this.#buffer.length - 1];
  }

  /** True when `value` is a view of this entry's buffer at its current length (a handler returned it unchanged). */
  isCurrentView(value: unknown): boolean {
    const target = listViewTarget(value);
    return target !== undefined && target.buffer === this.#buffer && target.length === this.#buffer.length;
  }
}
