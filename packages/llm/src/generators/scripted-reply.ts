import { z } from "zod";
import {
  ChatMessage,
  type ChatMessage as ChatMessageType,
  fromAssistantWithOwnMeta,
} from "../messages/chat-message.js";
import type { ToolCall } from "../messages/content-parts.js";
import { type FinishReason, finishReasons } from "../messages/finish-reason.js";
import type { Usage } from "../messages/usage.js";

/** One reply of a {@link ScriptedChatGenerator} script (plain JSON data, so scripts serialize). */
export interface ScriptedReply {
  /** The reply text. */
  readonly text?: string | undefined;
  /** Tool calls to request; missing ids become `call_<call>_<index>`. */
  readonly toolCalls?: readonly ToolCall[] | undefined;
  /** Reasoning text. */
  readonly reasoning?: string | undefined;
  /** The finish reason (default: `"tool_calls"` with tool calls, else `"stop"`). */
  readonly finishReason?: FinishReason | undefined;
  /** Token usage to report (default: all zeros). */
  readonly usage?: Usage | undefined;
  /** Extra metadata merged into the reply's `meta`. */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

const usageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
});

/** The zod schema of one script entry: a text, or a {@link ScriptedReply}. */
export const scriptedReplySchema = z.union([
  z.string(),
  z.strictObject({
    text: z.string().optional(),
    toolCalls: z
      .array(
        z.strictObject({
          toolName: z.string().min(1),
          arguments: z.record(z.string(), z.unknown()).default({}),
          id: z.string().optional(),
          extra: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .optional(),
    reasoning: z.string().optional(),
    finishReason: z.enum(finishReasons as [FinishReason, ...FinishReason[]]).optional(),
    usage: usageSchema.optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  }),
]);

const zeroUsage: Usage = Object.freeze({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

/**
 * Builds the assistant message for a scripted reply (or completes a message a reply function returned
 * with the generator's `meta` defaults).
 *
 * @param reply - a text, a scripted reply, or a ready message
 * @param model - the model name to report
 * @param call - the 1-based call number (for generated tool call ids)
 */
export function buildScriptedReply(
  reply: string | ScriptedReply | ChatMessageType,
  model: string,
  call: number,
): ChatMessageType {
  if (reply instanceof ChatMessage) {
    const meta = reply.meta;
    if (meta.model !== undefined && meta.finish_reason !== undefined && meta.usage !== undefined)
      return reply;
    return reply.withMeta({
      model: meta.model ?? model,
      finish_reason: meta.finish_reason ?? (reply.toolCalls.length > 0 ? "tool_calls" : "stop"),
      usage: meta.usage ?? zeroUsage,
    });
  }
  const scripted: ScriptedReply = typeof reply === "string" ? { text: reply } : reply;
  const toolCalls = scripted.toolCalls?.map((toolCall, index) => {
    // A malformed call is passed on as it is: the message's checks report it.
    if (toolCall.id !== undefined || typeof toolCall !== "object" || toolCall === null) return toolCall;
    // Not `{ ...toolCall, id }`: on Node 20 a spread with a key after it is a slow path (~1 µs). The
    // message keeps only these fields of a call anyway.
    const withId: { -readonly [K in keyof ToolCall]: ToolCall[K] } = {
      toolName: toolCall.toolName,
      arguments: toolCall.arguments,
      id: `call_${call}_${index}`,
    };
    if (toolCall.extra !== undefined) withId.extra = toolCall.extra;
    return withId;
  });
  const hasCalls = toolCalls !== undefined && toolCalls.length > 0;
  const base = {
    model,
    index: 0,
    finish_reason: scripted.finishReason ?? (hasCalls ? "tool_calls" : "stop"),
    usage: scripted.usage ?? zeroUsage,
  };
  // A literal ending in a spread is slow to copy and freeze on Node 20 (see copyRecord): spread only
  // when there is extra metadata (a spread, not Object.assign: a "__proto__" key stays data).
  const meta = scripted.meta === undefined ? base : { ...base, ...scripted.meta };
  // `meta` was built here for this message alone: frozen as it is, not copied again.
  return fromAssistantWithOwnMeta({ text: scripted.text, toolCalls, reasoning: scripted.reasoning, meta });
}
