import type { Issue } from "@junction/core";
import { didYouMean, excerpt, formatIssues } from "@junction/core";
import { chatMessageSchema } from "@junction/llm";
import { z } from "zod";
import { StateError } from "../errors.js";
import { type MergeHandler, mergeLists } from "./handlers.js";
import { ListEntry, listViewTarget } from "./list-view.js";
import {
  readState,
  type StateFromJSONOptions,
  type StateJSON,
  type StateToJSONOptions,
  writeState,
} from "./state-json.js";
import {
  type ResolvedKeySpec,
  resolveStateSchema,
  type StateKeySpec,
  type StateSchema,
} from "./state-schema.js";

const messagesKey: StateSchema = { messages: { type: z.array(chatMessageSchema) } };

let writeUncheckedImpl: (state: State, key: string, value: unknown) => void;

/** A schema resolved once for many States (see {@link prepareStateSchema}). */
interface PreparedSchema {
  readonly specs: Map<string, ResolvedKeySpec>;
  readonly schema: Readonly<Record<string, StateKeyDefinition>>;
}

/** Schemas resolved by {@link prepareStateSchema}, by the schema object the States are made with. */
const preparedSchemas = new WeakMap<object, PreparedSchema>();

/** A State key's value as read: list values come back as read-only arrays. */
export type StateReadValue<T> = T extends readonly (infer TItem)[] ? readonly TItem[] : T;

/** The value a State key holds, as read. */
export type StateValue<TSchema extends StateSchema, K extends keyof TSchema> = StateReadValue<
  z.output<TSchema[K]["type"]>
>;

/** What `set` accepts for a key: for list keys, items to append (one item or a list of them). */
export type StateSetValue<TSchema extends StateSchema, K extends keyof TSchema> =
  z.input<TSchema[K]["type"]> extends infer TValue
    ? NonNullable<TValue> extends readonly (infer TItem)[]
      ? TValue | TItem
      : TValue
    : never;

/** A schema with the `messages` key every State has (added when not declared). */
export type WithMessages<TSchema extends StateSchema> = "messages" extends keyof TSchema
  ? TSchema
  : TSchema & { readonly messages: StateKeySpec<z.ZodArray<typeof chatMessageSchema>> };

/** The initial data of a State: any subset of its keys. */
export type StateData<TSchema extends StateSchema> = {
  readonly [K in keyof TSchema]?: z.input<TSchema[K]["type"]>;
};

/** What `State.data` returns: every key that has a value, read-only. */
export type StateSnapshot<TSchema extends StateSchema> = Readonly<
  Partial<{ [K in keyof TSchema & string]: StateValue<TSchema, K> }>
>;

/** Options of `new State(...)`. */
export interface StateOptions<TSchema extends StateSchema> {
  /** Every key the State may hold, with its zod schema and optional merge handler. */
  readonly schema: TSchema;
  /** Initial values (checked against the schema; lists are copied). */
  readonly data?: StateData<WithMessages<TSchema>> | undefined;
}

/** A resolved key spec as `State.schema` exposes it. */
export interface StateKeyDefinition {
  /** The value's schema. */
  readonly type: z.ZodType;
  /** The merge handler in force. */
  readonly handler: MergeHandler;
}

function describeKeys(specs: ReadonlyMap<string, unknown>): string {
  return [...specs.keys()].map((key) => `"${excerpt(key)}"`).join(", ") || "none";
}

/**
 * The shared data of one agent run: a set of keys declared by a schema, each with a zod type and a
 * merge handler. Tools read it through `inputsFromState` and write it through `outputsToState`; hooks
 * read and write it directly.
 *
 * Unlike the reference, values are checked against the key's schema on `set` (for list keys, the items
 * being appended), unknown keys are an error on `get` and `set`, and reading a list returns a read-only
 * snapshot in O(1) instead of a deep copy — so a step's cost does not grow with the history.
 * Non-list values are returned as stored: replace them with `set`, do not mutate them.
 *
 * @typeParam TSchema - the declared schema; `get` and `set` are typed from it
 * @example
 * ```ts
 * const state = new State({
 *   schema: { documents: { type: z.array(z.string()) }, topic: { type: z.string() } },
 *   data: { topic: "bees" },
 * });
 * state.set("documents", ["a"]);
 * state.set("documents", "b");      // appended as one item
 * state.get("documents");           // ["a", "b"] (read-only)
 * ```
 */
export class State<TSchema extends StateSchema = StateSchema> {
  readonly #specs: Map<string, ResolvedKeySpec>;
  readonly #values = new Map<string, unknown>();
  /** Every key with its type and the merge handler in force (`messages` is added when not declared). */
  readonly schema: Readonly<Record<keyof WithMessages<TSchema> & string, StateKeyDefinition>>;

