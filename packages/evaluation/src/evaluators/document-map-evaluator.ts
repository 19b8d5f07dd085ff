import { defineComponent } from "@junction/core";
import { z } from "zod";
import { documentComparisonFieldSchema } from "./comparison-field.js";
import { scoreDocuments } from "./document-scoring.js";
import { documentInputs, scoreOutputs } from "./sockets.js";

/**
 * Mean average precision: for each question, the sum over relevant retrieved documents of
 * `hits so far / (rank + 1)`, divided by the number of distinct ground truth values. Each ground truth
 * value is credited once, so a duplicate retrieval does not count twice (Haystack's rule); a question
 * without ground truth scores 0.
 *
 * @example
 * ```ts
 * const map = new DocumentMAPEvaluator();
 * await map.run({
 *   ground_truth_documents: [[new Document({ content: "a" }), new Document({ content: "b" })]],
 *   retrieved_documents: [[new Document({ content: "a" }), new Document({ content: "x" }), new Document({ content: "b" })]],
 * }); // individual_scores: [(1/1 + 2/3) / 2]
 * ```
 */
export const DocumentMAPEvaluator = defineComponent({
  type: "junction.DocumentMAPEvaluator",
  description: "Mean average precision of the retrieved documents.",
  params: z.object({ documentComparisonField: documentComparisonFieldSchema }),
  inputs: documentInputs,
  outputs: scoreOutputs,
  run: (inputs, { params, logger }) =>
    scoreDocuments(
      "DocumentMAPEvaluator",
      inputs,
      params.documentComparisonField,
      logger,
      ({ truth, retrieved }) => {
        const uncredited = new Set(truth.filter((key) => key !== undefined));
        const total = uncredited.size;
        if (total === 0) return 0;
        let hits = 0;
        let numerator = 0;
        retrieved.forEach((key, rank) => {
          if (key === undefined || !uncredited.has(key)) return;
          uncredited.delete(key);
          hits += 1;
          numerator += hits / (rank + 1);
        });
        return numerator / total;
      },
    ),
});

/** A `DocumentMAPEvaluator` instance. */
export type DocumentMAPEvaluator = InstanceType<typeof DocumentMAPEvaluator>;
