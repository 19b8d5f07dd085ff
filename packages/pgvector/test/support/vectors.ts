import { seededRandom as seeded } from "../../../../test/support/seeded-random.js";

/** `count` random vectors of `dimension` values in [-1, 1). */
export function randomVectors(count: number, dimension: number, seed = 1): number[][] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => Array.from({ length: dimension }, () => random() * 2 - 1));
}
