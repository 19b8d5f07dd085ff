import type { AnyComponent } from "@junction/core";
import type { Usage } from "@junction/llm";
import type { z } from "zod";
import { EvaluationInputError } from "../errors.js";
import { checkSameLength } from "../evaluators/checks.js";
import { judgeAll } from "./judge.js";
import { type JudgeExample, judgePrompt } from "./prompt.js";

/** The `meta` output of the LLM judges: counts of what happened, and the tokens spent. */
export interface JudgeMeta {
  /** Questions with a valid judgment. */
  readonly evaluated: number;
  /** Questions whose judgment stayed invalid after the repair retries (scored NaN). */
  readonly invalid: number;
  /** Questions whose model call failed (only with `raiseOnFailure: false`; scored NaN). */
  readonly failed: number;
  /** The token usage of every judge call, summed (absent when the generator reports none). */
  readonly token_usage?: Usage | undefined;
}

/** The params every LLM judge shares. */
export interface JudgeParams {
  readonly chatGenerator: AnyComponent;
  readonly examples: readonly JudgeExample[];
  readonly maxOutputRetries: number;
  readonly concurrency: number;
  readonly raiseOnFailure: boolean;
}

/**
 * Checks the inputs of an LLM judge (every declared input present, lists of one length), builds one
 * prompt per question and asks the model. Returns one answer per question (`undefined` when invalid).
 * No rows is not an error: Haystack's judges return no results (and a NaN score) for empty lists.
 */
export async function runJudge(options: {
  readonly evaluator: string;
  readonly instructions: string;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly schema: z.ZodType;
  readonly params: JudgeParams;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal | undefined;
}): Promise<{ answers: readonly (Record<string, unknown> | undefined)[]; meta: JudgeMeta }> {
  const lists: Record<string, readonly unknown[]> = {};
  for (const name of options.inputNames) {
    const value = options.inputs[name];
    if (!Array.isArray(value)) {
      throw new EvaluationInputError(
        `${options.evaluator}: the input "${name}" is ${value === undefined ? "missing" : "not a list"}. Give a list with one entry per question.`,
        { componentType: options.evaluator, socket: name },
      );
    }
    lists[name] = value;
  }
  const rows = checkSameLength(options.evaluator, lists, { allowEmpty: true });
  const prompts: string[] = [];
  for (let rowIndex = 0; rowIndex < rows; rowIndex += 1) {
    const row: Record<string, unknown> = {};
    for (const name of options.inputNames) {
      const value = lists[name]?.[rowIndex];
      if (value === undefined || value === null) {
        throw new EvaluationInputError(
          `${options.evaluator}: "${name}"[${rowIndex}] is missing. Give a value for every question.`,
          { componentType: options.evaluator, socket: name, rowIndex },
        );
      }
      row[name] = value;
    }
    prompts.push(
      judgePrompt({
        instructions: options.instructions,
        outputs: options.outputNames,
        examples: options.params.examples,
        inputs: row,
      }),
    );
  }
  const judged = await judgeAll({
    evaluator: options.evaluator,
    chatGenerator: options.params.chatGenerator,
    schema: options.schema,
    prompts,
    maxOutputRetries: options.params.maxOutputRetries,
    concurrency: options.params.concurrency,
    raiseOnFailure: options.params.raiseOnFailure,
    signal: options.signal,
  });
  const meta: JudgeMeta = {
    evaluated: rows - judged.invalid - judged.failed,
    invalid: judged.invalid,
    failed: judged.failed,
    ...(judged.usage === undefined ? {} : { token_usage: judged.usage }),
  };
  return { answers: judged.answers, meta };
}
