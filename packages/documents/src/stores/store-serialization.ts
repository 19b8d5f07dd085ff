import {
  copyUntrusted,
  DeserializationError,
  type DeserializeContext,
  didYouMean,
  formatIssues,
  type Issue,
  SerializationError,
  type SerializeContext,
} from "@junction/core";
import type { DocumentStore } from "./document-store.js";

/**
 * How a document store is written in a pipeline document: Haystack's
 * `"document_store": { "type": ..., "init_parameters": {...} }`, with Junction type names
 * (`"junction.InMemoryDocumentStore"`). A store is not a component, but retrievers and writers hold one as
 * an init parameter, so it is saved and loaded with them, through registered types only.
 */
export interface DocumentStoreJSON {
  /** The registered store type, e.g. `"junction.InMemoryDocumentStore"`. */
  readonly type: string;
  /** The store's configuration as JSON (never credentials: secrets as env-var references). */
  readonly init_parameters: Record<string, unknown>;
}

/** A {@link DocumentStore} that can be written into a pipeline document. */
export interface SerializableDocumentStore extends DocumentStore {
  /** The store's registered type and configuration. */
  toJSON(): DocumentStoreJSON;
}

/** A registered store type: its name and how to build a store from its `init_parameters`. */
export interface DocumentStoreType<TStore extends DocumentStore = DocumentStore> {
  /** The type name written in documents; prefix it with your package (`"myapp.RedisDocumentStore"`). */
  readonly type: string;
  /**
   * Builds a store from the `init_parameters` its `toJSON` wrote. Throw (any error) when they are
   * invalid: the loader reports the message with the path of the store in the document.
   */
  fromJSON(initParameters: Record<string, unknown>): TStore;
}

const storeTypes = new Map<string, DocumentStoreType>();

/**
 * Registers a document store type, so pipelines holding such a store can be loaded. Loading resolves a
 * store only through this table (no module is imported, no code named in a document runs).
 * `@junction/documents` registers `"junction.InMemoryDocumentStore"`; `@junction/pgvector` registers its
 * store when imported. Registering the same type again with the same `fromJSON` is a no-op.
 *
 * @param entry - `{ type, fromJSON }`
 * @throws SerializationError when `type` is already registered with another `fromJSON`
 * @example
 * ```ts
 * registerDocumentStoreType({ type: "myapp.RedisDocumentStore", fromJSON: (init) => new RedisDocumentStore(init) });
 * ```
 */
export function registerDocumentStoreType<TStore extends DocumentStore>(
  entry: DocumentStoreType<TStore>,
): void {
  if (typeof entry.type !== "string" || entry.type === "") {
    throw new SerializationError("registerDocumentStoreType: the type must be a non-empty string.");
  }
  const existing = storeTypes.get(entry.type);
  if (existing !== undefined && existing.fromJSON !== entry.fromJSON) {
    throw new SerializationError(
      `registerDocumentStoreType: the store type "${entry.type}" is already registered with another fromJSON. Store type names must be unique; prefix yours with your package name.`,
    );
  }
  storeTypes.set(entry.type, entry as DocumentStoreType);
}

/** The registered document store type names, sorted. */
export function documentStoreTypes(): string[] {
  return [...storeTypes.keys()].sort();
}

/** True when `store` has a `toJSON()` (a {@link SerializableDocumentStore}). */
export function isSerializableDocumentStore(store: unknown): store is SerializableDocumentStore {
  return (
    typeof store === "object" &&
    store !== null &&
    typeof (store as { toJSON?: unknown }).toJSON === "function" &&
    typeof (store as { filterDocuments?: unknown }).filterDocuments === "function"
  );
}

