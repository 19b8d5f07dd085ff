import { getDefaultLogger } from "@junction/core";
import type { Document } from "../../document/document.js";
import { compileFilter } from "../../filters/document-matches-filter.js";
import type { Filter } from "../../filters/filter-types.js";
import type { StoreCallOptions, WriteDocumentsOptions } from "../document-store.js";
import {
  type DocumentStoreJSON,
  registerDocumentStoreType,
  type SerializableDocumentStore,
} from "../store-serialization.js";
import { Bm25Index } from "./bm25-index.js";
import { Bm25Scratch, bm25TopK } from "./bm25-scoring.js";
import { DocumentTable } from "./document-table.js";
import { EmbeddingIndex } from "./embedding-index.js";
import { exactSimilarity, rescoreMargin } from "./exact-similarity.js";
import {
  DocumentStoreConfigError,
  EmbeddingDimensionError,
  RetrievalQueryError,
  StoreFileError,
} from "./in-memory-errors.js";
import {
  type InMemoryDocumentStoreOptions,
  makeTokenizer,
  type ResolvedStoreOptions,
  resolveStoreOptions,
} from "./in-memory-options.js";
import {
  inMemoryStoreType,
  readStoreFile,
  readStoreFileSync,
  storeFileText,
  writeFileAtomic,
} from "./store-file.js";
import { planWrite } from "./write-plan.js";

/** Options of {@link InMemoryDocumentStore.bm25Retrieval}. */
export interface Bm25RetrievalOptions {
  /** The query text (non-empty). */
  readonly query: string;
  /** Only documents matching this filter are returned (scores still use the statistics of every document). */
  readonly filters?: Filter | undefined;
  /** How many documents to return at most (default 10). */
  readonly topK?: number | undefined;
  /** Map scores to (0, 1) with expit(score / 8) (default `false`). */
  readonly scaleScore?: boolean | undefined;
  /** Cancels the call. */
  readonly signal?: AbortSignal | undefined;
}

/** Options of {@link InMemoryDocumentStore.embeddingRetrieval}. */
export interface EmbeddingRetrievalOptions {
  /** The query's embedding (same model and dimension as the documents'). */
  readonly queryEmbedding: readonly number[];
  /** Only documents matching this filter are returned. */
  readonly filters?: Filter | undefined;
  /** How many documents to return at most (default 10). */
  readonly topK?: number | undefined;
  /** Map scores to (0, 1): dot product expit(s / 100), cosine (s + 1) / 2 (default `false`). */
  readonly scaleScore?: boolean | undefined;
  /** Return the documents' embeddings (default `false`, as Haystack's `embedding_retrieval`). */
  readonly returnEmbedding?: boolean | undefined;
  /** Cancels the call. */
  readonly signal?: AbortSignal | undefined;
}

const storeBrand = Symbol.for("junction.InMemoryDocumentStore");
const initParameterKeys = new Set([
  "bm25Algorithm",
  "bm25Parameters",
  "bm25TokenizationRegex",
  "embeddingSimilarityFunction",
  "returnEmbedding",
  "path",
  "autoSave",
]);

/** No filter: `undefined`, `null` or `{}` (Haystack's `if filters:` treats an empty dict as none). */
function noFilter(filters: Filter | null | undefined): filters is null | undefined {
  return (
    filters === undefined ||
    filters === null ||
    (typeof filters === "object" && !Array.isArray(filters) && Object.keys(filters).length === 0)
  );
}

