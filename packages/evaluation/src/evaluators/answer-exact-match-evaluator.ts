import { defineComponent } from "@junction/core";
import { checkSameLength, checkTextRows } from "./checks.js";
import { scoreOutputs, textListSchema } from "./sockets.js";

const evaluator = "AnswerExactMatchEvaluator";

/**
 * Exact match of answers: 1 for a question whose predicted answer equals its ground truth answer
 * (string equality, no normalization), else 0; `score` is the share of matches.
 *
 * @example
 * ```ts
 * await new AnswerExactMatchEvaluator().run({
 *   ground_truth_answers: ["Berlin", "Paris"],
 *   predicted_answers: ["Berlin", "Lyon"],
 * }); // { score: 0.5, individual_scores: [1, 0] }
 * ```
 */
export const AnswerExactMatchEvaluator = defineComponent({
  type: "junction.AnswerExactMatchEvaluator",
  description: "Share of predicted answers equal to their ground truth answer.",
  inputs: { ground_truth_answers: textListSchema, predicted_answers: textListSchema },
  outputs: scoreOutputs,
  run: ({ ground_truth_answers, predicted_answers }) => {
    checkSameLength(evaluator, { ground_truth_answers, predicted_answers });
    checkTextRows(evaluator, "ground_truth_answers", ground_truth_answers);
    checkTextRows(evaluator, "predicted_answers", predicted_answers);
    const individual_scores = ground_truth_answers.map((truth, index) =>
      truth === predicted_answers[index] ? 1 : 0,
    );
    const matches = individual_scores.reduce<number>((sum, value) => sum + value, 0);
    return { score: matches / individual_scores.length, individual_scores };
  },
});

/** An `AnswerExactMatchEvaluator` instance. */
export type AnswerExactMatchEvaluator = InstanceType<typeof AnswerExactMatchEvaluator>;
