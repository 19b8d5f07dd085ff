import { pythonWordPattern } from "../document/python-whitespace.js";

/** The units `RecursiveDocumentSplitter` measures chunks in (Haystack's `token` unit is left out). */
export const recursiveSplitUnits = ["word", "char"] as const;

/** One of {@link recursiveSplitUnits}. */
export type RecursiveSplitUnit = (typeof recursiveSplitUnits)[number];

/** Runs of Python non-whitespace: Haystack's words (`\S+`, `str.split()`). */
const word = pythonWordPattern();

/**
 * The number of units in `text.slice(start, end)`: UTF-16 code units for `"char"`, maximal runs of
 * non-whitespace for `"word"` (a word cut by the slice's edge counts once, as the slice shows it).
 * Counting stops after `atMost + 1` words: a caller that only compares with a length reads no further
 * (the overlap pass asks about slices that can reach far ahead of the chunk it is making).
 */
export function countUnits(
  text: string,
  start: number,
  end: number,
  unit: RecursiveSplitUnit,
  atMost = Number.POSITIVE_INFINITY,
): number {
  if (unit === "char") return end - start;
  let count = 0;
  word.lastIndex = start;
  for (let match = word.exec(text); match !== null && match.index < end; match = word.exec(text)) {
    count += 1;
    if (count > atMost) break;
  }
  return count;
}

/**
 * How Haystack's `RecursiveDocumentSplitter._chunk_length` measures a piece before deciding where to cut:
 * chars for `"char"`, and for `"word"` the non-empty pieces of `text.split(" ")` — so `"a\nb"` is one
 * word and a lone `"\n"` between spaces is one. (The fixed-size fallback and the overlap count runs of
 * non-whitespace instead, with {@link countUnits}, as Haystack's do.)
 */
export function chunkLength(text: string, start: number, end: number, unit: RecursiveSplitUnit): number {
  if (unit === "char") return end - start;
  let count = 0;
  let pieceStart = start;
  for (let at = text.indexOf(" ", start); at >= 0 && at < end; at = text.indexOf(" ", at + 1)) {
    if (at > pieceStart) count += 1;
    pieceStart = at + 1;
  }
  if (end > pieceStart) count += 1;
  return count;
}

/**
 * Where the first `units` units of `text.slice(start, end)` end: `start + units` for chars; for words,
 * the end of the `units`-th word, as Haystack's `_split_chunk` keeps `" ".join(words[:split_length])`
 * (the whitespace after it is not lost: with overlap, the next chunk starts before it). Only called
 * when the slice holds more than `units` units.
 */
export function cutAfter(
  text: string,
  start: number,
  end: number,
  units: number,
  unit: RecursiveSplitUnit,
): number {
  if (unit === "char") return Math.min(end, start + units);
  let count = 0;
  word.lastIndex = start;
  for (let match = word.exec(text); match !== null && match.index < end; match = word.exec(text)) {
    count += 1;
    if (count === units) return Math.min(end, match.index + match[0].length);
  }
  return end;
}

/**
 * Where the last `units` units of `text.slice(start, end)` begin (the start of the slice when it holds
 * fewer): the overlap the next chunk repeats.
 */
export function lastUnitsStart(
  text: string,
  start: number,
  end: number,
  units: number,
  unit: RecursiveSplitUnit,
): number {
  if (unit === "char") return Math.max(start, end - units);
  const starts: number[] = [];
  word.lastIndex = start;
  for (let match = word.exec(text); match !== null && match.index < end; match = word.exec(text)) {
    starts.push(match.index);
  }
  return starts.length <= units ? start : (starts[starts.length - units] ?? start);
}
