import { expressionViewOf } from "@junction/core";
import { formatPath } from "./format.js";

/**
 * Turns run-time values into plain data before an expression or a template sees them.
 *
 * CEL expressions and Liquid templates never receive live objects: every value is copied into plain
 * data made of `null`, booleans, numbers, strings, `Date`, `Uint8Array`, arrays and objects with own
 * data properties only. Functions, getters, symbols and prototypes do not survive the copy, so nothing
 * an expression or template can reach runs code. Class instances are copied through their expression
 * view when their class defines one (`expressionView` from core), else through their `toJSON()`
 * (chat messages get a richer view with `text`, `tool_calls` and friends) or, without one, their own enumerable
 * data properties. The copy keeps a reverse map so a value that comes out of an expression unchanged
 * can be handed back as the original object.
 *
 * With `lazy: true` (CEL expressions) lists and maps are read-only views that convert an element the
 * first time it is read, so an expression's cost depends on what it reads, not on the size of its input:
 * `size(items)` on a million numbers converts nothing, `docs[3].id` converts one document's `id`. The
 * limits then apply to what is actually converted: `maxValues` counts converted values, `maxDepth` the
 * depth of what is read. Templates use eager copies (a template engine walks values freely).
 */

/** Options of a {@link DataViews} copy. */
export interface DataViewOptions {
  /** How integral numbers are represented: CEL needs `bigint` for its `int` type; templates keep `number`. */
  readonly integers: "bigint" | "number";
  /** The deepest nesting accepted (default 64). */
  readonly maxDepth?: number;
  /** The most values (scalars, arrays, objects) one run may copy (default 1,000,000). */
  readonly maxValues?: number;
  /** Convert lists and maps element by element, when read (default false: copy at once). */
  readonly lazy?: boolean;
  /** Called each time a lazy view converts a value (an evaluation budget counts it as a step). */
  readonly onConvert?: () => void;
}

/** Default nesting limit of data given to expressions and templates. */
export const defaultMaxDepth = 64;
/** Default limit on the number of values copied for one run. */
export const defaultMaxValues = 1_000_000;

/** The input data cannot be turned into plain data (too deep, too large, cyclic). */
export class DataViewError extends Error {
  /** Where the problem is, from the variable name down. */
  readonly path: readonly (string | number)[];
  /** @param message - the fact @param path - where */
  constructor(message: string, path: readonly (string | number)[]) {
    super(`${formatPath(path)}: ${message}`);
    this.name = "DataViewError";
    this.path = path;
  }
}

const chatRoles = new Set(["user", "system", "assistant", "tool"]);

/** Copies values into plain data for one run, remembering which copy came from which original. */
export class DataViews {
  readonly #originals = new WeakMap<object, unknown>();
  readonly #memo = new Map<object, unknown>();
  readonly #inProgress = new Set<object>();
  readonly #integers: "bigint" | "number";
  readonly #maxDepth: number;
  readonly #maxValues: number;
  readonly #lazy: boolean;
  readonly #onConvert: (() => void) | undefined;
  #count = 0;

  /** @param options - number representation and limits */
  constructor(options: DataViewOptions) {
    this.#integers = options.integers;
    this.#maxDepth = options.maxDepth ?? defaultMaxDepth;
    this.#maxValues = options.maxValues ?? defaultMaxValues;
    this.#lazy = options.lazy ?? false;
    this.#onConvert = options.onConvert;
  }

  /** The original object a copy was made from, or `undefined` for values that are not copies. */
  original(view: unknown): unknown {
    return typeof view === "object" && view !== null ? this.#originals.get(view) : undefined;
  }

  /** True when `view` is a copy made by this instance. */
  isView(view: unknown): boolean {
    return typeof view === "object" && view !== null && this.#originals.has(view);
  }

  /**
   * Copies `value` into plain data.
   *
   * @param value - any run-time value
   * @param path - where the value is (for error messages), usually `[variableName]`
   * @throws {@link DataViewError} when the value is nested too deeply, too large or cyclic
   */
  view(value: unknown, path: readonly (string | number)[]): unknown {
    return this.#view(value, [...path], 0);
  }

