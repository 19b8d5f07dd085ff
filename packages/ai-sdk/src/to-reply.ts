import { describeValueProblem, exceedsDepth, type Logger, maxValueDepth } from "@junction/core";
import { ChatMessage, type ToolCall } from "@junction/llm";
import { mapFinishReason } from "./finish-reason.js";
import { toUsage } from "./usage.js";

/** A tool call as a model returns it: `input` is JSON text. */
export interface RawToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

/** Everything a reply is assembled from, streamed or not. */
export interface ReplyParts {
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: readonly RawToolCall[];
  readonly finishReason: unknown;
  readonly usage: unknown;
  /** `response.modelId` when the model reported it, else the model's `modelId`. */
  readonly model: string;
  readonly provider: string;
  readonly responseId: string | undefined;
  readonly sources: readonly unknown[];
  readonly warnings: readonly unknown[];
}

/**
 * Parses a tool call's JSON input. Input that is not a JSON object, or nests deeper than core's
 * `maxValueDepth`, is kept visibly, as
 * `OpenAIChatGenerator` does: `arguments: {}` plus `extra.malformed_arguments` and `extra.arguments_error`
 * (the agent then tells the model instead of running the tool with made-up arguments).
 */
export function toToolCall(call: RawToolCall, logger: Logger): ToolCall {
  const text = call.input.trim();
  let value: unknown = {};
  let error: string | undefined;
  if (text !== "") {
    try {
      value = JSON.parse(text);
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
  }
  if (error === undefined && (typeof value !== "object" || value === null || Array.isArray(value)))
    error = "expected a JSON object";
  // JSON.parse reads any depth, but the message, its validation and every later JSON.stringify would not.
  if (error === undefined && exceedsDepth(value))
    error = `the JSON ${describeValueProblem({ kind: "too_deep", limit: maxValueDepth })}`;
  if (error === undefined)
    return { toolName: call.toolName, arguments: value as Record<string, unknown>, id: call.toolCallId };
  logger.warn(
    `AISDKChatGenerator: the model returned tool call input that is not a JSON object for "${call.toolName}" (${error}). The call is kept with arguments {} and the raw text in extra.malformed_arguments.`,
    { toolName: call.toolName, toolCallId: call.toolCallId },
  );
  return {
    toolName: call.toolName,
    arguments: {},
    id: call.toolCallId,
    extra: { malformed_arguments: call.input, arguments_error: error },
  };
}

/**
 * Builds the one assistant reply of a call: reasoning, text and tool calls, with `meta.model`,
 * `meta.provider`, `meta.finish_reason` (Junction's), `meta.raw_finish_reason` when the model's value had
 * no equivalent, `meta.usage` (Junction's names), and `sources` / `warnings` when there were any.
 *
 * @param parts - what the model returned
 * @param logger - receives warnings about malformed tool call input
 */
export function toReply(parts: ReplyParts, logger: Logger): ChatMessage {
  const { finishReason, raw } = mapFinishReason(parts.finishReason);
  const toolCalls = parts.toolCalls.map((call) => toToolCall(call, logger));
  return ChatMessage.fromAssistant({
    ...(parts.text === "" ? {} : { text: parts.text }),
    ...(parts.reasoning === "" ? {} : { reasoning: parts.reasoning }),
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    meta: {
      model: parts.model,
      provider: parts.provider,
      index: 0,
      finish_reason: finishReason,
      usage: toUsage(parts.usage),
      ...(raw === undefined ? {} : { raw_finish_reason: raw }),
      ...(parts.responseId === undefined ? {} : { id: parts.responseId }),
      ...(parts.sources.length === 0 ? {} : { sources: parts.sources }),
      ...(parts.warnings.length === 0 ? {} : { warnings: parts.warnings }),
    },
  });
}
