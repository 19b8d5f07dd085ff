import { pythonWordPattern } from "../document/python-whitespace.js";
import type { ChunkSpan } from "./chunk-documents.js";
import {
  chunkLength,
  countUnits,
  cutAfter,
  lastUnitsStart,
  type RecursiveSplitUnit,
} from "./recursive-units.js";
import { haystackSentenceStarts } from "./sentence-rules.js";

/** How {@link recursiveSpans} cuts a text. */
export interface RecursiveOptions {
  readonly splitLength: number;
  readonly splitOverlap: number;
  readonly splitUnit: RecursiveSplitUnit;
  /** Literal separators, or `"sentence"` for `Intl.Segmenter` sentences; tried in order. */
  readonly separators: readonly string[];
  readonly segmenter: Intl.Segmenter;
  /** Called when a chunk is entirely repeated as the next one's overlap (Haystack warns then). */
  readonly onWholeChunkOverlap?: (() => void) | undefined;
}

type Span = [start: number, end: number];

/** The pieces of `[start, end)` cut after each occurrence of `separator` (which stays with its piece). */
function separatorPieces(
  text: string,
  start: number,
  end: number,
  separator: string,
  options: RecursiveOptions,
): Span[] {
  const pieces: Span[] = [];
  if (separator === "sentence") {
    let pieceStart = start;
    for (const next of haystackSentenceStarts(text.slice(start, end), options.segmenter)) {
      pieces.push([pieceStart, start + next]);
      pieceStart = start + next;
    }
    if (pieceStart < end) pieces.push([pieceStart, end]);
    return pieces;
  }
  let pieceStart = start;
  for (let at = text.indexOf(separator, start); at >= 0 && at + separator.length <= end; ) {
    pieces.push([pieceStart, at + separator.length]);
    pieceStart = at + separator.length;
    at = text.indexOf(separator, pieceStart);
  }
  if (pieceStart < end) pieces.push([pieceStart, end]);
  return pieces;
}

/**
 * Haystack's fixed-size fallback: `splitLength` words per chunk (whitespace after the last word opens
 * the next chunk; trailing whitespace joins the last chunk), or `splitLength` chars per chunk.
 */
function fixedSpans(text: string, start: number, end: number, options: RecursiveOptions): Span[] {
  const { splitLength } = options;
  const spans: Span[] = [];
  if (options.splitUnit === "char") {
    for (let at = start; at < end; at += splitLength) spans.push([at, Math.min(end, at + splitLength)]);
    return spans;
  }
  const word = pythonWordPattern();
  word.lastIndex = start;
  let chunkStart = start;
  let words = 0;
  for (let match = word.exec(text); match !== null && match.index < end; match = word.exec(text)) {
    words += 1;
    if (words === splitLength) {
      const wordEnd = Math.min(end, match.index + match[0].length);
      spans.push([chunkStart, wordEnd]);
      chunkStart = wordEnd;
      words = 0;
    }
  }
  const last = spans[spans.length - 1];
  if (chunkStart < end) {
    if (words === 0 && last !== undefined) last[1] = end;
    else spans.push([chunkStart, end]);
  }
  return spans;
}

/**
 * Cuts `[start, end)` into spans of at most `splitLength` units, as Haystack's `_chunk_text` does
 * (measuring with Haystack's `_chunk_length`, {@link chunkLength}): a slice that fits is one chunk; otherwise the first separator found splits it, neighbouring pieces are
 * merged while they fit, and a piece too long is cut again (with every separator, from the first) —
 * or, once the last separator is reached, by fixed size. Spans are contiguous and cover the slice.
 */
function partition(text: string, start: number, end: number, options: RecursiveOptions): Span[] {
  const { splitLength, splitUnit, separators } = options;
  if (chunkLength(text, start, end, splitUnit) <= splitLength) return [[start, end]];
  for (const separator of separators) {
    const pieces = separatorPieces(text, start, end, separator, options);
    if (pieces.length <= 1) continue;
    const chunks: Span[] = [];
    let current: Span | undefined;
    let currentLength = 0;
    for (const piece of pieces) {
      const length = chunkLength(text, piece[0], piece[1], splitUnit);
      if (currentLength + length <= splitLength) {
        if (current === undefined) current = [piece[0], piece[1]];
        else current[1] = piece[1];
        currentLength += length;
        continue;
      }
      if (current !== undefined) chunks.push(current);
      current = undefined;
      currentLength = 0;
      if (length > splitLength) {
        const last = separator === separators[separators.length - 1];
        chunks.push(
          ...(last
            ? fixedSpans(text, piece[0], piece[1], options)
            : partition(text, piece[0], piece[1], options)),
        );
      } else {
        current = [piece[0], piece[1]];
        currentLength = length;
      }
    }
    if (current !== undefined) chunks.push(current);
    return chunks;
  }
  return fixedSpans(text, start, end, options);
}

/**
 * Adds the overlap once, on the final partition: every chunk after the first starts with the last
 * `splitOverlap` units of the chunk before it. A chunk that then exceeds `splitLength` is cut there and
 * its rest opens the next chunk; the last chunk is cut as often as needed. Each new chunk reaches past
 * the previous one's end, so no chunk is made only of overlap, and overlap is honoured even where no
 * separator matched (haystack#11767).
 */
function withOverlap(text: string, partitionSpans: readonly Span[], options: RecursiveOptions): Span[] {
  const { splitLength, splitOverlap, splitUnit } = options;
  const first = partitionSpans[0];
  if (first === undefined) return [];
  const chunks: Span[] = [first];
  for (let index = 1; index < partitionSpans.length; index += 1) {
    const end = (partitionSpans[index] as Span)[1];
    const isLast = index === partitionSpans.length - 1;
    for (;;) {
      const previous = chunks[chunks.length - 1] as Span;
      const overlapStart = lastUnitsStart(text, previous[0], previous[1], splitOverlap, splitUnit);
      if (overlapStart === previous[0]) options.onWholeChunkOverlap?.();
      // Counted only up to one past splitLength: chunks cut here fall behind the partition, so the
      // slice to `end` grows along the text (counting it whole made a long text quadratic).
      if (countUnits(text, overlapStart, end, splitUnit, splitLength) <= splitLength) {
        chunks.push([overlapStart, end]);
        break;
      }
      const cut = cutAfter(text, overlapStart, end, splitLength, splitUnit);
      chunks.push([overlapStart, cut]);
      if (!isLast || cut >= end) break;
    }
  }
  return chunks;
}

/**
 * The chunks of `text` as spans into it (so every chunk is an exact slice of the source).
 *
 * @param text - the source text (non-empty)
 * @param options - length, overlap, unit and separators
 */
export function recursiveSpans(text: string, options: RecursiveOptions): ChunkSpan[] {
  const spans = partition(text, 0, text.length, options);
  const chunks = options.splitOverlap > 0 ? withOverlap(text, spans, options) : spans;
  return chunks.map(([start, end]) => ({ start, end }));
}
