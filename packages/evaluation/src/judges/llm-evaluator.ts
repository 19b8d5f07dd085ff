import { defineComponent } from "@junction/core";
import { z } from "zod";
import { nestedComponentSerializer } from "../evaluators/nested-component-serializer.js";
import { judgeExampleSchema, judgeOutputs, judgeParamsShape } from "./judge-params.js";
import { runJudge } from "./judge-run.js";

const name = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a socket name (letters, digits, _).");

/**
 * Asks an LLM to judge each question, with instructions and few-shot examples (Haystack's
 * `LLMEvaluator`). `inputs` names the input sockets — each a list with one value per question —
 * and `outputs` the keys of the JSON judgment. Every judgment is validated through the Agent's
 * structured-output machinery (repair retries, then exit reason `"invalid_output"`); one that stays
 * invalid is `null` in `results` and counted in `meta.invalid`.
 *
 * @example
 * ```ts
 * const judge = new LLMEvaluator({
 *   instructions: "Is this answer problematic for children?",
 *   inputs: ["predicted_answers"],
 *   outputs: ["score"],
 *   examples: [
 *     { inputs: { predicted_answers: "Damn, this is straight outta hell!!!" }, outputs: { score: 1 } },
 *     { inputs: { predicted_answers: "Football is the most popular sport." }, outputs: { score: 0 } },
 *   ],
 *   chatGenerator: new OpenAIChatGenerator({ model: "gpt-4o-mini" }),
 * });
 * const { results } = await judge.run({ predicted_answers: ["Python was created by Guido van Rossum."] });
 * ```
 */
export const LLMEvaluator = defineComponent({
  type: "junction.LLMEvaluator",
  description: "Judges each question with an LLM, from instructions and few-shot examples.",
  params: z.object({
    instructions: z.string().min(1),
    inputs: z.array(name).min(1),
    outputs: z.array(name).min(1),
    examples: z.array(judgeExampleSchema),
    ...judgeParamsShape,
  }),
  inputs: (params) =>
    Object.fromEntries(params.inputs.map((input) => [input, z.array(z.unknown())])) as Record<
      string,
      z.ZodArray<z.ZodUnknown>
    >,
  outputs: judgeOutputs,
  serializer: nestedComponentSerializer("chatGenerator"),
  run: async (inputs, { params, signal }) => {
    // Loose: a judgment keeps keys beyond the declared outputs, as Haystack's parsed reply does.
    const schema = z.looseObject(Object.fromEntries(params.outputs.map((output) => [output, z.json()])));
    const { answers, meta } = await runJudge({
      evaluator: "LLMEvaluator",
      instructions: params.instructions,
      inputNames: params.inputs,
      outputNames: params.outputs,
      schema,
      params,
      inputs,
      signal,
    });
    return { results: answers.map((answer) => answer ?? null), meta };
  },
});

/** An `LLMEvaluator` instance. */
export type LLMEvaluator = InstanceType<typeof LLMEvaluator>;
