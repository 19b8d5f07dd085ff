import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ByteStream } from "../document/byte-stream.js";
import { Document } from "../document/document.js";
import { SparseEmbedding } from "../document/sparse-embedding.js";
import { documentMatchesFilter } from "../filters/document-matches-filter.js";
import { FilterError } from "../filters/filter-error.js";
import type { Filter } from "../filters/filter-types.js";
import type { DocumentStore } from "../stores/document-store.js";
import { DuplicateDocumentError } from "../stores/errors.js";
import { conformanceDocuments } from "./conformance-documents.js";
import { filterCases, invalidFilterCases } from "./filter-cases.js";

/** Options of {@link describeDocumentStore}. */
export interface DocumentStoreSuiteOptions {
  /**
   * Tests the store does not support, by key (the key is shown in each test's name, e.g.
   * `"filter.not"`, `"write.batch-duplicates"`), with the reason; they are reported as skipped with
   * the reason in their name.
   */
  readonly skip?: Readonly<Record<string, string>> | undefined;
  /** Releases a store made by `makeStore` (close a pool, drop a table); called after each use. */
  readonly dispose?: ((store: DocumentStore) => void | Promise<void>) | undefined;
  /** Per-test timeout in milliseconds (vitest's default when left out). */
  readonly timeout?: number | undefined;
}

type Body = (store: DocumentStore) => Promise<void>;

/**
 * The conformance suite of the {@link DocumentStore} contract, as vitest tests: counting, writing with
 * every duplicate policy, deleting, filtering with every operator on missing, null, nested, date,
 * number, boolean, string and list values, the filter errors, and documents round-tripping with blob,
 * embedding and metadata intact. Expected filter results are Haystack's semantics, computed with
 * `documentMatchesFilter` over {@link conformanceDocuments} and checked by hand.
 *
 * Results are compared by id regardless of order, and by `content` and `meta`.
 *
 * @param name - the store's name, shown in the test names
 * @param makeStore - returns a fresh, empty store (called once per test, once for all filter tests)
 * @param options - unsupported tests with reasons, cleanup, timeout
 * @example
 * ```ts
 * import { describeDocumentStore } from "@junction/documents/testing";
 * describeDocumentStore("RedisDocumentStore", () => new RedisDocumentStore({ index: randomName() }), {
 *   skip: { "filter.not": "RediSearch has no NOT over missing fields" },
 *   dispose: (store) => (store as RedisDocumentStore).close(),
 * });
 * ```
 */