  /** @param options - the schema and optional initial data */
  constructor(options: StateOptions<TSchema>) {
    const issues: Issue[] = [];
    const declared = options?.schema;
    const prepared =
      typeof declared === "object" && declared !== null ? preparedSchemas.get(declared) : undefined;
    const { specs, schema } = prepared ?? resolveSchema(declared, issues);
    this.#specs = specs;
    this.schema = schema as Readonly<Record<keyof WithMessages<TSchema> & string, StateKeyDefinition>>;
    const data = (options?.data ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(data)) {
      const spec = specs.get(key);
      if (spec === undefined) {
        issues.push({
          path: ["data", key],
          message: `key "${excerpt(key)}" is not in the schema (keys: ${describeKeys(specs)}).${didYouMean(key, specs.keys())}`,
        });
        continue;
      }
      const checked = checkValue(spec, value, ["data", key], issues);
      if (checked.ok) this.#store(key, checked.value);
    }
    if (issues.length > 0) {
      throw new StateError(`new State(...): invalid schema or data:\n${formatIssues(issues)}`, { issues });
    }
  }

  /**
   * Reads a key. Lists come back as read-only snapshots (later appends do not show in them).
   *
   * @param key - a key of the schema (an unknown key throws a {@link StateError})
   * @returns the value, or `undefined` when the key has none
   */
  get<K extends keyof WithMessages<TSchema> & string>(
    key: K,
  ): StateValue<WithMessages<TSchema>, K> | undefined;
  /**
   * Reads a key, with a default for when it has no value.
   *
   * @param key - a key of the schema (an unknown key throws a {@link StateError})
   * @param defaultValue - returned when the key has no value
   */
  get<K extends keyof WithMessages<TSchema> & string, TDefault>(
    key: K,
    defaultValue: TDefault,
  ): StateValue<WithMessages<TSchema>, K> | TDefault;
  get(key: string, defaultValue?: unknown): unknown {
    this.#spec("State.get", key);
    if (!this.#values.has(key)) return defaultValue;
    return read(this.#values.get(key));
  }

  /**
   * Merges `value` into a key with the key's handler (or `handlerOverride`). The value is checked
   * against the key's schema first; for list keys, each item being appended is checked against the
   * element schema.
   *
   * @param key - a key of the schema (an unknown key throws a {@link StateError})
   * @param value - the new value; for list keys, one item or a list of items
   * @param handlerOverride - merges this once instead of the key's handler
   */
  set<K extends keyof WithMessages<TSchema> & string>(
    key: K,
    value: StateSetValue<WithMessages<TSchema>, K>,
    handlerOverride?: MergeHandler,
  ): void {
    const spec = this.#spec("State.set", key);
    const issues: Issue[] = [];
    const checked = checkValue(spec, value, [key], issues);
    if (!checked.ok) {
      throw new StateError(
        `State.set: the value for key "${excerpt(key)}" does not match its schema:\n${formatIssues(issues)}`,
        {
          issues,
        },
      );
    }
    this.#merge(key, checked.value, handlerOverride ?? spec.handler);
  }

  static {
    writeUncheckedImpl = (state, key, value) => {
      const spec = state.#spec("State.set", key);
      state.#merge(key, value, spec.handler);
    };
  }

  #merge(key: string, value: unknown, handler: MergeHandler): void {
    const current = this.#values.get(key);
    if (handler === mergeLists && (current === undefined || current instanceof ListEntry)) {
      const items = Array.isArray(value) ? value : [value];
      if (current === undefined) this.#values.set(key, new ListEntry(items));
      else current.append(items);
      return;
    }
    const merged = handler(read(current), value);
    if (current instanceof ListEntry && current.isCurrentView(merged)) return;
    this.#store(key, merged);
  }

  /** True when the key has a value (also for keys the schema does not declare: then false). */
  has(key: string): boolean {
    return this.#values.has(key);
  }

  /** A frozen snapshot of every key that has a value (lists as read-only views). O(keys), not O(history). */
  get data(): StateSnapshot<WithMessages<TSchema>> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of this.#values) out[key] = read(value);
    return Object.freeze(out) as StateSnapshot<WithMessages<TSchema>>;
  }

