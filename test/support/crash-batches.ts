import { Document } from "@junction/documents";

/**
 * The documents of the document stores' crash tests (`InMemoryDocumentStore` with `path`, and
 * `PgvectorDocumentStore` on a PGlite directory): a writer process writes batch after batch and is
 * killed; the test then reads the store and checks that every batch in it is whole. Every field of a
 * document follows from its batch and index, so a torn write shows. No vitest import: the writer
 * processes load this module too.
 */
export interface CrashBatches {
  /** Documents per batch (one `writeDocuments` call). */
  readonly size: number;
  /** Batch `batch`: `size` documents with ids `b<batch>-<index>`. */
  documents(batch: number): Document[];
  /**
   * The batches `documents` form, and what is wrong with them: a batch with missing documents, or a
   * field that differs from what was written. A store that survived its crash gives no problem.
   */
  check(documents: readonly Document[]): { readonly batches: number[]; readonly problems: string[] };
}

/**
 * Crash-test batches of `size` documents whose content is `contentLength` characters (long, so that a
 * save takes a while and can be cut) and whose embeddings have `dimension` whole numbers (exact in a
 * float4 `vector` column too).
 */
export function crashBatches(size: number, contentLength: number, dimension: number): CrashBatches {
  const content = (batch: number, index: number) =>
    `batch ${batch} document ${index} `.padEnd(
      contentLength,
      String.fromCharCode(97 + ((batch + index) % 26)),
    );
  const embedding = (batch: number, index: number) =>
    Array.from({ length: dimension }, (_, k) => (k === 0 ? batch + 1 : k === 1 ? index : k - 1));
  return {
    size,
    documents: (batch) =>
      Array.from(
        { length: size },
        (_, index) =>
          new Document({
            id: `b${batch}-${index}`,
            content: content(batch, index),
            meta: { batch, index },
            embedding: embedding(batch, index),
          }),
      ),
    check(documents) {
      const byBatch = new Map<number, Document[]>();
      for (const document of documents) {
        const batch = document.meta.batch as number;
        byBatch.set(batch, [...(byBatch.get(batch) ?? []), document]);
      }
      const problems: string[] = [];
      for (const [batch, members] of byBatch) {
        if (members.length !== size)
          problems.push(`batch ${batch} has ${members.length} of ${size} documents`);
        for (const document of members) {
          const index = document.meta.index as number;
          if (document.id !== `b${batch}-${index}`) problems.push(`document ${document.id}: wrong id`);
          if (document.content !== content(batch, index))
            problems.push(`document ${document.id}: content differs`);
          if (JSON.stringify([...(document.embedding ?? [])]) !== JSON.stringify(embedding(batch, index)))
            problems.push(`document ${document.id}: embedding differs`);
        }
      }
      return { batches: [...byBatch.keys()].sort((a, b) => a - b), problems };
    },
  };
}
