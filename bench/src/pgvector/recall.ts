import type { Filter, InMemoryDocumentStore } from "@junction/documents";
import type { IterativeScan, PgvectorDocumentStore } from "@junction/pgvector";

/** One recall measurement. */
export interface RecallRow {
  readonly filter: string;
  readonly efSearch: number;
  /** Mean recall@k with the iterative scan (what the store runs by default). */
  readonly iterative: number;
  /** Mean recall@k of a plain post-filtered index scan (pgvector before 0.8, or `hnswIterativeScan: "off"`). */
  readonly plain: number;
  /** Mean number of results of the plain scan (short of k when the filter drops candidates). */
  readonly plainReturned: number;
}

/**
 * HNSW recall@k against exact search (the in-memory store, cosine, same filters): an `ef_search` sweep
 * without a filter, and 1% and 10% filters at ef_search 40, each with the iterative scan on and off.
 */
export async function hnswRecall(options: {
  truth: InMemoryDocumentStore;
  hnsw: PgvectorDocumentStore;
  queries: number[][];
  topK: number;
  quick: boolean;
}): Promise<RecallRow[]> {
  const { truth, hnsw, queries, topK } = options;
  const cases: { filter: string; value: Filter | undefined; efSearch: number }[] = [];
  for (const efSearch of options.quick ? [10, 40] : [10, 20, 40, 80, 160])
    cases.push({ filter: "none", value: undefined, efSearch });
  cases.push({ filter: "1%", value: { field: "meta.bucket", operator: "==", value: 7 }, efSearch: 40 });
  cases.push({ filter: "10%", value: { field: "meta.bucket", operator: "<", value: 10 }, efSearch: 40 });
  const rows: RecallRow[] = [];
  for (const { filter, value, efSearch } of cases) {
    let iterative = 0;
    let plain = 0;
    let plainReturned = 0;
    for (const query of queries) {
      const expected = new Set(
        (await truth.embeddingRetrieval({ queryEmbedding: query, topK, filters: value })).map((d) => d.id),
      );
      const run = (iterativeScan: IterativeScan) =>
        hnsw.embeddingRetrieval({ queryEmbedding: query, topK, filters: value, efSearch, iterativeScan });
      const withScan = await run("relaxed_order");
      const without = await run("off");
      iterative += withScan.filter((d) => expected.has(d.id)).length / expected.size;
      plain += without.filter((d) => expected.has(d.id)).length / expected.size;
      plainReturned += without.length;
    }
    rows.push({
      filter,
      efSearch,
      iterative: iterative / queries.length,
      plain: plain / queries.length,
      plainReturned: plainReturned / queries.length,
    });
  }
  return rows;
}
