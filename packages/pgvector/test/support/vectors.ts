/** A deterministic pseudo-random generator (mulberry32), so test corpora are the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` random vectors of `dimension` values in [-1, 1). */
export function randomVectors(count: number, dimension: number, seed = 1): number[][] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => Array.from({ length: dimension }, () => random() * 2 - 1));
}
