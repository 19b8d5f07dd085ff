/**
 * The judge prompt, laid out as Haystack's `LLMEvaluator` lays it out: the instructions, the keys of
 * the JSON answer, the few-shot examples, then the inputs of one question as JSON.
 */

/** One few-shot example: the inputs of a question and the answer expected for them. */
export interface JudgeExample {
  /** Input name → value for one question (e.g. `{ questions: "…", contexts: ["…"] }`). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Output name → value (e.g. `{ score: 1 }`). */
  readonly outputs: Readonly<Record<string, unknown>>;
}

/** Builds the prompt of one question. */
export function judgePrompt(options: {
  readonly instructions: string;
  readonly outputs: readonly string[];
  readonly examples: readonly JudgeExample[];
  readonly inputs: Readonly<Record<string, unknown>>;
}): string {
  const examples = options.examples
    .map(
      (example) => `Inputs:\n${JSON.stringify(example.inputs)}\nOutputs:\n${JSON.stringify(example.outputs)}`,
    )
    .join("\n");
  return [
    `Instructions:\n${options.instructions}\n`,
    `Answer with a JSON object that has exactly these keys:\n${JSON.stringify(options.outputs)}`,
    "Follow the instructions and the examples below to decide their values.\n",
    `Examples:\n${examples}\n`,
    `Inputs:\n${JSON.stringify(options.inputs)}`,
    "Outputs:\n",
  ].join("\n");
}
