import { defineComponent } from "@junction/core";
import type { Document } from "@junction/documents";
import { z } from "zod";
import { EvaluationInputError } from "../errors.js";
import { documentComparisonFieldSchema } from "./comparison-field.js";
import { scoreDocuments } from "./document-scoring.js";
import { documentInputs, scoreOutputs } from "./sockets.js";

const evaluator = "DocumentNDCGEvaluator";

/** Ground truth value → relevance (the document's `score`, or 1); duplicates keep the highest. */
function relevanceMap(truth: readonly unknown[], documents: readonly Document[]): Map<unknown, number> {
  const relevance = new Map<unknown, number>();
  truth.forEach((key, index) => {
    if (key === undefined) return;
    const value = documents[index]?.score ?? 1;
    relevance.set(key, Math.max(relevance.get(key) ?? value, value));
  });
  return relevance;
}

function checkGraded(rows: readonly (readonly Document[])[]): void {
  rows.forEach((row, rowIndex) => {
    if (!Array.isArray(row)) return;
    const scored = row.filter((document) => document.score !== undefined).length;
    if (scored > 0 && scored < row.length) {
      throw new EvaluationInputError(
        `${evaluator}: "ground_truth_documents"[${rowIndex}] mixes documents with and without a score. Give every ground truth document of a question a relevance score, or none (binary relevance).`,
        { componentType: evaluator, socket: "ground_truth_documents", rowIndex },
      );
    }
  });
}

/**
 * Normalized discounted cumulative gain. A ground truth document's relevance is its `score` (graded
 * relevance) or 1; each relevant value is credited once, at its first retrieved rank, with gain
 * `relevance / log2(rank + 2)`; the ideal DCG sorts the distinct relevances. A question's ground truth
 * must be all scored or all unscored (Haystack's rule); a question without ground truth scores 0.
 *
 * @example
 * ```ts
 * const ndcg = new DocumentNDCGEvaluator();
 * await ndcg.run({
 *   ground_truth_documents: [[new Document({ content: "France", score: 1 }), new Document({ content: "Paris", score: 0.5 })]],
 *   retrieved_documents: [[new Document({ content: "France" }), new Document({ content: "Germany" }), new Document({ content: "Paris" })]],
 * });
 * ```
 */
export const DocumentNDCGEvaluator = defineComponent({
  type: "junction.DocumentNDCGEvaluator",
  description:
    "Normalized discounted cumulative gain of the retrieved documents (graded relevance from score).",
  params: z.object({ documentComparisonField: documentComparisonFieldSchema }),
  inputs: documentInputs,
  outputs: scoreOutputs,
  run: (inputs, { params, logger }) => {
    if (Array.isArray(inputs.ground_truth_documents)) checkGraded(inputs.ground_truth_documents);
    return scoreDocuments(
      evaluator,
      inputs,
      params.documentComparisonField,
      logger,
      ({ truth, retrieved, truthDocuments }) => {
        const relevance = relevanceMap(truth, truthDocuments);
        const ideal = [...relevance.values()].sort((a, b) => b - a);
        let idcg = 0;
        ideal.forEach((gain, index) => {
          idcg += gain / Math.log2(index + 2);
        });
        if (idcg <= 0) return 0;
        let dcg = 0;
        retrieved.forEach((key, index) => {
          const gain = key === undefined ? undefined : relevance.get(key);
          if (gain === undefined) return;
          relevance.delete(key);
          dcg += gain / Math.log2(index + 2);
        });
        return dcg / idcg;
      },
    );
  },
});

/** A `DocumentNDCGEvaluator` instance. */
export type DocumentNDCGEvaluator = InstanceType<typeof DocumentNDCGEvaluator>;
