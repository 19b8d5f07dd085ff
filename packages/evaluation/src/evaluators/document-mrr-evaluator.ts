import { defineComponent } from "@junction/core";
import { z } from "zod";
import { documentComparisonFieldSchema } from "./comparison-field.js";
import { scoreDocuments } from "./document-scoring.js";
import { documentInputs, scoreOutputs } from "./sockets.js";

/**
 * Mean reciprocal rank: for each question, `1 / rank` of the first retrieved document that matches a
 * ground truth document (0 when none does); `score` is the mean over questions. Documents without a
 * comparison value are skipped, and a question without ground truth scores 0, as in Haystack. Inputs
 * are not normalized: clean them first.
 *
 * @example
 * ```ts
 * const mrr = new DocumentMRREvaluator();
 * await mrr.run({
 *   ground_truth_documents: [[new Document({ content: "9th" })]],
 *   retrieved_documents: [[new Document({ content: "10th" }), new Document({ content: "9th" })]],
 * }); // { score: 0.5, individual_scores: [0.5] }
 * ```
 */
export const DocumentMRREvaluator = defineComponent({
  type: "junction.DocumentMRREvaluator",
  description: "Mean reciprocal rank of the first relevant retrieved document.",
  params: z.object({ documentComparisonField: documentComparisonFieldSchema }),
  inputs: documentInputs,
  outputs: scoreOutputs,
  run: (inputs, { params, logger }) =>
    scoreDocuments(
      "DocumentMRREvaluator",
      inputs,
      params.documentComparisonField,
      logger,
      ({ truth, retrieved }) => {
        const relevant = new Set(truth.filter((key) => key !== undefined));
        const rank = retrieved.findIndex((key) => key !== undefined && relevant.has(key));
        return rank === -1 ? 0 : 1 / (rank + 1);
      },
    ),
});

/** A `DocumentMRREvaluator` instance. */
export type DocumentMRREvaluator = InstanceType<typeof DocumentMRREvaluator>;
