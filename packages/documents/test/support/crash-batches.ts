import { Document } from "../../src/index.js";

/** Documents per batch in the crash tests. */
export const batchSize = 150;

/** The text of document `index` of batch `batch`: long, so a save takes a while and can be cut. */
export function batchContent(batch: number, index: number): string {
  return `batch ${batch} document ${index} `.padEnd(3000, String.fromCharCode(97 + ((batch + index) % 26)));
}

/** The embedding of document `index` of batch `batch`. */
export function batchEmbedding(batch: number, index: number): number[] {
  return Array.from({ length: 8 }, (_, k) => batch + index / 1000 + k);
}

/** Batch `batch` of the crash tests: whole documents whose every field can be checked after a crash. */
export function batchDocuments(batch: number): Document[] {
  return Array.from(
    { length: batchSize },
    (_, index) =>
      new Document({
        id: `b${batch}-${index}`,
        content: batchContent(batch, index),
        meta: { batch, index },
        embedding: batchEmbedding(batch, index),
      }),
  );
}
