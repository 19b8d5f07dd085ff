import { Document } from "../document/document.js";

/** Where a chunk lies in its source text (UTF-16 code units, end exclusive). */
export interface ChunkSpan {
  readonly start: number;
  readonly end: number;
}

/** One `_split_overlap` entry: the overlap with `doc_id` lies at `range` in that document's content. */
export interface SplitOverlap {
  /** The id of the neighbouring chunk. */
  readonly doc_id: string;
  /** `[start, end)` of the shared text in the neighbour's content. */
  readonly range: readonly [number, number];
}

/** A copy of `meta` that shares nothing mutable with it (Haystack deep-copies meta per chunk). */
export function copyMeta(meta: Readonly<Record<string, unknown>>): Record<string, unknown> {
  try {
    return structuredClone(meta) as Record<string, unknown>;
  } catch {
    return { ...meta };
  }
}

/**
 * Makes one document per span of `text`, its id computed from its content and the meta `metaFor`
 * returns (so chunks differing only by page differ, haystack#8741). With `linkOverlaps`, each chunk
 * then gets `_split_overlap` (written after the id, as Haystack does): the previous chunk's entry
 * `{ doc_id: previous.id, range }` with `range` in the previous chunk's coordinates, then the next
 * chunk's entry with `range` in the next chunk's coordinates (always starting at 0).
 *
 * @param text - the source text
 * @param spans - the chunks, in order
 * @param metaFor - the meta of chunk `index` (without `_split_overlap` links)
 * @param linkOverlaps - whether to write `_split_overlap`
 */
export function chunkDocuments(
  text: string,
  spans: readonly ChunkSpan[],
  metaFor: (index: number) => Record<string, unknown>,
  linkOverlaps: boolean,
): Document[] {
  const documents = spans.map(
    (span, index) => new Document({ content: text.slice(span.start, span.end), meta: metaFor(index) }),
  );
  if (!linkOverlaps) return documents;
  const links: SplitOverlap[][] = documents.map(() => []);
  for (let index = 1; index < spans.length; index += 1) {
    const previous = spans[index - 1] as ChunkSpan;
    const current = spans[index] as ChunkSpan;
    if (current.start >= previous.end || current.start < previous.start) continue;
    const previousDocument = documents[index - 1] as Document;
    const currentDocument = documents[index] as Document;
    links[index]?.push({
      doc_id: previousDocument.id,
      range: [current.start - previous.start, previous.end - previous.start],
    });
    links[index - 1]?.push({ doc_id: currentDocument.id, range: [0, previous.end - current.start] });
  }
  return documents.map((document, index) =>
    document.with({ meta: { ...document.meta, _split_overlap: links[index] ?? [] } }),
  );
}
