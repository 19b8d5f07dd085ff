/** The units `RecursiveDocumentSplitter` measures chunks in (Haystack's `token` unit is left out). */
export const recursiveSplitUnits = ["word", "char"] as const;

/** One of {@link recursiveSplitUnits}. */
export type RecursiveSplitUnit = (typeof recursiveSplitUnits)[number];

const word = /\S+/g;

/**
 * The number of units in `text.slice(start, end)`: UTF-16 code units for `"char"`, maximal runs of
 * non-whitespace for `"word"` (a word cut by the slice's edge counts once, as the slice shows it).
 */
export function countUnits(text: string, start: number, end: number, unit: RecursiveSplitUnit): number {
  if (unit === "char") return end - start;
  let count = 0;
  word.lastIndex = start;
  for (let match = word.exec(text); match !== null && match.index < end; match = word.exec(text)) {
    count += 1;
  }
  return count;
}

/**
 * Where the first `units` units of `text.slice(start, end)` end and the rest begins: `start + units`
 * for chars; for words, the start of the next word (so the whitespace after a word stays with it).
 * Only called when the slice holds more than `units` units.
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
    if (count === units) return match.index;
    count += 1;
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
