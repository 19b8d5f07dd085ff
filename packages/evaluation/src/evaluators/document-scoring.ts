import type { Logger } from "@junction/core";
import type { Document } from "@junction/documents";
import { checkDocumentRows, checkSameLength } from "./checks.js";
import { comparisonKeys, type DocumentComparisonField } from "./comparison-field.js";

/** What a retrieval metric scores one question from: the comparison keys of both lists. */
export interface QuestionDocuments {
  /** Keys of the ground truth documents (`undefined` where a document has no comparison value). */
  readonly truth: readonly unknown[];
  /** Keys of the retrieved documents, in rank order. */
  readonly retrieved: readonly unknown[];
  /** The ground truth documents themselves (NDCG reads their `score`). */
  readonly truthDocuments: readonly Document[];
}

/**
 * Checks the two document inputs and scores every question with `scoreOne`; the score is the plain
 * mean over questions (retrieval metrics never produce NaN). A question whose ground truth is empty,
 * or holds no document with a comparison value, scores 0 as in Haystack; one warning names those rows,
 * since such a 0 usually means missing labels rather than a bad retrieval.
 */
export function scoreDocuments(
  evaluator: string,
  inputs: {
    readonly ground_truth_documents: readonly (readonly Document[])[];
    readonly retrieved_documents: readonly (readonly Document[])[];
  },
  field: DocumentComparisonField,
  logger: Logger,
  scoreOne: (question: QuestionDocuments) => number,
): { score: number; individual_scores: number[] } {
  const { ground_truth_documents: truths, retrieved_documents: retrieved } = inputs;
  checkSameLength(evaluator, { ground_truth_documents: truths, retrieved_documents: retrieved });
  checkDocumentRows(evaluator, "ground_truth_documents", truths);
  checkDocumentRows(evaluator, "retrieved_documents", retrieved);
  const unlabelled: number[] = [];
  const individual_scores = truths.map((truthDocuments, index) => {
    const truth = comparisonKeys(truthDocuments, field);
    if (truth.every((key) => key === undefined)) unlabelled.push(index);
    return scoreOne({
      truth,
      retrieved: comparisonKeys(retrieved[index] as readonly Document[], field),
      truthDocuments,
    });
  });
  if (unlabelled.length > 0) {
    const shown = unlabelled.slice(0, 10).join(", ");
    logger.warn(
      `${evaluator}: ${unlabelled.length} question(s) have no ground truth document with a "${field}" value (rows ${shown}${unlabelled.length > 10 ? ", …" : ""}); they score 0. Label them or leave them out.`,
      { componentType: evaluator, rows: unlabelled },
    );
  }
  const score = individual_scores.reduce((sum, value) => sum + value, 0) / individual_scores.length;
  return { score, individual_scores };
}
