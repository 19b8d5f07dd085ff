import { describeValueProblem, exceedsDepth, type Logger, maxValueDepth } from "@junction/core";
import { ChatMessage, type ChatMessageMeta, type ToolCall, type Usage } from "@junction/llm";
import type OpenAI from "openai";
import { mapFinishReason } from "./finish-reason.js";
import { OpenAIApiError } from "./openai-api-error.js";
import { parseToolCall } from "./parse-tool-call.js";

type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;
type Choice = ChatCompletion["choices"][number];

/**
 * Reasoning text some OpenAI-compatible servers (vLLM, Ollama, DeepSeek) add to messages and deltas
 * under a non-standard key.
 */
export function reasoningOf(value: object | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const record = value as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof record.reasoning_content === "string" && record.reasoning_content !== "")
    return record.reasoning_content;
  if (typeof record.reasoning === "string" && record.reasoning !== "") return record.reasoning;
  return undefined;
}

/** A plain-JSON copy of the SDK's usage object (with its `*_details`), or `null`. */
export function usageToJSON(usage: OpenAI.CompletionUsage | null | undefined): Usage | null {
  if (usage === null || usage === undefined) return null;
  return jsonCopy(usage, "usage") as Usage;
}

/**
 * A plain-JSON copy of part of a server's reply. The reply was parsed from JSON at any depth, but
 * `JSON.stringify` runs out of stack on a deep one: such a reply is refused with an error naming the field
 * (a real server never nests `usage` or `logprobs` this deep).
 *
 * @throws OpenAIApiError when `value` nests deeper than core's `maxValueDepth`
 */
export function jsonCopy(value: unknown, field: string): unknown {
  if (exceedsDepth(value)) {
    throw new OpenAIApiError(
      `OpenAIChatGenerator: the server's reply has a "${field}" that ${describeValueProblem({ kind: "too_deep", limit: maxValueDepth })}; it is not a valid reply. Check the server (baseURL) the generator talks to.`,
    );
  }
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function choiceToMessage(completion: ChatCompletion, choice: Choice, logger: Logger): ChatMessage {
  const message = choice.message;
  const toolCalls: ToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    // Only function tools are supported (not custom tools), as in the reference.
    if (call.type !== "function") continue;
    toolCalls.push(
      parseToolCall({ id: call.id, name: call.function.name, arguments: call.function.arguments }, logger),
    );
  }
  const meta: ChatMessageMeta = {
    model: completion.model,
    index: choice.index,
    finish_reason: mapFinishReason(choice.finish_reason),
    usage: usageToJSON(completion.usage),
    ...(choice.logprobs ? { logprobs: jsonCopy(choice.logprobs, "logprobs") } : {}),
    ...(typeof message.refusal === "string" ? { refusal: message.refusal } : {}),
  };
  const reasoning = reasoningOf(message);
  return ChatMessage.fromAssistant({
    ...(typeof message.content === "string" ? { text: message.content } : {}),
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    ...(reasoning === undefined ? {} : { reasoning }),
    meta,
  });
}

/**
 * Converts a (non-streaming) chat completion into one assistant message per choice, with
 * `meta: { model, index, finish_reason, usage, logprobs?, refusal? }`.
 *
 * @param completion - the SDK's response
 * @param logger - receives warnings about malformed tool call arguments
 */
export function fromChatCompletion(completion: ChatCompletion, logger: Logger): ChatMessage[] {
  return completion.choices.map((choice) => choiceToMessage(completion, choice, logger));
}