export function describeDocumentStore(
  name: string,
  makeStore: () => DocumentStore | Promise<DocumentStore>,
  options: DocumentStoreSuiteOptions = {},
): void {
  const skip = options.skip ?? {};
  const withStore = async (body: Body): Promise<void> => {
    const store = await makeStore();
    try {
      await body(store);
    } finally {
      await options.dispose?.(store);
    }
  };
  const check = (key: string, title: string, body: () => Promise<void>): void => {
    const reason = skip[key];
    if (reason !== undefined) test.skip(`${title} [${key}] — not supported: ${reason}`, body);
    else test(`${title} [${key}]`, body, options.timeout);
  };
  const checkWithStore = (key: string, title: string, body: Body): void =>
    check(key, title, () => withStore(body));

  describe(`${name} conforms to the DocumentStore contract`, () => {
    describe("counting, writing and deleting", () => {
      checkWithStore("count", "countDocuments counts what was written", async (store) => {
        expect(await store.countDocuments()).toBe(0);
        expect(await store.writeDocuments([doc("a"), doc("b"), doc("c")])).toBe(3);
        expect(await store.countDocuments()).toBe(3);
      });

      checkWithStore(
        "write.policy-none",
        'policy "none" (the default) fails on a duplicate',
        async (store) => {
          const first = doc("a");
          expect(await store.writeDocuments([first])).toBe(1);
          await expect(store.writeDocuments([doc("a")])).rejects.toBeInstanceOf(DuplicateDocumentError);
          expect(await store.writeDocuments([doc("b")], { policy: "none" })).toBe(1);
          await expect(store.writeDocuments([doc("b")], { policy: "none" })).rejects.toBeInstanceOf(
            DuplicateDocumentError,
          );
          expect(await store.countDocuments()).toBe(2);
        },
      );

      checkWithStore(
        "write.policy-fail",
        'policy "fail" names every duplicate id and writes nothing of the batch',
        async (store) => {
          await store.writeDocuments([doc("a"), doc("b")], { policy: "fail" });
          let error: unknown;
          try {
            await store.writeDocuments([doc("new-1"), doc("a"), doc("new-2"), doc("b")], { policy: "fail" });
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(DuplicateDocumentError);
          expect([...(error as DuplicateDocumentError).ids].sort()).toEqual(["a", "b"]);
          expect((error as DuplicateDocumentError).message).toContain('"a"');
          expect(sortedIds(await store.filterDocuments())).toEqual(["a", "b"]);
        },
      );

      checkWithStore(
        "write.policy-skip",
        'policy "skip" keeps the stored document and counts only new ones',
        async (store) => {
          expect(await store.writeDocuments([doc("a", "first")], { policy: "skip" })).toBe(1);
          expect(await store.writeDocuments([doc("a", "second"), doc("b")], { policy: "skip" })).toBe(1);
          const stored = await store.filterDocuments({ field: "id", operator: "==", value: "a" });
          expect(stored.map((document) => document.content)).toEqual(["first"]);
          expect(await store.countDocuments()).toBe(2);
        },
      );

      checkWithStore(
        "write.policy-overwrite",
        'policy "overwrite" replaces the stored document',
        async (store) => {
          expect(await store.writeDocuments([doc("1", "test doc 2")], { policy: "overwrite" })).toBe(1);
          expect(await store.writeDocuments([doc("1", "test doc 1")], { policy: "overwrite" })).toBe(1);
          const stored = await store.filterDocuments();
          expect(stored.map((document) => [document.id, document.content])).toEqual([["1", "test doc 1"]]);
        },
      );

      checkWithStore(
        "write.batch-duplicates",
        "duplicates within one batch: fail throws, skip writes one",
        async (store) => {
          await expect(store.writeDocuments([doc("x"), doc("x")], { policy: "fail" })).rejects.toBeInstanceOf(
            DuplicateDocumentError,
          );
          expect(await store.countDocuments()).toBe(0);
          expect(await store.writeDocuments([doc("x", "one"), doc("x", "two")], { policy: "skip" })).toBe(1);
          expect(await store.countDocuments()).toBe(1);
        },
      );

      checkWithStore("delete", "deleteDocuments deletes by id and ignores unknown ids", async (store) => {
        await store.deleteDocuments(["missing"]);
        await store.writeDocuments([doc("a"), doc("b"), doc("c")]);
        await store.deleteDocuments(["a", "missing", "c"]);
        expect(sortedIds(await store.filterDocuments())).toEqual(["b"]);
        await store.deleteDocuments([]);
        expect(await store.countDocuments()).toBe(1);
      });

      checkWithStore(
        "delete-all",
        "deleteAllDocuments empties the store, which stays usable",
        async (store) => {
          await store.deleteAllDocuments();
          await store.writeDocuments([doc("a"), doc("b")]);
          await store.deleteAllDocuments();
          expect(await store.countDocuments()).toBe(0);
          expect(await store.filterDocuments()).toEqual([]);
          expect(await store.writeDocuments([doc("a")])).toBe(1);
        },
      );

      checkWithStore(
        "round-trip",
        "a document comes back with its id, content, blob, meta and embedding",
        async (store) => {
          const original = new Document({
            content: 'Ünïcödé 😀 "quoted" \\ back',
            blob: new ByteStream(
              Uint8Array.from({ length: 256 }, (_, index) => index),
              {
                mimeType: "application/pdf",
                meta: { file: "a.pdf" },
              },
            ),
            meta: {
              nested: { list: [1, 2.5, "x", null, true], empty: {} },
              lang: "de",
              emoji: "😀",
              count: 3,
            },
            embedding: [0.5, -0.25, 0.125, 1],
          });
          await store.writeDocuments([original]);
          const [back] = await store.filterDocuments();
          expect(back?.id).toBe(original.id);
          expect(back?.content).toBe(original.content);
          expect(back?.meta).toEqual(original.meta);
          expect(back?.embedding).toEqual(original.embedding);
          expect(back?.blob?.data).toEqual(original.blob?.data);
          expect(back?.blob?.mimeType).toBe("application/pdf");
          expect(back?.blob?.meta).toEqual({ file: "a.pdf" });
        },
      );

      checkWithStore("round-trip.sparse-embedding", "a sparse embedding comes back", async (store) => {
        const original = new Document({
          content: "s",
          sparseEmbedding: new SparseEmbedding([0, 7], [0.5, 0.25]),
        });
        await store.writeDocuments([original]);
        const [back] = await store.filterDocuments();
        expect(back?.sparseEmbedding?.toJSON()).toEqual({ indices: [0, 7], values: [0.5, 0.25] });
      });
    });

    describe("filterDocuments", () => {
      let store: DocumentStore | undefined;
      const fixtures = conformanceDocuments();
      const ready = async (): Promise<DocumentStore> => {
        if (store === undefined) throw new Error("the store of the filter tests was not made");
        return store;
      };
      beforeAll(async () => {
        store = await makeStore();
        await store.writeDocuments(conformanceDocuments());
      });
      afterAll(async () => {
        if (store !== undefined) await options.dispose?.(store);
      });

      check("filter.none", "without a filter returns every document", async () => {
        expect(sortedIds(await (await ready()).filterDocuments())).toEqual(sortedIds(fixtures));
      });

      check(
        "filter.empty-object",
        "an empty filter object means no filter (Haystack's filters={})",
        async () => {
          expect(sortedIds(await (await ready()).filterDocuments({} as Filter))).toEqual(sortedIds(fixtures));
        },
      );

      for (const item of filterCases) {
        check(item.key, item.title, async () => {
          const reference = fixtures.filter((document) => documentMatchesFilter(item.filter, document));
          expect(sortedIds(reference), "the hand-checked ids agree with documentMatchesFilter").toEqual(
            [...item.expected].sort(),
          );
          const result = await (await ready()).filterDocuments(item.filter);
          expect(sortedIds(result)).toEqual([...item.expected].sort());
          expect(comparable(result)).toEqual(comparable(reference));
        });
      }

      for (const item of invalidFilterCases) {
        check(item.key, `rejects ${item.title} with a FilterError`, async () => {
          await expect((await ready()).filterDocuments(item.filter as Filter)).rejects.toBeInstanceOf(
            FilterError,
          );
        });
      }

      check(
        "filter-error.stored-non-date",
        "ordering a stored string that is not an ISO date is a FilterError",
        async () => {
          const filter: Filter = { field: "meta.name", operator: ">", value: "2020-01-01" };
          await expect((await ready()).filterDocuments(filter)).rejects.toBeInstanceOf(FilterError);
        },
      );
    });
  });
}

function doc(id: string, content = `document ${id}`): Document {
  return new Document({ id, content });
}

function sortedIds(documents: readonly Document[]): string[] {
  return documents.map((document) => document.id).sort();
}

function comparable(
  documents: readonly Document[],
): { id: string; content: string | undefined; meta: unknown }[] {
  return [...documents]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((document) => ({ id: document.id, content: document.content, meta: document.meta }));
}
