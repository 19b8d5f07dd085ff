import { defineComponent } from "@junction/core";
import { z } from "zod";
import { meanOfValid } from "../evaluators/checks.js";
import { nestedComponentSerializer } from "../evaluators/nested-component-serializer.js";
import { scoreOutputs, textListSchema, textListsSchema } from "../evaluators/sockets.js";
import { judgeExampleSchema, judgeOutputs, judgeParamsShape } from "./judge-params.js";
import { runJudge } from "./judge-run.js";
import type { JudgeExample } from "./prompt.js";

const instructions =
  "Judge whether the statements of an answer are grounded in the given context. " +
  "First, break the predicted answer to the question into separate statements. " +
  "Then give each statement a score: 1 when it can be inferred from the context, " +
  "0 when it cannot.";

/** The default few-shot examples (Haystack's three cases: all grounded, none, one of two). */
export const faithfulnessExamples: readonly JudgeExample[] = [
  {
    inputs: {
      questions: "What is the capital of Germany and when was it founded?",
      contexts: ["Berlin is the capital of Germany and was founded in 1244."],
      predicted_answers: "The capital of Germany, Berlin, was founded in the 13th century.",
    },
    outputs: {
      statements: ["Berlin is the capital of Germany.", "Berlin was founded in 1244."],
      statement_scores: [1, 1],
    },
  },
  {
    inputs: {
      questions: "What is the capital of France?",
      contexts: ["Berlin is the capital of Germany."],
      predicted_answers: "Paris",
    },
    outputs: { statements: ["Paris is the capital of France."], statement_scores: [0] },
  },
  {
    inputs: {
      questions: "What is the capital of Italy?",
      contexts: ["Rome is the capital of Italy."],
      predicted_answers: "Rome is the capital of Italy with more than 4 million inhabitants.",
    },
    outputs: {
      statements: ["Rome is the capital of Italy.", "Rome has more than 4 million inhabitants."],
      statement_scores: [1, 0],
    },
  },
];

// Loose, as Haystack keeps every key of the parsed reply: keys beyond the declared ones stay in `results`.
const judgment = z
  .looseObject({
    statements: z.array(z.string()),
    statement_scores: z.array(z.number().min(0).max(1)),
  })
  .refine((value) => value.statements.length === value.statement_scores.length, {
    message: "statement_scores must have one score per statement.",
    path: ["statement_scores"],
  });

/**
 * Faithfulness of generated answers: an LLM splits each predicted answer into statements and scores
 * each 1 (inferable from the contexts) or 0. A question's score is the mean of its statement scores
 * (0 when there are no statements); a judgment that stays invalid scores NaN, is left out of `score`
 * and counted in `meta.invalid`. Empty inputs give no results and a NaN `score`, as in Haystack.
 * Inputs: `questions`, `contexts` (the texts given to the generator), `predicted_answers`.
 * `examples: []` means the default examples, as Haystack's `examples or _DEFAULT_EXAMPLES` does.
 *
 * @example
 * ```ts
 * const faithfulness = new FaithfulnessEvaluator({ chatGenerator });
 * const { score, results } = await faithfulness.run({
 *   questions: ["Who created Python?"],
 *   contexts: [["Python was created by Guido van Rossum in the late 1980s."]],
 *   predicted_answers: ["Python was created by George Lucas."],
 * });
 * ```
 */
export const FaithfulnessEvaluator = defineComponent({
  type: "junction.FaithfulnessEvaluator",
  description: "Share of an answer's statements that the contexts support, judged by an LLM.",
  params: z.object({
    examples: z.array(judgeExampleSchema).default(faithfulnessExamples as JudgeExample[]),
    ...judgeParamsShape,
  }),
  inputs: { questions: textListSchema, contexts: textListsSchema, predicted_answers: textListSchema },
  outputs: { ...scoreOutputs, ...judgeOutputs },
  serializer: nestedComponentSerializer("chatGenerator"),
  run: async (inputs, { params, signal }) => {
    const { answers, meta } = await runJudge({
      evaluator: "FaithfulnessEvaluator",
      instructions,
      inputNames: ["questions", "contexts", "predicted_answers"],
      outputNames: ["statements", "statement_scores"],
      schema: judgment,
      // Haystack's `examples or _DEFAULT_EXAMPLES`: an empty list means the default examples.
      params: params.examples.length === 0 ? { ...params, examples: faithfulnessExamples } : params,
      inputs,
      signal,
    });
    const results = answers.map((answer) => {
      if (answer === undefined)
        return { statements: [], statement_scores: [], score: Number.NaN, status: "error" };
      const scores = answer.statement_scores as number[];
      const score = scores.length === 0 ? 0 : scores.reduce((sum, value) => sum + value, 0) / scores.length;
      return { ...answer, score, status: "evaluated" };
    });
    const individual_scores = results.map((result) => result.score);
    return { score: meanOfValid(individual_scores), individual_scores, results, meta };
  },
});

/** A `FaithfulnessEvaluator` instance. */
export type FaithfulnessEvaluator = InstanceType<typeof FaithfulnessEvaluator>;