  /**
   * Writes the State as JSON: the schema as JSON Schema (named types such as `ChatMessage` by name,
   * declared handlers by registered name) and the data as JSON. A value without a JSON form is left
   * out with a warning.
   *
   * @param options - `registry` for handler names, `logger`, `skipKeys`
   * @throws SerializationError when a type cannot be written or a handler is not registered
   */
  toJSON(options: StateToJSONOptions = {}): StateJSON {
    return writeState(
      this.#specs,
      (key) => ({ has: this.#values.has(key), value: read(this.#values.get(key)) }),
      options,
    );
  }

  /**
   * Loads a State written by {@link State.toJSON}; the document carries its schema, so none is needed.
   *
   * @param doc - the document
   * @param options - `registry` where handler names are resolved
   * @throws DeserializationError listing every problem
   */
  static fromJSON(doc: unknown, options: StateFromJSONOptions = {}): State {
    const { schema, data } = readState(doc, options);
    return new State({ schema, data });
  }

  /** The number of items of a list key (0 when unset), in O(1). */
  listLength(key: string): number {
    const value = this.#values.get(key);
    return value instanceof ListEntry ? value.length : Array.isArray(value) ? value.length : 0;
  }

  /** The last item of a list key (e.g. the latest message), in O(1); `undefined` when empty. */
  lastItem(key: string): unknown {
    const value = this.#values.get(key);
    return value instanceof ListEntry ? value.last() : undefined;
  }

  #spec(where: string, key: string): ResolvedKeySpec {
    const spec = this.#specs.get(key);
    if (spec === undefined) {
      throw new StateError(
        `${where}: key "${excerpt(key)}" is not in the State schema (keys: ${describeKeys(this.#specs)}).${didYouMean(key, this.#specs.keys())} Declare it in the schema (the Agent's stateSchema) first.`,
      );
    }
    return spec;
  }

  #store(key: string, value: unknown): void {
    if (Array.isArray(value) || listViewTarget(value) !== undefined) {
      this.#values.set(key, new ListEntry(value as unknown[]));
    } else {
      this.#values.set(key, value);
    }
  }
}

/** Resolves a State schema (adding `messages` when it is not declared); problems go to `issues`. */
function resolveSchema(declared: unknown, issues: Issue[]): PreparedSchema {
  const withMessages =
    typeof declared === "object" && declared !== null && !Object.hasOwn(declared, "messages")
      ? { ...declared, ...messagesKey }
      : declared;
  const specs = resolveStateSchema(withMessages, issues);
  const schema: Record<string, StateKeyDefinition> = {};
  for (const [key, spec] of specs) schema[key] = Object.freeze({ type: spec.type, handler: spec.handler });
  return { specs, schema: Object.freeze(schema) };
}

/**
 * Internal (not exported from the package): resolves a schema object that many States will be made
 * with — the Agent's, one State per run — once. Only for a schema object nobody changes afterwards (the
 * Agent builds its own); `new State({ schema })` with that object then skips resolving it.
 *
 * @throws StateError when the schema is invalid (as `new State` would)
 */
export function prepareStateSchema(schema: StateSchema): void {
  const issues: Issue[] = [];
  const prepared = resolveSchema(schema, issues);
  if (issues.length > 0) {
    throw new StateError(`new State(...): invalid schema or data:\n${formatIssues(issues)}`, { issues });
  }
  preparedSchemas.set(schema, prepared);
}

/**
 * Internal (not exported from the package): merges a value the caller built itself and knows to match
 * the schema (the agent's messages and run metadata), skipping the schema check on the hot path.
 */
export function writeUnchecked(state: State, key: string, value: unknown): void {
  writeUncheckedImpl(state, key, value);
}

function read(value: unknown): unknown {
  return value instanceof ListEntry ? value.view() : value;
}

type Checked = { ok: true; value: unknown } | { ok: false };

function parseInto(schema: z.ZodType, value: unknown, path: (string | number)[], issues: Issue[]): Checked {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  for (const issue of result.error.issues) {
    issues.push({
      path: [...path, ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part))],
      message: issue.message,
    });
  }
  return { ok: false };
}

/** Checks a value given for `key`: list keys check each item against the element schema. */
function checkValue(
  spec: ResolvedKeySpec,
  value: unknown,
  path: (string | number)[],
  issues: Issue[],
): Checked {
  const element = spec.element;
  if (element === undefined) return parseInto(spec.type, value, path, issues);
  if (!Array.isArray(value) && listViewTarget(value) === undefined)
    return parseInto(element, value, path, issues);
  const items = value as readonly unknown[];
  const out: unknown[] = new Array(items.length);
  let ok = true;
  for (let index = 0; index < items.length; index++) {
    const checked = parseInto(element, items[index], [...path, index], issues);
    if (checked.ok) out[index] = checked.value;
    else ok = false;
  }
  return ok ? { ok: true, value: out } : { ok: false };
}
