import { pythonWordCount } from "../document/python-whitespace.js";
import { FormFeeds, type UnitSplit } from "./split-units.js";

/**
 * Haystack's `respect_sentence_boundary` mode (`DocumentSplitter._concatenate_sentences_based_on_word_amount`):
 * whole sentences are gathered into a chunk until the next one would take it past `splitLength` words
 * (a single longer sentence is a chunk of its own), and with `splitOverlap > 0` the next chunk starts
 * with the last sentences of this one, as many as fit in the overlap
 * ({@link sentencesToKeep}). Words are counted as Python's `len(sentence.split())`.
 *
 * @param text - the source text
 * @param bounds - sentence bounds (`unitBounds(text, "sentence", …)`)
 * @param splitLength - the most words per chunk
 * @param splitOverlap - the words to repeat, in whole sentences
 */
export function sentenceWordSpans(
  text: string,
  bounds: readonly number[],
  splitLength: number,
  splitOverlap: number,
): UnitSplit[] {
  const sentenceCount = bounds.length - 1;
  const words: number[] = [];
  for (let index = 0; index < sentenceCount; index += 1) {
    words.push(pythonWordCount(text.slice(bounds[index], bounds[index + 1])));
  }
  const splits: UnitSplit[] = [];
  const formFeeds = new FormFeeds(text);
  let page = 1;
  let first = 0; // the chunk's first sentence
  let chunkWords = 0;
  for (let index = 0; index < sentenceCount; index += 1) {
    chunkWords += words[index] as number;
    const isLast = index === sentenceCount - 1;
    const nextWords = isLast ? 0 : (words[index + 1] as number);
    if (chunkWords + nextWords <= splitLength && !isLast) continue;
    const start = bounds[first] as number;
    splits.push({ start, end: bounds[index + 1] as number, page });
    const keep = sentencesToKeep(words.slice(first, index + 1), splitLength, splitOverlap);
    const nextFirst = index + 1 - keep;
    page += formFeeds.between(start, bounds[nextFirst] as number);
    first = nextFirst;
    chunkWords = 0;
    for (let kept = nextFirst; kept <= index; kept += 1) chunkWords += words[kept] as number;
  }
  return splits;
}

/**
 * Haystack's `_number_of_sentences_to_keep`: how many of a chunk's last sentences open the next chunk.
 * Never the first sentence (the next chunk would start like this one); stop before exceeding
 * `splitLength` words, and once more than `splitOverlap` words are kept.
 *
 * @param sentenceWords - the word counts of the chunk's sentences
 */
export function sentencesToKeep(
  sentenceWords: readonly number[],
  splitLength: number,
  splitOverlap: number,
): number {
  if (splitOverlap === 0) return 0;
  let keep = 0;
  let total = 0;
  for (let index = sentenceWords.length - 1; index >= 1; index -= 1) {
    total += sentenceWords[index] as number;
    if (total > splitLength) break;
    keep += 1;
    if (total > splitOverlap) break;
  }
  return keep;
}
