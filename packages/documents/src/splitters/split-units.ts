import { haystackSentenceStarts } from "./sentence-rules.js";

/** The units `DocumentSplitter` counts, as Haystack names them. */
export const splitByUnits = ["word", "sentence", "passage", "page", "line", "period"] as const;

/** One of {@link splitByUnits}. */
export type SplitBy = (typeof splitByUnits)[number];

const delimiters: Readonly<Record<Exclude<SplitBy, "sentence">, string>> = {
  word: " ",
  passage: "\n\n",
  page: "\f",
  line: "\n",
  period: ".",
};

/**
 * Where each unit of `text` starts, plus `text.length` at the end: unit `i` is
 * `text.slice(bounds[i], bounds[i + 1])`. Units keep their trailing delimiter (Haystack appends the
 * delimiter back to every unit but the last), so the units always add up to the whole text. Sentences
 * come from `Intl.Segmenter`, which keeps each sentence's trailing whitespace.
 *
 * @param text - the text to cut
 * @param splitBy - the unit
 * @param segmenter - the sentence segmenter (used for `"sentence"` only)
 */
export function unitBounds(text: string, splitBy: SplitBy, segmenter: Intl.Segmenter | undefined): number[] {
  const bounds: number[] = [0];
  if (splitBy === "sentence") {
    if (text === "") return bounds; // no sentences, no units (NLTK returns none either)
    // A loop, not push(...starts): spreading 100k+ sentence starts overflows the stack.
    for (const start of haystackSentenceStarts(
      text,
      segmenter ?? new Intl.Segmenter("en", { granularity: "sentence" }),
    )) {
      bounds.push(start);
    }
    bounds.push(text.length);
    return bounds;
  }
  const delimiter = delimiters[splitBy];
  let from = 0;
  for (;;) {
    const at = text.indexOf(delimiter, from);
    if (at < 0) break;
    from = at + delimiter.length;
    bounds.push(from);
  }
  // `"a ".split(" ")` is `["a", ""]`: the text after the last delimiter is a unit even when empty.
  bounds.push(text.length);
  return bounds;
}

/** One chunk of a source text, before it becomes a document. */
export interface UnitSplit {
  /** Where the chunk starts in the source (UTF-16 code units). */
  readonly start: number;
  /** Where it ends. */
  end: number;
  /** The 1-based page it starts on (form feeds before `start`, Haystack's way). */
  readonly page: number;
}

/** How {@link concatenateUnits} groups units. */
export interface ConcatenateOptions {
  readonly splitBy: SplitBy;
  readonly splitLength: number;
  readonly splitOverlap: number;
  readonly splitThreshold: number;
  readonly skipEmptyDocuments: boolean;
}

/**
 * The page breaks (`\f`) of a text, found in one pass: how many lie in a range is then a binary search
 * (page numbers count them per chunk; searching the text from each chunk read on to the next break,
 * or to the end of a text that has none, made a long document quadratic).
 */
export class FormFeeds {
  readonly #positions: number[] = [];

  /** @param text - the text whose page breaks are counted */
  constructor(text: string) {
    for (let index = text.indexOf("\f"); index >= 0; index = text.indexOf("\f", index + 1))
      this.#positions.push(index);
  }

  /** How many page breaks lie before `end`. */
  before(end: number): number {
    const positions = this.#positions;
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((positions[middle] as number) < end) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** How many page breaks lie in `[from, to)`. */
  between(from: number, to: number): number {
    return to <= from ? 0 : this.before(to) - this.before(from);
  }
}

/**
 * Groups units into windows of `splitLength` units moving by `splitLength − splitOverlap`, as Haystack's
 * `_concatenate_units` over `more_itertools.windowed` does: a window starts at every step while the
 * previous window did not reach the last unit; a final window shorter than `splitThreshold` units is
 * appended to the previous chunk (only its units beyond the overlap, haystack#12366); and a window
 * whose units beyond the overlap are all empty (the empty unit after a trailing delimiter) is dropped,
 * since it would be a chunk made only of overlap (haystack#12686, fixed in Haystack by PR #12687).
 *
 * @param text - the source text
 * @param bounds - the unit bounds from {@link unitBounds}
 * @param options - window length, overlap, threshold, empty handling
 */
export function concatenateUnits(
  text: string,
  bounds: readonly number[],
  options: ConcatenateOptions,
): UnitSplit[] {
  const { splitLength, splitOverlap, splitThreshold, skipEmptyDocuments } = options;
  const unitCount = bounds.length - 1;
  const step = splitLength - splitOverlap;
  const splits: UnitSplit[] = [];
  const formFeeds = new FormFeeds(text);
  let page = 1;
  for (let first = 0; first < unitCount; first += step) {
    if (first > 0 && first - step + splitLength >= unitCount) break;
    const count = Math.min(splitLength, unitCount - first);
    const start = bounds[first] ?? 0;
    const end = bounds[first + count] ?? text.length;
    const newPartStart = first === 0 ? start : (bounds[first + splitOverlap] ?? end);
    const last = splits[splits.length - 1];
    if (count < splitThreshold && last !== undefined) {
      last.end = end;
    } else if (first > 0 && newPartStart === end) {
      // only overlap: nothing new to say
    } else if (!skipEmptyDocuments || end > start) {
      splits.push({ start, end, page });
    }
    const processed = Math.min(step, count);
    page +=
      options.splitBy === "page"
        ? processed
        : formFeeds.between(start, bounds[first + processed] ?? text.length);
  }
  return splits;
}