function expit(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

function checkTopK(topK: number, where: string): number {
  if (!Number.isInteger(topK) || topK < 0) {
    throw new RetrievalQueryError(`${where}: topK must be an integer ≥ 0 (got ${String(topK)}).`);
  }
  return topK;
}

/**
 * Haystack's `InMemoryDocumentStore`: documents in process memory with BM25 and exact embedding search,
 * and optional persistence to a JSON file.
 *
 * - **BM25** scores equal Haystack's for BM25L, BM25Okapi and BM25Plus, computed from an inverted index
 *   (only the postings of the query's terms are read) with a bounded heap for top-k. One deliberate
 *   difference: a document sharing no token with the query is never returned (Haystack's BM25L and
 *   BM25Plus give such documents a positive score and fill `topK` with them).
 * - **Embeddings** live in one contiguous `Float32Array`; search is an exact scan with a top-k heap,
 *   and the documents it returns are rescored in 64-bit floats, so their scores and order are Haystack's.
 *   All embeddings of a store have one dimension: writing another is refused.
 * - **Persistence**: `save(path)` writes atomically, `InMemoryDocumentStore.load(path)` reads. With the
 *   `path` option the store loads that file when created and saves it after every write and delete.
 * - **Serialization**: `toJSON()` writes the configuration only. Without `path`, a pipeline saved with this
 *   store comes back with an EMPTY store (as in Haystack); give the store a `path` to keep the documents.
 * - Each instance owns its documents (no process-global sharing as Haystack's `shared=True`).
 *
 * @example
 * ```ts
 * const store = new InMemoryDocumentStore({ bm25Algorithm: "BM25Okapi" });
 * await store.writeDocuments([new Document({ content: "Paris is the capital of France." })]);
 * const [best] = await store.bm25Retrieval({ query: "capital of France", topK: 1 });
 * ```
 */
export class InMemoryDocumentStore implements SerializableDocumentStore {
  readonly [storeBrand] = true;
  /** The resolved configuration. */
  readonly options: ResolvedStoreOptions;
  readonly #table = new DocumentTable();
  readonly #bm25: Bm25Index;
  readonly #embeddings: EmbeddingIndex;
  readonly #scratch = new Bm25Scratch();
  #queuedSave: Promise<void> | undefined;
  #lastSave: Promise<void> = Promise.resolve();

  /**
   * @param options - BM25 algorithm and parameters, token pattern, similarity function, `returnEmbedding`,
   *   `path` (loaded now when the file exists) and `autoSave`
   * @throws DocumentStoreConfigError for an invalid option; StoreFileError when `path` exists but is not a store file
   */
  constructor(options: InMemoryDocumentStoreOptions = {}) {
    this.options = resolveStoreOptions(options);
    this.#bm25 = new Bm25Index(makeTokenizer(this.options.bm25TokenizationRegex));
    this.#embeddings = new EmbeddingIndex(this.options.embeddingSimilarityFunction);
    if (this.options.path !== undefined) {
      const contents = readStoreFileSync(this.options.path);
      if (contents !== undefined) this.#writeLoaded(this.options.path, contents.documents);
    }
  }

  /**
   * Writes the documents of a store file, all or none: a file with repeated ids, embeddings of mixed
   * dimensions or values that are not finite was not written by `save` (it is corrupt or crafted).
   */
  #writeLoaded(path: string, documents: readonly Document[]): void {
    try {
      this.#write(documents, "fail");
    } catch (error) {
      throw new StoreFileError(
        `InMemoryDocumentStore: "${path}" holds documents this store refuses, so nothing was loaded (${(error as Error).message}). The file was not written by InMemoryDocumentStore.save; fix or delete it.`,
        path,
        error,
      );
    }
  }

  /** True for an `InMemoryDocumentStore`, even one from another copy of this package. */
  static isInstance(value: unknown): value is InMemoryDocumentStore {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [storeBrand]?: unknown })[storeBrand] === true
    );
  }

  /** The file the store persists to, if any. */
  get path(): string | undefined {
    return this.options.path;
  }

  async countDocuments(options: StoreCallOptions = {}): Promise<number> {
    options.signal?.throwIfAborted();
    return this.#table.size;
  }

  async filterDocuments(filters?: Filter | undefined, options: StoreCallOptions = {}): Promise<Document[]> {
    options.signal?.throwIfAborted();
    const matches = noFilter(filters) ? undefined : compileFilter(filters);
    const out: Document[] = [];
    for (const document of this.#table.documentsInOrder()) {
      if (matches !== undefined && !matches(document)) continue;
      out.push(this.options.returnEmbedding ? document : document.with({ embedding: undefined }));
    }
    return out;
  }

  async writeDocuments(documents: readonly Document[], options: WriteDocumentsOptions = {}): Promise<number> {
    options.signal?.throwIfAborted();
    const written = this.#write(documents, options.policy ?? "none");
    await this.#autoSave();
    return written;
  }

  #write(documents: readonly Document[], policy: WriteDocumentsOptions["policy"] & string): number {
    const plan = planWrite(documents, policy, this.#table, this.#embeddings.dimension);
    for (const document of plan.toWrite) {
      const existing = this.#table.slotOf(document.id);
      if (existing !== undefined) this.#remove(existing);
      const slot = this.#table.insert(document);
      this.#bm25.add(slot, document.content);
      if (document.embedding !== undefined) this.#embeddings.add(slot, document.embedding);
    }
    this.#purgeIfNeeded();
    return plan.written;
  }

  #remove(slot: number): void {
    const document = this.#table.remove(slot);
    this.#bm25.remove(slot, document.content);
    this.#embeddings.remove(slot);
  }

  #purgeIfNeeded(): void {
    if (this.#bm25.needsPurge || this.#table.pendingSlots >= Math.max(1024, this.#table.size)) {
      this.#bm25.purge();
      this.#table.releasePendingSlots();
    }
  }

  async deleteDocuments(ids: readonly string[], options: StoreCallOptions = {}): Promise<void> {
    options.signal?.throwIfAborted();
    let changed = false;
    for (const id of ids) {
      const slot = this.#table.slotOf(id);
      if (slot === undefined) continue;
      this.#remove(slot);
      changed = true;
    }
    this.#purgeIfNeeded();
    if (changed) await this.#autoSave();
  }

  async deleteAllDocuments(options: StoreCallOptions = {}): Promise<void> {
    options.signal?.throwIfAborted();
    this.#table.clear();
    this.#bm25.clear();
    this.#embeddings.clear();
    await this.#autoSave();
  }

  /**
   * The `topK` documents that best match `query` by BM25, best first, each a copy with its `score`.
   * Statistics (N, document frequencies, average length) cover every stored document, filtered or not,
   * as in Haystack. Documents sharing no token with the query are not returned.
   *
   * @throws RetrievalQueryError for an empty query or a bad `topK`; FilterError for a malformed filter
   */
  async bm25Retrieval(options: Bm25RetrievalOptions): Promise<Document[]> {
    options.signal?.throwIfAborted();
    const where = "InMemoryDocumentStore.bm25Retrieval";
    if (typeof options.query !== "string" || options.query === "") {
      throw new RetrievalQueryError(`${where}: the query must be a non-empty string.`);
    }
    const topK = checkTopK(options.topK ?? 10, where);
    const accept = this.#acceptor(options.filters);
    if (this.#bm25.averageLength === 0) return [];
    const { slots, scores } = bm25TopK(this.#bm25, this.#scratch, {
      tokens: this.#bm25.tokenize(options.query),
      algorithm: this.options.bm25Algorithm,
      parameters: this.options.bm25Parameters,
      topK,
      orderOf: this.#table.orders,
      accept,
    });
    const scale = options.scaleScore ?? false;
    const keepNegative = this.options.bm25Algorithm === "BM25Okapi" && !scale;
    const out: Document[] = [];
    slots.forEach((slot, index) => {
      const score = scale ? expit(scores[index]! / 8) : scores[index]!;
      if (!keepNegative && score <= 0) return;
      const document = this.#table.documentAt(slot);
      out.push(
        document.with({ score, embedding: this.options.returnEmbedding ? document.embedding : undefined }),
      );
    });
    return out;
  }

  /**
   * The `topK` documents whose embeddings are most similar to `queryEmbedding` (exact search), best first,
   * each a copy with its `score`. Documents without an embedding are skipped.
   *
   * @throws RetrievalQueryError for an empty or non-numeric query embedding; EmbeddingDimensionError when
   *   its dimension differs from the stored embeddings'
   */
  async embeddingRetrieval(options: EmbeddingRetrievalOptions): Promise<Document[]> {
    options.signal?.throwIfAborted();
    const where = "InMemoryDocumentStore.embeddingRetrieval";
    const query = options.queryEmbedding;
    if (!Array.isArray(query) || query.length === 0 || !query.every((value) => Number.isFinite(value))) {
      throw new RetrievalQueryError(`${where}: queryEmbedding must be a non-empty list of finite numbers.`);
    }
    const topK = checkTopK(options.topK ?? 10, where);
    const accept = this.#acceptor(options.filters);
    const dimension = this.#embeddings.dimension;
    if (dimension === undefined) {
      if (this.#table.size > 0) {
        getDefaultLogger().warn(
          `${where}: none of the ${this.#table.size} documents has an embedding; returning no documents. Embed them with a document embedder before writing them.`,
        );
      }
      return [];
    }
    if (query.length !== dimension) {
      throw new EmbeddingDimensionError(
        `${where}: the query embedding has ${query.length} dimensions but the stored embeddings have ${dimension}. Embed the query with the model that embedded the documents.`,
        { expected: dimension, actual: query.length },
      );
    }
    // The 32-bit scan picks a few more candidates than asked; their exact (64-bit) scores, computed from
    // the documents' own embeddings as Haystack computes them, decide the order and the returned scores.
    const orders = this.#table.orders;
    const candidates = topK === 0 ? 0 : topK + rescoreMargin;
    const { slots } = this.#embeddings.search(query, candidates, orders, accept);
    const similarity = exactSimilarity(query, this.options.embeddingSimilarityFunction);
    const rescored = slots.map((slot) => ({
      slot,
      raw: similarity(this.#table.documentAt(slot).embedding ?? []),
      order: orders[slot]!,
    }));
    rescored.sort((a, b) => b.raw - a.raw || a.order - b.order);
    const scale = options.scaleScore ?? false;
    const cosine = this.options.embeddingSimilarityFunction === "cosine";
    const keepEmbedding = options.returnEmbedding ?? false;
    return rescored.slice(0, topK).map(({ slot, raw }) => {
      const score = !scale ? raw : cosine ? (raw + 1) / 2 : expit(raw / 100);
      const document = this.#table.documentAt(slot);
      return document.with({ score, embedding: keepEmbedding ? document.embedding : undefined });
    });
  }

  #acceptor(filters: Filter | undefined): ((slot: number) => boolean) | undefined {
    if (noFilter(filters)) return undefined;
    const matches = compileFilter(filters);
    return (slot) => matches(this.#table.documentAt(slot));
  }

  /**
   * Writes every document and the configuration to `path` (default: the store's `path`) atomically.
   *
   * @throws StoreFileError naming the file when it cannot be written
   */
  async save(path?: string | undefined): Promise<void> {
    const target = path ?? this.options.path;
    if (target === undefined) {
      throw new DocumentStoreConfigError(
        "InMemoryDocumentStore.save: give a path, e.g. store.save('./documents.json'), or create the store with { path }.",
      );
    }
    if (target === this.options.path) return this.#queueSave(target);
    return writeFileAtomic(target, this.#fileText());
  }

  #fileText(): string {
    const { path: _path, ...config } = this.toJSON().init_parameters;
    return storeFileText(config, this.#table.documentsInOrder());
  }

  /** Saves to `path` after the running save; calls made while a save waits share it. */
  #queueSave(path: string): Promise<void> {
    if (this.#queuedSave !== undefined) return this.#queuedSave;
    const queued = this.#lastSave
      .catch(() => undefined)
      .then(() => {
        this.#queuedSave = undefined;
        return writeFileAtomic(path, this.#fileText());
      });
    this.#queuedSave = queued;
    this.#lastSave = queued;
    return queued;
  }

  async #autoSave(): Promise<void> {
    if (this.options.path !== undefined && this.options.autoSave) await this.#queueSave(this.options.path);
  }

  /**
   * Reads a file written by {@link InMemoryDocumentStore.save} into a new store with the saved
   * configuration (and no `path`: the new store does not write back to the file).
   *
   * @throws StoreFileError naming the file when it is missing, not JSON or not a store file
   */
  static async load(path: string): Promise<InMemoryDocumentStore> {
    const contents = await readStoreFile(path);
    const { path: _ignored, ...config } = contents.initParameters;
    let store: InMemoryDocumentStore;
    try {
      store = InMemoryDocumentStore.fromJSON(config);
    } catch (error) {
      throw new StoreFileError(
        `InMemoryDocumentStore: "${path}" has an invalid configuration (${(error as Error).message}). Fix its init_parameters or delete the file.`,
        path,
        error,
      );
    }
    store.#writeLoaded(path, contents.documents);
    return store;
  }

  /**
   * `{ type: "junction.InMemoryDocumentStore", init_parameters }`: the configuration (and `path`), never
   * the documents. A store without `path` is loaded back EMPTY.
   */
  toJSON(): DocumentStoreJSON {
    const options = this.options;
    const init: Record<string, unknown> = {
      bm25Algorithm: options.bm25Algorithm,
      bm25Parameters: { ...options.bm25Parameters },
      bm25TokenizationRegex: options.bm25TokenizationRegex,
      embeddingSimilarityFunction: options.embeddingSimilarityFunction,
      returnEmbedding: options.returnEmbedding,
    };
    if (options.path !== undefined) init.path = options.path;
    if (!options.autoSave) init.autoSave = false;
    return { type: inMemoryStoreType, init_parameters: init };
  }

  /**
   * Builds a store from the `init_parameters` {@link InMemoryDocumentStore.toJSON} writes.
   *
   * @throws DocumentStoreConfigError for an unknown key or an invalid value
   */
  static fromJSON(initParameters: Record<string, unknown>): InMemoryDocumentStore {
    for (const key of Object.keys(initParameters)) {
      if (!initParameterKeys.has(key)) {
        throw new DocumentStoreConfigError(
          `InMemoryDocumentStore: unknown init parameter "${key}"; the parameters are ${[...initParameterKeys].join(", ")}.`,
        );
      }
    }
    return new InMemoryDocumentStore(initParameters as InMemoryDocumentStoreOptions);
  }
}

registerDocumentStoreType({ type: inMemoryStoreType, fromJSON: InMemoryDocumentStore.fromJSON });
