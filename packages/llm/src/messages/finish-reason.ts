/**
 * Why a model stopped generating: OpenAI's values plus the reference's `"tool_call_results"` (used on
 * streaming chunks that carry tool results).
 */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "tool_call_results";

/** Every {@link FinishReason}. */
export const finishReasons: readonly FinishReason[] = Object.freeze([
  "stop",
  "length",
  "tool_calls",
  "content_filter",
  "tool_call_results",
]);
