import { seededRandom } from "../retrieval/corpus.js";

/** `count` seeded random vectors with values in [-1, 1), as plain arrays (what Documents hold). */
export function seededVectors(count: number, dimension: number, seed: number): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: dimension }, () => random() * 2 - 1));
}
