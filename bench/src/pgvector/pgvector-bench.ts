import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, InMemoryDocumentStore } from "@junction/documents";
import { PgvectorDocumentStore } from "@junction/pgvector";
import { quantile } from "../retrieval/measure.js";
import { hnswRecall, type RecallRow } from "./recall.js";
import { seededVectors } from "./vectors.js";

/** One row of the side-by-side table (in-memory vs PGlite). */
export interface PgvectorRow {
  readonly measure: string;
  readonly unit: string;
  readonly inMemory: number;
  readonly pglite: number;
}

/** The results of `pnpm bench pgvector`. */
export interface PgvectorResults {
  readonly documents: number;
  readonly dimension: number;
  readonly rows: PgvectorRow[];
  readonly recall: RecallRow[];
}

const topK = 10;

async function timeEach<T>(inputs: readonly T[], run: (input: T) => Promise<unknown>): Promise<number[]> {
  await run(inputs[0]!);
  const out: number[] = [];
  for (const input of inputs) {
    const start = performance.now();
    await run(input);
    out.push(performance.now() - start);
  }
  return out;
}

async function writeAll(
  store: { writeDocuments(d: readonly Document[]): Promise<number> },
  corpus: Document[],
  batch: number,
) {
  const start = performance.now();
  for (let at = 0; at < corpus.length; at += batch) await store.writeDocuments(corpus.slice(at, at + batch));
  return corpus.length / ((performance.now() - start) / 1000);
}

/**
 * `pnpm bench pgvector`: PgvectorDocumentStore on embedded PGlite (a temporary data directory) beside
 * the in-memory store: write throughput, exact top-10 latency, HNSW index build and query latency, and
 * HNSW recall@10 against exact search over an `ef_search` sweep and at 1% / 10% filter selectivity, with
 * pgvector's iterative scan (what the store runs) and without (a post-filtered index scan).
 * `quick`: tiny sizes (CI smoke run).
 */
export async function pgvectorBench(
  quick: boolean,
  sizes: {
    documents?: number | undefined;
    dimension?: number | undefined;
    queries?: number | undefined;
  } = {},
): Promise<PgvectorResults> {
  const documents = sizes.documents ?? (quick ? 2_000 : 100_000);
  const dimension = sizes.dimension ?? (quick ? 16 : 128);
  const queries = seededVectors(sizes.queries ?? (quick ? 5 : 50), dimension, 99);
  const corpus = seededVectors(documents, dimension, 11).map(
    (embedding, row) =>
      new Document({ id: `d${row}`, content: `document ${row}`, meta: { bucket: row % 100 }, embedding }),
  );
  const dataDir = join(mkdtempSync(join(tmpdir(), "junction-bench-pgvector-")), "db");
  const options = { dataDir, embeddingDimension: dimension, tableName: "bench_documents" } as const;
  const memory = new InMemoryDocumentStore({ embeddingSimilarityFunction: "cosine" });
  const rows: PgvectorRow[] = [];
  try {
    const exact = new PgvectorDocumentStore(options);
    await exact.warmUp();
    const batch = 1_000;
    rows.push({
      measure: `write ${documents} × ${dimension} (batches of ${batch})`,
      unit: "docs/s",
      inMemory: await writeAll(memory, corpus, batch),
      pglite: await writeAll(exact, corpus, batch),
    });
    const memoryExact = await timeEach(queries, (query) =>
      memory.embeddingRetrieval({ queryEmbedding: query, topK }),
    );
    const pgliteExact = await timeEach(queries, (query) =>
      exact.embeddingRetrieval({ queryEmbedding: query, topK }),
    );
    rows.push({
      measure: `exact top-${topK} (cosine), p50`,
      unit: "ms",
      inMemory: quantile(memoryExact, 0.5),
      pglite: quantile(pgliteExact, 0.5),
    });
    await exact.close();

    const hnsw = new PgvectorDocumentStore({
      ...options,
      searchStrategy: "hnsw",
      hnswIndexCreationKwargs: { m: 16, efConstruction: 64 },
    });
    const buildStart = performance.now();
    await hnsw.warmUp();
    rows.push({
      measure: "reopen + HNSW index build (m 16, ef_construction 64)",
      unit: "s",
      inMemory: Number.NaN,
      pglite: (performance.now() - buildStart) / 1000,
    });
    const unfiltered = await timeEach(queries, (query) =>
      hnsw.embeddingRetrieval({ queryEmbedding: query, topK }),
    );
    rows.push({
      measure: `HNSW top-${topK} (ef_search 40), p50`,
      unit: "ms",
      inMemory: Number.NaN,
      pglite: quantile(unfiltered, 0.5),
    });
    const onePercent = { field: "meta.bucket", operator: "==", value: 7 } as const;
    const memoryFiltered = await timeEach(queries, (query) =>
      memory.embeddingRetrieval({ queryEmbedding: query, topK, filters: onePercent }),
    );
    const filtered = await timeEach(queries, (query) =>
      hnsw.embeddingRetrieval({ queryEmbedding: query, topK, filters: onePercent }),
    );
    rows.push({
      measure: `top-${topK}, 1% filter (in-memory exact; PGlite HNSW iterative scan), p50`,
      unit: "ms",
      inMemory: quantile(memoryFiltered, 0.5),
      pglite: quantile(filtered, 0.5),
    });
    const recall = await hnswRecall({ truth: memory, hnsw, queries, topK, quick });
    await hnsw.close();
    return { documents, dimension, rows, recall };
  } finally {
    rmSync(join(dataDir, ".."), { recursive: true, force: true });
  }
}
