/**
 * Haystack's header/footer heuristic: the longest word n-gram (3 to 29 words) that the first (header)
 * or last (footer) 300 characters of every page except the first and the last have in common is
 * removed from every page.
 */

const searchedChars = 300;
const minNgram = 3;
const maxNgram = 30;

/** Word n-grams of `sequence`, keeping newlines and tabs glued to the word after them, as Haystack. */
function ngrams(sequence: string, n: number): string[] {
  const words = sequence.replaceAll("\n", " \n").replaceAll("\t", " \t").split(" ");
  const result: string[] = [];
  for (let index = 0; index + n <= words.length; index += 1) {
    result.push(
      words
        .slice(index, index + n)
        .join(" ")
        .replaceAll(" \n", "\n")
        .replaceAll(" \t", "\t"),
    );
  }
  return result;
}

/** Every n-gram for n in [3, 30), in generation order (n ascending, then position). */
function allNgrams(sequence: string): string[] {
  const result: string[] = [];
  for (let n = minNgram; n < maxNgram; n += 1) result.push(...ngrams(sequence, n));
  return result;
}

/**
 * The longest n-gram every non-empty sequence contains ("" for fewer than two sequences or a
 * whitespace-only winner). Haystack takes `max` over a set, whose order varies between runs; here a tie
 * goes to the n-gram generated first from the first sequence, so the result is deterministic.
 */
export function longestCommonNgram(sequences: readonly string[]): string {
  const present = sequences.filter((sequence) => sequence !== "");
  if (present.length < 2) return "";
  const [first, ...rest] = present as [string, ...string[]];
  const others = rest.map((sequence) => new Set(allNgrams(sequence)));
  let longest = "";
  for (const candidate of allNgrams(first)) {
    if (candidate.length > longest.length && others.every((set) => set.has(candidate))) longest = candidate;
  }
  return longest.trim() === "" ? "" : longest;
}

/**
 * Removes a header and a footer repeated on the pages of `text` (pages separated by `"\f"`).
 *
 * @returns the text without them, and what was removed (for a debug log)
 */
export function removeRepeatedSubstrings(text: string): { text: string; header: string; footer: string } {
  let pages = text.split("\f");
  const inner = (list: readonly string[]) => list.slice(1, Math.max(1, list.length - 1));
  const header = longestCommonNgram(inner(pages).map((page) => page.slice(0, searchedChars)));
  if (header !== "") pages = pages.map((page) => page.split(header).join(""));
  const footer = longestCommonNgram(inner(pages).map((page) => page.slice(-searchedChars)));
  if (footer !== "") pages = pages.map((page) => page.split(footer).join(""));
  return { text: pages.join("\f"), header, footer };
}
