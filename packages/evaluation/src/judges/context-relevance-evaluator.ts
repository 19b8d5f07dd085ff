import { defineComponent } from "@junction/core";
import { z } from "zod";
import { meanOfValid } from "../evaluators/checks.js";
import { nestedComponentSerializer } from "../evaluators/nested-component-serializer.js";
import { scoreOutputs, textListSchema, textListsSchema } from "../evaluators/sockets.js";
import { judgeExampleSchema, judgeOutputs, judgeParamsShape } from "./judge-params.js";
import { runJudge } from "./judge-run.js";
import type { JudgeExample } from "./prompt.js";

const instructions =
  "From the given context, pick out only the sentences that are truly needed to answer the question. " +
  "When no sentence is relevant, or the question cannot be answered from the context, " +
  "return an empty list: []";

/** The default few-shot examples (Haystack's three cases: one relevant sentence, none, the whole context). */
export const contextRelevanceExamples: readonly JudgeExample[] = [
  {
    inputs: {
      questions: "What is the capital of Germany?",
      contexts: ["Berlin is the capital of Germany. Berlin and was founded in 1244."],
    },
    outputs: { relevant_statements: ["Berlin is the capital of Germany."] },
  },
  {
    inputs: {
      questions: "What is the capital of France?",
      contexts: [
        "Berlin is the capital of Germany and was founded in 1244.",
        "Europe is a continent with 44 countries.",
        "Madrid is the capital of Spain.",
      ],
    },
    outputs: { relevant_statements: [] },
  },
  {
    inputs: { questions: "What is the capital of Italy?", contexts: ["Rome is the capital of Italy."] },
    outputs: { relevant_statements: ["Rome is the capital of Italy."] },
  },
];

// Loose, as Haystack keeps every key of the parsed reply: keys beyond the declared ones stay in `results`.
const judgment = z.looseObject({ relevant_statements: z.array(z.string()) });

/**
 * Context relevance: an LLM extracts the sentences of each question's contexts that are needed to
 * answer it. A question scores 1 when there is at least one such sentence, else 0; a judgment that
 * stays invalid scores NaN, is left out of `score` and counted in `meta.invalid`. Empty inputs give no
 * results and a NaN `score`, as in Haystack. `examples: []` means the default examples, as in Haystack.
 *
 * @example
 * ```ts
 * const relevance = new ContextRelevanceEvaluator({ chatGenerator });
 * const { score } = await relevance.run({
 *   questions: ["Who created Python?"],
 *   contexts: [["Python was created by Guido van Rossum.", "Java runs on the JVM."]],
 * });
 * ```
 */
export const ContextRelevanceEvaluator = defineComponent({
  type: "junction.ContextRelevanceEvaluator",
  description: "Whether the contexts hold sentences relevant to the question, judged by an LLM.",
  params: z.object({
    examples: z.array(judgeExampleSchema).default(contextRelevanceExamples as JudgeExample[]),
    ...judgeParamsShape,
  }),
  inputs: { questions: textListSchema, contexts: textListsSchema },
  outputs: { ...scoreOutputs, ...judgeOutputs },
  serializer: nestedComponentSerializer("chatGenerator"),
  run: async (inputs, { params, signal }) => {
    const { answers, meta } = await runJudge({
      evaluator: "ContextRelevanceEvaluator",
      instructions,
      inputNames: ["questions", "contexts"],
      outputNames: ["relevant_statements"],
      schema: judgment,
      // Haystack's `examples or _DEFAULT_EXAMPLES`: an empty list means the default examples.
      params: params.examples.length === 0 ? { ...params, examples: contextRelevanceExamples } : params,
      inputs,
      signal,
    });
    const results = answers.map((answer) => {
      if (answer === undefined) return { relevant_statements: [], score: Number.NaN, status: "error" };
      const relevant = answer.relevant_statements as string[];
      return { ...answer, score: relevant.length > 0 ? 1 : 0, status: "evaluated" };
    });
    const individual_scores = results.map((result) => result.score);
    return { score: meanOfValid(individual_scores), individual_scores, results, meta };
  },
});

/** A `ContextRelevanceEvaluator` instance. */
export type ContextRelevanceEvaluator = InstanceType<typeof ContextRelevanceEvaluator>;
