import { defineComponent } from "@junction/core";
import { z } from "zod";
import { documentComparisonFieldSchema } from "./comparison-field.js";
import { scoreDocuments } from "./document-scoring.js";
import { documentInputs, scoreOutputs } from "./sockets.js";

/** How {@link DocumentRecallEvaluator} scores a question. */
export type RecallMode = "single_hit" | "multi_hit";

const usable = (key: unknown): boolean => key !== undefined && key !== "";

/**
 * Recall of the retrieved documents. `mode: "single_hit"` (default) scores 1 when any ground truth
 * document was retrieved, else 0; `"multi_hit"` scores the share of distinct ground truth values that
 * were retrieved. Values are compared as sets (duplicates count once); missing and empty values are
 * ignored, and a question whose ground truth or retrieved documents have none (or are empty) scores 0,
 * as in Haystack.
 *
 * @example
 * ```ts
 * const recall = new DocumentRecallEvaluator({ mode: "multi_hit" });
 * await recall.run({
 *   ground_truth_documents: [[new Document({ content: "a" }), new Document({ content: "b" })]],
 *   retrieved_documents: [[new Document({ content: "b" })]],
 * }); // { score: 0.5, individual_scores: [0.5] }
 * ```
 */
export const DocumentRecallEvaluator = defineComponent({
  type: "junction.DocumentRecallEvaluator",
  description: "Recall of the retrieved documents (single_hit: any relevant; multi_hit: share relevant).",
  params: z.object({
    mode: z.enum(["single_hit", "multi_hit"]).default("single_hit"),
    documentComparisonField: documentComparisonFieldSchema,
  }),
  inputs: documentInputs,
  outputs: scoreOutputs,
  run: (inputs, { params, logger }) =>
    scoreDocuments(
      "DocumentRecallEvaluator",
      inputs,
      params.documentComparisonField,
      logger,
      ({ truth, retrieved }) => {
        const truths = new Set(truth.filter(usable));
        const retrievals = new Set(retrieved.filter(usable));
        if (truths.size === 0 || retrievals.size === 0) return 0;
        let hits = 0;
        for (const key of truths) if (retrievals.has(key)) hits += 1;
        return params.mode === "single_hit" ? (hits > 0 ? 1 : 0) : hits / truths.size;
      },
    ),
});

/** A `DocumentRecallEvaluator` instance. */
export type DocumentRecallEvaluator = InstanceType<typeof DocumentRecallEvaluator>;
