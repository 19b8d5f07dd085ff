import { Document, InMemoryDocumentStore } from "@junction/documents";
import { randomVectors } from "./corpus.js";
import { quantile } from "./measure.js";

/** One row of the embedding table. */
export interface EmbeddingRow {
  readonly measure: string;
  readonly unit: string;
  readonly junction: number;
  readonly floor: number;
}

const topK = 10;

/**
 * The floor: a plain loop over one contiguous Float32Array, keeping the best ten in a small sorted array.
 * No filters, no documents: the least work exact top-k can do in JavaScript.
 */
function floorTopK(data: Float32Array, rows: number, dimension: number, query: Float32Array): number {
  const bestScores = new Float64Array(topK).fill(Number.NEGATIVE_INFINITY);
  const bestRows = new Int32Array(topK).fill(-1);
  for (let row = 0; row < rows; row++) {
    const base = row * dimension;
    let score = 0;
    for (let i = 0; i < dimension; i++) score += data[base + i]! * query[i]!;
    if (score <= bestScores[topK - 1]!) continue;
    let position = topK - 1;
    while (position > 0 && bestScores[position - 1]! < score) {
      bestScores[position] = bestScores[position - 1]!;
      bestRows[position] = bestRows[position - 1]!;
      position--;
    }
    bestScores[position] = score;
    bestRows[position] = row;
  }
  return bestRows.filter((row) => row >= 0).length;
}

/**
 * Exact embedding top-10 (dot product) over `count` × `dimension` vectors: Junction's
 * InMemoryDocumentStore.embeddingRetrieval against the plain-loop floor; p50 latency over the queries.
 */
export async function embeddingBench(
  count: number,
  dimension: number,
  queryCount: number,
): Promise<EmbeddingRow[]> {
  const data = randomVectors(count, dimension);
  const queries = Array.from({ length: queryCount }, (_, index) => randomVectors(1, dimension, 1000 + index));
  const store = new InMemoryDocumentStore();
  const documents: Document[] = [];
  for (let row = 0; row < count; row++) {
    const embedding = Array.from(data.subarray(row * dimension, (row + 1) * dimension));
    documents.push(new Document({ id: `v${row}`, content: `vector ${row}`, embedding }));
  }
  await store.writeDocuments(documents);
  // Junction and the floor alternate query by query, so load on a shared machine falls on both alike.
  const junction: number[] = [];
  const floor: number[] = [];
  for (let index = -5; index < queryCount; index++) {
    const query = queries[(index + queryCount) % queryCount]!;
    const runs: [number[], () => Promise<number> | number][] = [
      [
        junction,
        async () => (await store.embeddingRetrieval({ queryEmbedding: Array.from(query), topK })).length,
      ],
      [floor, () => floorTopK(data, count, dimension, query)],
    ];
    if (index % 2 === 1) runs.reverse();
    for (const [times, run] of runs) {
      const start = performance.now();
      if ((await run()) !== topK) throw new Error("exact top-k returned too few rows");
      if (index >= 0) times.push(performance.now() - start);
    }
  }
  return [
    {
      measure: `exact top-${topK}, ${count} × ${dimension}, p50`,
      unit: "ms",
      junction: quantile(junction, 0.5),
      floor: quantile(floor, 0.5),
    },
  ];
}
