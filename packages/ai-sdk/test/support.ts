import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { convertArrayToReadableStream } from "ai/test";

/** A v3 usage record. */
export function usageV3(
  input: number,
  output: number,
  extra: { cacheRead?: number; reasoning?: number } = {},
) {
  return {
    inputTokens: { total: input, noCache: undefined, cacheRead: extra.cacheRead, cacheWrite: undefined },
    outputTokens: { total: output, text: undefined, reasoning: extra.reasoning },
  };
}

/** A v3 text result. */
export function textResult(text: string, usage = usageV3(10, 5)): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  };
}

/** A v3 result asking for tool calls. */
export function toolCallResult(
  calls: readonly { id: string; name: string; input: unknown }[],
): LanguageModelV3GenerateResult {
  return {
    content: calls.map((call) => ({
      type: "tool-call" as const,
      toolCallId: call.id,
      toolName: call.name,
      input: typeof call.input === "string" ? call.input : JSON.stringify(call.input),
    })),
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage: usageV3(20, 8),
    warnings: [],
  };
}

/** A v3 stream result. */
export function streamOf(parts: readonly LanguageModelV3StreamPart[]) {
  return { stream: convertArrayToReadableStream([...parts]) };
}
