import type { Logger } from "@junction/core";
import type { FinishReason } from "@junction/llm";

const mapping: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  content_filter: "content_filter",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
};

/** Maps OpenAI's finish reason to Junction's (`function_call` → `tool_calls`); unknown values are kept as-is. */
export function mapFinishReason(value: string | null | undefined): FinishReason | (string & {}) | null {
  if (value === null || value === undefined) return null;
  return mapping[value] ?? value;
}

/** The finish reason as a `StreamingChunk` accepts it (only the known values). */
export function chunkFinishReason(value: string | null | undefined): FinishReason | undefined {
  return value === null || value === undefined ? undefined : mapping[value];
}

/**
 * Warns when a reply was cut short (`length`) or filtered (`content_filter`), as the reference does.
 *
 * @param finishReason - the reply's finish reason
 * @param index - the reply's choice index
 * @param logger - where the warning goes
 */
export function warnOnAbnormalFinish(finishReason: unknown, index: number, logger: Logger): void {
  if (finishReason === "length") {
    logger.warn(
      `OpenAIChatGenerator: reply ${index} was truncated before a natural stopping point (finish_reason "length"). Raise max_completion_tokens in generationKwargs to allow longer replies.`,
      { index, finishReason },
    );
  } else if (finishReason === "content_filter") {
    logger.warn(
      `OpenAIChatGenerator: reply ${index} was cut short by the content filter (finish_reason "content_filter").`,
      {
        index,
        finishReason,
      },
    );
  }
}