  #view(value: unknown, path: (string | number)[], depth: number): unknown {
    if (++this.#count > this.#maxValues) {
      throw new DataViewError(
        `the input holds more than ${this.#maxValues} values; pass a smaller value or select what the expression needs upstream.`,
        path,
      );
    }
    if (typeof value !== "object" || value === null) return this.#scalar(value);
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : new Date(value.getTime());
    if (value instanceof Uint8Array) return new Uint8Array(value);
    const memo = this.#memo.get(value);
    if (memo !== undefined) return memo;
    if (depth >= this.#maxDepth) {
      throw new DataViewError(
        `the input is nested deeper than ${this.#maxDepth} levels; flatten it or pass the part the expression needs.`,
        path,
      );
    }
    if (this.#inProgress.has(value)) {
      throw new DataViewError("the input contains a cycle (an object that contains itself).", path);
    }
    this.#inProgress.add(value);
    try {
      const view = this.#viewObject(value, path, depth);
      this.#memo.set(value, view);
      if (typeof view === "object" && view !== null && !this.#originals.has(view)) {
        this.#originals.set(view, value);
      }
      return view;
    } finally {
      this.#inProgress.delete(value);
    }
  }

  /** Converts a non-object value: functions and symbols are not data and become `null`. */
  #scalar(value: unknown): unknown {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        return this.#integers === "bigint" && Number.isSafeInteger(value) ? BigInt(value) : value;
      case "bigint":
        return this.#integers === "bigint" ? value : Number(value);
      default:
        return null;
    }
  }

  #viewObject(value: object, path: (string | number)[], depth: number): unknown {
    if (this.#lazy) return this.#lazyObject(value, path, depth);
    if (Array.isArray(value) || value instanceof Set) {
      const out: unknown[] = [];
      let index = 0;
      for (const item of value) {
        if (typeof item !== "object" || item === null) {
          // fast path for scalars: no path bookkeeping
          if (++this.#count > this.#maxValues) this.#view(item, [...path, index], depth + 1);
          out.push(this.#scalar(item));
        } else {
          path.push(index);
          out.push(this.#view(item, path, depth + 1));
          path.pop();
        }
        index++;
      }
      return out;
    }
    if (value instanceof Map) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of value) {
        if (typeof key !== "string" && typeof key !== "number") continue;
        path.push(String(key));
        setData(out, String(key), this.#view(item, path, depth + 1));
        path.pop();
      }
      return out;
    }
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Promise) return null;
    const custom = expressionViewOf(value);
    if (custom !== undefined) return this.#customView(custom.data, path, depth);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      const json: unknown = toJSON.call(value);
      if (json !== value) {
        if (isChatMessageJSON(json)) return this.#chatMessageView(json, path, depth);
        return this.#view(json, path, depth);
      }
    }
    return this.#ownData(value, path, depth);
  }

  #ownData(value: object, path: (string | number)[], depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined || !("value" in descriptor)) continue; // accessors are not data
      const item: unknown = descriptor.value;
      if (typeof item === "function" || typeof item === "symbol") continue;
      path.push(key);
      setData(out, key, this.#view(item, path, depth + 1));
      path.pop();
    }
    return out;
  }

  /** The lazy view of an object (see the module comment); chat messages and dates as in eager mode. */
  #lazyObject(value: object, path: (string | number)[], depth: number): unknown {
    if (Array.isArray(value) || value instanceof Set) {
      const items: readonly unknown[] = Array.isArray(value) ? value : [...value];
      return this.#lazyList(items, [...path], depth);
    }
    if (value instanceof Map) {
      const entries: Record<string, unknown> = Object.create(null);
      for (const [key, item] of value) {
        if (typeof key === "string" || typeof key === "number") setData(entries, String(key), item);
      }
      return this.#lazyMap(entries, [...path], depth);
    }
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Promise) return null;
    const custom = expressionViewOf(value);
    if (custom !== undefined) return this.#customView(custom.data, path, depth);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      const json: unknown = toJSON.call(value);
      if (json !== value) {
        if (isChatMessageJSON(json)) return this.#chatMessageView(json, path, depth);
        return this.#view(json, path, depth);
      }
    }
    return this.#lazyMap(value, [...path], depth);
  }

  /** A read-only list whose elements are converted when first read. */
  #lazyList(items: readonly unknown[], path: readonly (string | number)[], depth: number): unknown[] {
    // An empty array as the target (so `Array.isArray` holds) and a separate cache: allocating
    // `new Array(length)` would itself cost time proportional to the input.
    const target: unknown[] = [];
    const cache: unknown[] = [];
    const length = items.length;
    const element = (index: number): unknown => {
      let view = cache[index];
      if (view === undefined) {
        this.#onConvert?.();
        const item = items[index];
        if (typeof item !== "object" || item === null) {
          if (++this.#count > this.#maxValues) this.#view(item, [...path, index], depth + 1);
          view = this.#scalar(item);
        } else view = this.#view(item, [...path, index], depth + 1);
        cache[index] = view;
      }
      return view;
    };
    return new Proxy(target, {
      get: (list, key, receiver) => {
        if (typeof key === "string") {
          if (key === "length") return length;
          const index = indexOf(key, length);
          if (index !== undefined) return element(index);
        }
        return Reflect.get(list, key, receiver);
      },
      getOwnPropertyDescriptor: (list, key) => {
        if (typeof key === "string") {
          if (key === "length")
            return { value: length, writable: true, enumerable: false, configurable: false };
          const index = indexOf(key, length);
          if (index !== undefined) {
            return { value: element(index), writable: true, enumerable: true, configurable: true };
          }
        }
        return Reflect.getOwnPropertyDescriptor(list, key);
      },
      has: (list, key) =>
        (typeof key === "string" && indexOf(key, length) !== undefined) || Reflect.has(list, key),
      ownKeys: () => [...Array.from({ length }, (_, index) => String(index)), "length"],
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
      setPrototypeOf: () => false,
    });
  }

  /** A read-only map of an object's own data properties, each converted when first read. */
  #lazyMap(source: object, path: readonly (string | number)[], depth: number): Record<string, unknown> {
    const record = source as Record<string, unknown>;
    const views = new Map<string, unknown>();
    let keys: string[] | undefined;
    const dataKeys = (): string[] => {
      keys ??= Object.keys(source).filter((key) => isData(source, key));
      return keys;
    };
    const has = (key: string | symbol): key is string =>
      typeof key === "string" && (keys === undefined ? isData(source, key) : keys.includes(key));
    const field = (key: string): unknown => {
      if (views.has(key)) return views.get(key);
      this.#onConvert?.();
      const view = this.#view(record[key], [...path, key], depth + 1);
      views.set(key, view);
      return view;
    };
    return new Proxy(Object.create(null) as Record<string, unknown>, {
      get: (_target, key) => (has(key) ? field(key) : undefined),
      has: (_target, key) => has(key),
      ownKeys: () => dataKeys(),
      getOwnPropertyDescriptor: (_target, key) =>
        has(key) ? { value: field(key), writable: true, enumerable: true, configurable: true } : undefined,
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
      setPrototypeOf: () => false,
    });
  }

  /**
   * The view of an instance whose class defines an expression view (`expressionView` from core, e.g. a
   * `Document` seen as `{ id, content, meta, ... }`). A plain object is copied here (eagerly or lazily)
   * rather than through {@link DataViews.view}, so the copy maps back to the instance, not to the
   * temporary object.
   */
  #customView(data: unknown, path: (string | number)[], depth: number): unknown {
    if (typeof data !== "object" || data === null || Array.isArray(data))
      return this.#view(data, path, depth);
    const prototype = Object.getPrototypeOf(data);
    if (prototype !== Object.prototype && prototype !== null) return this.#view(data, path, depth);
    return this.#lazy ? this.#lazyMap(data, [...path], depth) : this.#ownData(data, path, depth);
  }

  /** The view of a chat message: its document plus the reference's convenience accessors as data. */
  #chatMessageView(json: ChatMessageJSON, path: (string | number)[], depth: number): Record<string, unknown> {
    const base = this.#view(json, path, depth) as Record<string, unknown>;
    const content = (base.content ?? []) as Record<string, unknown>[];
    const pick = (key: string) =>
      content.filter((part) => Object.hasOwn(part, key)).map((part) => part[key] as unknown);
    const texts = pick("text");
    const toolCalls = pick("tool_call");
    const toolCallResults = pick("tool_call_result");
    const reasoning = pick("reasoning");
    const images = pick("image");
    const view: Record<string, unknown> = {
      role: base.role,
      name: base.name ?? null,
      meta: base.meta ?? {},
      content,
      text: texts[0] ?? null,
      texts,
      tool_calls: toolCalls,
      tool_call: toolCalls[0] ?? null,
      tool_call_results: toolCallResults,
      tool_call_result: toolCallResults[0] ?? null,
      reasoning: reasoning[0] ?? null,
      images,
      image: images[0] ?? null,
    };
    return view;
  }
}

interface ChatMessageJSON {
  readonly role: string;
  readonly content: readonly unknown[];
}

function isChatMessageJSON(json: unknown): json is ChatMessageJSON {
  return (
    typeof json === "object" &&
    json !== null &&
    typeof (json as { role?: unknown }).role === "string" &&
    chatRoles.has((json as { role: string }).role) &&
    Array.isArray((json as { content?: unknown }).content)
  );
}

/** The list index a property key names (`"3"` → 3), or `undefined` when it is no index below `length`. */
function indexOf(key: string, length: number): number | undefined {
  const first = key.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return undefined; // fast path: not a digit
  const index = Number(key);
  return Number.isInteger(index) && index < length && String(index) === key ? index : undefined;
}

/** True when `key` is an own data property of `source` holding data (not a function or symbol). */
function isData(source: object, key: string): boolean {
  if (!Object.hasOwn(source, key)) return false;
  const descriptor = Object.getOwnPropertyDescriptor(source, key);
  if (descriptor === undefined || !("value" in descriptor)) return false; // accessors are not data
  const value: unknown = descriptor.value;
  return typeof value !== "function" && typeof value !== "symbol";
}

/** Sets an own data property, even for keys such as `__proto__` that assignment would treat specially. */
export function setData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
