import { Document } from "@junction/documents";

/** Documents per batch (one transaction) in the crash tests. */
export const batchSize = 100;

/** The text of document `index` of batch `batch`. */
export function batchContent(batch: number, index: number): string {
  return `batch ${batch} document ${index} `.padEnd(2000, "abcdefghij"[(batch + index) % 10]);
}

/** Batch `batch` of the crash tests: documents whose every field can be checked after a crash. */
export function crashBatch(batch: number): Document[] {
  return Array.from(
    { length: batchSize },
    (_, index) =>
      new Document({
        id: `b${batch}-${index}`,
        content: batchContent(batch, index),
        meta: { batch, index },
        embedding: [batch + 1, index, 1],
      }),
  );
}
