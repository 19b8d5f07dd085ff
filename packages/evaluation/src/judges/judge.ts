import { Agent } from "@junction/agents";
import type { AnyComponent } from "@junction/core";
import { addUsage, ChatMessage, type Usage } from "@junction/llm";
import type { z } from "zod";
import { runPool } from "../run/pool.js";

/** What {@link judgeAll} returns: one answer per prompt (`undefined` for an invalid one) and counts. */
export interface Judgments {
  /** The validated answer of each prompt, or `undefined` when it stayed invalid (or the call failed). */
  readonly answers: readonly (Record<string, unknown> | undefined)[];
  /** How many answers stayed invalid after the repair retries (exit reason `"invalid_output"`). */
  readonly invalid: number;
  /** How many model calls failed (only counted when `raiseOnFailure` is false). */
  readonly failed: number;
  /** The token usage of every call, summed. */
  readonly usage: Usage | undefined;
}

/** Options of {@link judgeAll}. */
export interface JudgeOptions {
  /** Who asks, for error messages. */
  readonly evaluator: string;
  /** The chat generator that judges. */
  readonly chatGenerator: AnyComponent;
  /** The zod schema every answer must satisfy. */
  readonly schema: z.ZodType;
  /** The prompts, one per question. */
  readonly prompts: readonly string[];
  /** Repair retries per answer. */
  readonly maxOutputRetries: number;
  /** How many prompts are judged at the same time. */
  readonly concurrency: number;
  /** Throw when a model call fails (true), or record it as an invalid judgment (false). */
  readonly raiseOnFailure: boolean;
  /** Aborts the judging. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Asks the model for one structured judgment per prompt. Each prompt runs an Agent without tools whose
 * `outputSchema` is the judgment schema, so the answer goes through the Agent's structured-output
 * machinery: schema validation, repair messages and retries, and exit reason `"invalid_output"` when
 * the model never gets it right — which becomes `undefined` here (a NaN score for the caller).
 */
export async function judgeAll(options: JudgeOptions): Promise<Judgments> {
  const agent = new Agent({
    chatGenerator: options.chatGenerator,
    outputSchema: options.schema,
    maxOutputRetries: options.maxOutputRetries,
  });
  const answers: (Record<string, unknown> | undefined)[] = new Array(options.prompts.length).fill(undefined);
  let invalid = 0;
  let failed = 0;
  let usage: Usage | undefined;
  const judgeOne = async (index: number): Promise<void> => {
    let result: Awaited<ReturnType<typeof agent.run>>;
    try {
      result = await agent.run(
        { messages: [ChatMessage.fromUser(options.prompts[index] as string)] },
        { signal: options.signal },
      );
    } catch (error) {
      if (options.raiseOnFailure || options.signal?.aborted) throw error;
      failed += 1;
      return;
    }
    usage = addUsage(usage, result.token_usage as unknown as Usage | undefined);
    if (result.exit_reason === "invalid_output" || result.structured_output === undefined) {
      invalid += 1;
      return;
    }
    answers[index] = result.structured_output as Record<string, unknown>;
  };
  await runPool(options.prompts.length, options.concurrency, judgeOne, options.signal);
  return { answers, invalid, failed, usage };
}
