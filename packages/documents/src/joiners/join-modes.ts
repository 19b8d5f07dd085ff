import type { Document } from "../document/document.js";

/** The join modes of `DocumentJoiner`, as Haystack names them. */
export const joinModes = [
  "concatenate",
  "merge",
  "reciprocal_rank_fusion",
  "distribution_based_rank_fusion",
] as const;

/** One of {@link joinModes}. */
export type JoinMode = (typeof joinModes)[number];

/** Haystack's RRF constant: 60 from the paper, plus 1 because ranks are 0-based. */
export const rrfK = 61;

const scoreOrMinusInfinity = (document: Document): number => document.score ?? Number.NEGATIVE_INFINITY;

/**
 * Every document once (by id), keeping the highest-scored copy; the first copy wins a tie. Ids come out
 * in the order they were first seen.
 */
export function concatenateDocuments(lists: readonly (readonly Document[])[]): Document[] {
  const best = new Map<string, Document>();
  for (const list of lists) {
    for (const document of list) {
      const current = best.get(document.id);
      if (current === undefined || scoreOrMinusInfinity(document) > scoreOrMinusInfinity(current)) {
        best.set(document.id, document);
      }
    }
  }
  return [...best.values()];
}

/**
 * Σ wᵢ·sᵢ over the lists a document is in (a missing score counts 0). The last copy of a document
 * supplies its fields (as Haystack's dict overwrite does); ids keep the order they were first seen.
 */
export function mergeDocuments(
  lists: readonly (readonly Document[])[],
  weights: readonly number[],
): Document[] {
  const scores = new Map<string, number>();
  const documents = new Map<string, Document>();
  lists.forEach((list, listIndex) => {
    const weight = weights[listIndex] ?? 0;
    for (const document of list) {
      scores.set(document.id, (scores.get(document.id) ?? 0) + (document.score ?? 0) * weight);
      documents.set(document.id, document);
    }
  });
  return [...documents.values()].map((document) => document.with({ score: scores.get(document.id) ?? 0 }));
}

/**
 * Reciprocal rank fusion as Haystack computes it: `score = Σ wᵢ·k/(k+rankᵢ)` with k = 61 and 0-based
 * ranks, so a document first in every list scores exactly 1 with equal weights. Computed in Haystack's
 * order of operations (`(w·L)/(k+rank)` summed, then divided by `L/k`) so the floats are bit-identical.
 */
export function reciprocalRankFusion(
  lists: readonly (readonly Document[])[],
  weights: readonly number[],
): Document[] {
  const listCount = lists.length;
  const scores = new Map<string, number>();
  const documents = new Map<string, Document>();
  lists.forEach((list, listIndex) => {
    const weight = weights[listIndex] ?? 0;
    list.forEach((document, rank) => {
      scores.set(document.id, (scores.get(document.id) ?? 0) + (weight * listCount) / (rrfK + rank));
      documents.set(document.id, document);
    });
  });
  return [...documents.values()].map((document) =>
    document.with({ score: (scores.get(document.id) ?? 0) / (listCount / rrfK) }),
  );
}

/**
 * Distribution-based score fusion: each list's scores are rescaled to `(s − (μ−3σ)) / 6σ` with the
 * population standard deviation (0 for every document when σ = 0), then the lists are concatenated
 * (best rescaled score per id).
 */
export function distributionBasedRankFusion(lists: readonly (readonly Document[])[]): Document[] {
  const rescaled = lists.map((list) => {
    if (list.length === 0) return list;
    const scores = list.map((document) => document.score ?? 0);
    let sum = 0;
    for (const score of scores) sum += score;
    const mean = sum / scores.length;
    let squares = 0;
    for (const score of scores) squares += (score - mean) ** 2;
    const deviation = (squares / scores.length) ** 0.5;
    const min = mean - 3 * deviation;
    const delta = mean + 3 * deviation - min;
    return list.map((document, index) =>
      document.with({ score: delta !== 0 ? ((scores[index] ?? 0) - min) / delta : 0 }),
    );
  });
  return concatenateDocuments(rescaled);
}
