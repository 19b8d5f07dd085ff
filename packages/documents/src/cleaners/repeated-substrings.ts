/**
 * Haystack's header/footer heuristic: the longest word n-gram (3 to 29 words) that the first (header)
 * or last (footer) 300 characters of every page except the first and the last have in common is
 * removed from every page.
 */

const searchedChars = 300;
const minNgram = 3;
const maxNgram = 30;

/**
 * Every word n-gram of `sequence` for n in [3, 30), as Haystack builds them (newlines and tabs glued
 * to the word after them), in order of start position, then length. Built incrementally: an n-gram is
 * the (n−1)-gram plus a space (none before a word starting with a newline or tab) plus the next word.
 */
function allNgrams(sequence: string): string[] {
  const words = sequence.replaceAll("\n", " \n").replaceAll("\t", " \t").split(" ");
  const result: string[] = [];
  for (let first = 0; first < words.length; first += 1) {
    let ngram = words[first] as string;
    for (let n = 2; n < maxNgram && first + n <= words.length; n += 1) {
      const next = words[first + n - 1] as string;
      ngram += next.startsWith("\n") || next.startsWith("\t") ? next : ` ${next}`;
      if (n >= minNgram) result.push(ngram);
    }
  }
  return result;
}

/**
 * The longest n-gram every non-empty sequence contains ("" for fewer than two sequences or a
 * whitespace-only winner). The candidates are intersected page by page, stopping as soon as none is
 * left. Haystack takes `max` over a set, whose order varies between runs; here a tie goes to the
 * n-gram that starts first in the first sequence (then the shorter in words), so the result is
 * deterministic.
 */
export function longestCommonNgram(sequences: readonly string[]): string {
  const present = sequences.filter((sequence) => sequence !== "");
  if (present.length < 2) return "";
  const [first, ...rest] = present as [string, ...string[]];
  let candidates = new Set(allNgrams(first));
  for (const sequence of rest) {
    const kept = new Set<string>();
    for (const ngram of allNgrams(sequence)) if (candidates.has(ngram)) kept.add(ngram);
    candidates = kept;
    if (candidates.size === 0) return "";
  }
  let longest = "";
  for (const candidate of allNgrams(first)) {
    if (candidate.length > longest.length && candidates.has(candidate)) longest = candidate;
  }
  return longest.trim() === "" ? "" : longest;
}

/** Python's `page[:300]`: the first 300 code points (an emoji is one character, as in Python). */
function headOf(page: string): string {
  if (page.length <= searchedChars) return page;
  return Array.from(page.slice(0, 2 * searchedChars))
    .slice(0, searchedChars)
    .join("");
}

/** Python's `page[-300:]`: the last 300 code points. */
function tailOf(page: string): string {
  if (page.length <= searchedChars) return page;
  return Array.from(page.slice(-2 * searchedChars))
    .slice(-searchedChars)
    .join("");
}

/**
 * Removes a header and a footer repeated on the pages of `text` (pages separated by `"\f"`).
 *
 * @returns the text without them, and what was removed (for a debug log)
 */
export function removeRepeatedSubstrings(text: string): { text: string; header: string; footer: string } {
  let pages = text.split("\f");
  const inner = (list: readonly string[]) => list.slice(1, Math.max(1, list.length - 1));
  const header = longestCommonNgram(inner(pages).map((page) => headOf(page)));
  if (header !== "") pages = pages.map((page) => page.split(header).join(""));
  const footer = longestCommonNgram(inner(pages).map((page) => tailOf(page)));
  if (footer !== "") pages = pages.map((page) => page.split(footer).join(""));
  return { text: pages.join("\f"), header, footer };
}
