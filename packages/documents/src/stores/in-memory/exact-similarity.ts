import type { EmbeddingSimilarityFunction } from "./in-memory-options.js";

/**
 * How many candidates beyond `topK` the 32-bit scan hands over for exact rescoring: documents whose
 * 32-bit scores sit within rounding (~1e-7) of the `topK`-th can swap places with it, and the margin lets
 * the exact scores decide.
 */
export const rescoreMargin = 16;

/**
 * The similarity of `embedding` to `query` in 64-bit floats, as Haystack computes it with numpy: the dot
 * product, or for cosine the dot product of both vectors each divided by its norm (a zero vector is left
 * as is, so it scores 0). The store's scan works on 32-bit copies; the documents it returns are rescored
 * here, so their scores equal Haystack's to float64 rounding rather than float32's.
 *
 * @param query - the query embedding
 * @param similarity - `"dot_product"` or `"cosine"`
 * @returns a scorer for stored embeddings of the query's dimension
 */
export function exactSimilarity(
  query: readonly number[],
  similarity: EmbeddingSimilarityFunction,
): (embedding: readonly number[]) => number {
  const cosine = similarity === "cosine";
  const normalizedQuery = cosine ? normalize(query) : query;
  return (embedding) => {
    const vector = cosine ? normalize(embedding) : embedding;
    let sum = 0;
    for (let index = 0; index < vector.length; index += 1) {
      sum += (normalizedQuery[index] as number) * (vector[index] as number);
    }
    return sum;
  };
}

/** `vector / ‖vector‖`, or `vector` itself when its norm is 0 (Haystack's zero-norm guard). */
function normalize(vector: readonly number[]): readonly number[] {
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}
