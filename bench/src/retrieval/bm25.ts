import { Document, InMemoryDocumentStore } from "@junction/documents";
import { create, insertMultiple, search } from "@orama/orama";
import MiniSearch from "minisearch";
import { type Corpus, zipfCorpus } from "./corpus.js";
import { heldBytes, quantile } from "./measure.js";

/** One row of the BM25 table: a measure for each system. */
export interface Bm25Row {
  readonly measure: string;
  readonly unit: string;
  readonly junction: number;
  readonly minisearch: number;
  readonly orama: number;
}

type SystemName = "junction" | "minisearch" | "orama";

/** A built index: how long indexing took, and a query function returning how many hits it kept. */
interface Built {
  readonly indexMs: number;
  readonly query: (text: string) => Promise<number> | number;
}

const topK = 10;

/** Each system indexes the same texts (documents are created before the clock starts) and answers top 10. */
const systems: Record<SystemName, (corpus: Corpus) => Promise<Built>> = {
  async junction(corpus) {
    const documents = corpus.texts.map((content, index) => new Document({ id: `d${index}`, content }));
    const store = new InMemoryDocumentStore();
    const start = performance.now();
    await store.writeDocuments(documents);
    const indexMs = performance.now() - start;
    return { indexMs, query: async (text) => (await store.bm25Retrieval({ query: text, topK })).length };
  },
  async minisearch(corpus) {
    const documents = corpus.texts.map((content, index) => ({ id: `d${index}`, content }));
    const index = new MiniSearch({ fields: ["content"] });
    const start = performance.now();
    index.addAll(documents);
    const indexMs = performance.now() - start;
    // MiniSearch ranks every match (it has no top-k option); the caller keeps the first ten.
    return { indexMs, query: (text) => index.search(text).slice(0, topK).length };
  },
  async orama(corpus) {
    const documents = corpus.texts.map((content, index) => ({ id: `d${index}`, content }));
    const db = create({ schema: { content: "string" } as const });
    const start = performance.now();
    await insertMultiple(db, documents, 1000);
    const indexMs = performance.now() - start;
    return { indexMs, query: async (text) => (await search(db, { term: text, limit: topK })).hits.length };
  },
};

const names = Object.keys(systems) as SystemName[];

/**
 * BM25 indexing throughput, query latency (p50, p99) and index memory per document, for Junction's
 * InMemoryDocumentStore, MiniSearch and Orama on one seeded Zipf corpus per size.
 *
 * All three indexes are built first (memory: what each build added to the heap and array buffers).
 * Then every query runs on every system, in an order that rotates query by query, so load on a
 * shared machine falls on all three alike.
 *
 * @param sizes - corpus sizes
 * @param queryCount - queries timed per size
 * @param progress - called with a line before each phase
 */
export async function bm25Bench(
  sizes: readonly number[],
  queryCount: number,
  progress: (line: string) => void,
): Promise<Bm25Row[]> {
  const rows: Bm25Row[] = [];
  for (const size of sizes) {
    const corpus = zipfCorpus(size, queryCount);
    const built = {} as Record<SystemName, Built>;
    const bytes = {} as Record<SystemName, number>;
    for (const name of names) {
      progress(`retrieval: ${name} indexes ${size} documents`);
      const before = heldBytes();
      built[name] = await systems[name](corpus);
      bytes[name] = (heldBytes() - before) / size;
    }
    progress(`retrieval: ${queryCount} queries × 3 systems at N=${size}`);
    const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      SystemName,
      number[]
    >;
    const warmup = Math.min(30, queryCount);
    for (let index = -warmup; index < queryCount; index++) {
      const text = corpus.queries[(index + queryCount) % queryCount]!;
      for (let turn = 0; turn < names.length; turn++) {
        const name = names[(index + warmup + turn) % names.length]!;
        const start = performance.now();
        await built[name].query(text);
        if (index >= 0) times[name].push(performance.now() - start);
      }
    }
    const row = (measure: string, unit: string, value: (name: SystemName) => number) =>
      rows.push({
        measure: `${measure}, N=${size}`,
        unit,
        junction: value("junction"),
        minisearch: value("minisearch"),
        orama: value("orama"),
      });
    row("BM25 indexing", "docs/s", (name) => size / (built[name].indexMs / 1000));
    row("BM25 query p50 (top 10)", "ms", (name) => quantile(times[name], 0.5));
    row("BM25 query p99 (top 10)", "ms", (name) => quantile(times[name], 0.99));
    row("BM25 index memory", "bytes/doc", (name) => bytes[name]);
    for (const done of rows.slice(-4)) {
      progress(
        `  ${done.measure}: ${names.map((name) => `${name} ${done[name].toPrecision(4)}`).join(", ")} ${done.unit}`,
      );
    }
  }
  return rows;
}
