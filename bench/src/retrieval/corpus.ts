/**
 * A seeded synthetic corpus for the retrieval benchmarks: words drawn from a Zipf distribution (s = 1)
 * over a fixed vocabulary, so a few words are in most documents and most words are rare, as in text.
 */

import { seededRandom } from "../../../test/support/seeded-random.js";

export { seededRandom };

/** Samples word ranks from a Zipf distribution over `size` words. */
function zipfSampler(size: number, random: () => number): () => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let rank = 0; rank < size; rank++) {
    total += 1 / (rank + 1);
    cumulative[rank] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** A pronounceable word for a rank (distinct per rank). */
function word(rank: number): string {
  const syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "pe", "du", "ga", "zo"];
  let out = "";
  let value = rank + 1;
  while (value > 0) {
    out += syllables[value % syllables.length];
    value = Math.floor(value / syllables.length);
  }
  return out;
}

/** A corpus: document texts and queries. */
export interface Corpus {
  readonly texts: string[];
  readonly queries: string[];
}

/**
 * `documents` texts of 20–120 words and `queries` of 1–4 words, both Zipf-distributed.
 *
 * @param seed - the PRNG seed
 */
export function zipfCorpus(documents: number, queries: number, seed = 42): Corpus {
  const random = seededRandom(seed);
  const vocabulary = 50_000;
  const words = Array.from({ length: vocabulary }, (_, rank) => word(rank));
  const sample = zipfSampler(vocabulary, random);
  const texts: string[] = [];
  for (let index = 0; index < documents; index++) {
    const length = 20 + Math.floor(random() * 101);
    const parts = new Array<string>(length);
    for (let position = 0; position < length; position++) parts[position] = words[sample()]!;
    texts.push(parts.join(" "));
  }
  const queryTexts: string[] = [];
  for (let index = 0; index < queries; index++) {
    const length = 1 + Math.floor(random() * 4);
    queryTexts.push(Array.from({ length }, () => words[sample()]!).join(" "));
  }
  return { texts, queries: queryTexts };
}

/** `count` vectors of `dimension` uniform values in [-1, 1), one contiguous Float32Array. */
export function randomVectors(count: number, dimension: number, seed = 7): Float32Array {
  const random = seededRandom(seed);
  const data = new Float32Array(count * dimension);
  for (let index = 0; index < data.length; index++) data[index] = random() * 2 - 1;
  return data;
}
