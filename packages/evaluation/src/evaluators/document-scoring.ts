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
 * mean over questions (retrieval metrics never produce NaN).
 */
export function scoreDocuments(
  evaluator: string,
  inputs: {
    readonly ground_truth_documents: readonly (readonly Document[])[];
    readonly retrieved_documents: readonly (readonly Document[])[];
  },
  field: DocumentComparisonField,
  scoreOne: (question: QuestionDocuments) => number,
): { score: number; individual_scores: number[] } {
  const { ground_truth_documents: truths, retrieved_documents: retrieved } = inputs;
  checkSameLength(evaluator, { ground_truth_documents: truths, retrieved_documents: retrieved });
  checkDocumentRows(evaluator, "ground_truth_documents", truths, { nonEmpty: true });
  checkDocumentRows(evaluator, "retrieved_documents", retrieved, { nonEmpty: false });
  const individual_scores = truths.map((truthDocuments, index) =>
    scoreOne({
      truth: comparisonKeys(truthDocuments, field),
      retrieved: comparisonKeys(retrieved[index] as readonly Document[], field),
      truthDocuments,
    }),
  );
  const score = individual_scores.reduce((sum, value) => sum + value, 0) / individual_scores.length;
  return { score, individual_scores };
}