function storeClassName(store: unknown): string {
  const name = (store as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === "string" && name !== "" && name !== "Object" ? name : "this document store";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The problems of writing `store`, at `path`; the JSON when there are none. */
function writeStore(store: unknown, path: readonly (string | number)[], issues: Issue[]) {
  if (!isSerializableDocumentStore(store)) {
    issues.push({
      path,
      message: `${storeClassName(store)} has no toJSON(), so a pipeline holding it cannot be saved. Give the store a toJSON() returning { type, init_parameters } and register its type with registerDocumentStoreType({ type, fromJSON }).`,
    });
    return undefined;
  }
  const json = store.toJSON() as unknown;
  if (!isRecord(json) || typeof json.type !== "string" || !isRecord(json.init_parameters)) {
    issues.push({
      path,
      message: `${storeClassName(store)}.toJSON() must return { type: string, init_parameters: object }.`,
    });
    return undefined;
  }
  if (!storeTypes.has(json.type)) {
    issues.push({
      path: [...path, "type"],
      message: `the store type "${json.type}" is not registered, so the document could not be loaded. Register it with registerDocumentStoreType({ type: "${json.type}", fromJSON }).`,
    });
    return undefined;
  }
  return { type: json.type, init_parameters: json.init_parameters } satisfies DocumentStoreJSON;
}

/**
 * Writes a store as `{ type, init_parameters }`.
 *
 * @param store - the store
 * @throws SerializationError naming the store class when it has no `toJSON()` or its type is not registered
 * @example
 * ```ts
 * documentStoreToJSON(new InMemoryDocumentStore()); // { type: "junction.InMemoryDocumentStore", init_parameters: {...} }
 * ```
 */
export function documentStoreToJSON(store: DocumentStore): DocumentStoreJSON {
  const issues: Issue[] = [];
  const json = writeStore(store, [], issues);
  if (json === undefined) {
    throw new SerializationError(`documentStoreToJSON: ${issues.map((issue) => issue.message).join(" ")}`, {
      issues,
    });
  }
  return json;
}

function unknownTypeMessage(type: string): string {
  const names = documentStoreTypes();
  const lastSegment = type.slice(type.lastIndexOf(".") + 1);
  const hint = didYouMean(type, names) || (lastSegment === type ? "" : didYouMean(lastSegment, names));
  const known = names.length === 0 ? "none" : names.map((name) => `"${name}"`).join(", ");
  return `unknown document store type "${type}".${hint} Registered store types: ${known}. Import the package that defines the store, or register it with registerDocumentStoreType({ type, fromJSON }).`;
}

/** Reads a store document at `path`, recording problems in `issues`. */
function readStore(json: unknown, path: readonly (string | number)[], issues: Issue[]) {
  if (!isRecord(json)) {
    issues.push({ path, message: "a document store must be an object { type, init_parameters }." });
    return undefined;
  }
  const { type } = json;
  if (typeof type !== "string" || type === "") {
    issues.push({ path: [...path, "type"], message: "the store type must be a non-empty string." });
    return undefined;
  }
  const init = json.init_parameters ?? {};
  if (!isRecord(init)) {
    issues.push({ path: [...path, "init_parameters"], message: "init_parameters must be an object." });
    return undefined;
  }
  const entry = storeTypes.get(type);
  if (entry === undefined) {
    issues.push({ path: [...path, "type"], message: unknownTypeMessage(type) });
    return undefined;
  }
  try {
    return entry.fromJSON(init);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    issues.push({
      path: [...path, "init_parameters"],
      message: `cannot create the "${type}" store: ${message}`,
    });
    return undefined;
  }
}

/**
 * Builds a store from `{ type, init_parameters }`, resolving the type only through the registered store
 * types (see {@link registerDocumentStoreType}).
 *
 * @param json - the store document (untrusted input is fine: it is copied and checked first)
 * @throws DeserializationError naming an unknown type, the registered ones and the closest name
 * @example
 * ```ts
 * const store = documentStoreFromJSON({ type: "junction.InMemoryDocumentStore", init_parameters: {} });
 * ```
 */
export function documentStoreFromJSON(json: unknown): DocumentStore {
  const issues: Issue[] = [];
  const copy = copyUntrusted(json, [], issues);
  const store = issues.length > 0 ? undefined : readStore(copy, [], issues);
  if (store === undefined) {
    throw new DeserializationError(`documentStoreFromJSON: cannot load the store:\n${formatIssues(issues)}`, {
      issues,
    });
  }
  return store;
}

/**
 * Stores already loaded while reading one pipeline document, by their JSON: two components that held
 * the same store when saved (a writer and a retriever, a BM25 and an embedding retriever) write identical
 * store JSON and get the same instance back. Keyed by the load's issue list, which is one per load.
 */
const loadedStores = new WeakMap<object, Map<string, DocumentStore>>();

/**
 * For a component serializer: writes the component's `documentStore` param. A problem (no `toJSON()`, an
 * unregistered type) is thrown as a SerializationError with its path, naming the store class and the fix.
 *
 * @param store - the param's value
 * @param context - the serializer's context
 * @param pathSuffix - the param's name (default `"documentStore"`)
 */
export function writeDocumentStoreParam(
  store: DocumentStore,
  context: SerializeContext,
  pathSuffix = "documentStore",
): DocumentStoreJSON {
  const issues: Issue[] = [];
  const json = writeStore(store, [...context.path, pathSuffix], issues);
  if (json === undefined) {
    throw new SerializationError(`cannot write the document store: ${issues[0]?.message ?? ""}`, { issues });
  }
  return json;
}

/**
 * For a component serializer: reads the component's `documentStore` param, recording problems in the
 * context's issues. Identical store documents within one pipeline document load as one shared instance.
 *
 * @param json - the param's JSON value
 * @param context - the serializer's context
 * @param pathSuffix - the param's name (default `"documentStore"`)
 * @returns the store, or `undefined` when it could not be loaded (the problem is recorded)
 */
export function readDocumentStoreParam(
  json: unknown,
  context: DeserializeContext,
  pathSuffix = "documentStore",
): DocumentStore | undefined {
  let cache = loadedStores.get(context.issues);
  if (cache === undefined) {
    cache = new Map();
    loadedStores.set(context.issues, cache);
  }
  const key = JSON.stringify(json);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const store = readStore(json, [...context.path, pathSuffix], context.issues);
  if (store !== undefined) cache.set(key, store);
  return store;
}
