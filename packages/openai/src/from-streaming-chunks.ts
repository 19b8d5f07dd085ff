import type { Logger } from "@junction/core";
import { ChatMessage, type StreamingChunk, type ToolCall, type Usage } from "@junction/llm";
import { parseToolCall } from "./parse-tool-call.js";

interface PendingCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Assembles the streamed chunks of one reply into the assistant message the non-streaming path would
 * have returned: the text deltas joined, tool calls accumulated by their index (name and argument
 * fragments concatenated, then parsed), reasoning joined, `finish_reason` the last one given, `usage`
 * the last non-null one, `model` from the last chunk, plus `completion_start_time` (when the first chunk
 * arrived).
 *
 * @param chunks - every chunk of the reply, in order
 * @param logger - receives warnings about malformed tool call arguments
 */
export function fromStreamingChunks(chunks: readonly StreamingChunk[], logger: Logger): ChatMessage {
  let text = "";
  let reasoning = "";
  const calls = new Map<number, PendingCall>();
  let finishReason: string | null = null;
  let usage: Usage | null = null;
  let model: unknown;
  for (const chunk of chunks) {
    text += chunk.content;
    if (chunk.reasoning !== undefined) reasoning += chunk.reasoning.reasoningText;
    for (const delta of chunk.toolCalls ?? []) {
      const call = calls.get(delta.index) ?? { id: undefined, name: "", arguments: "" };
      if (delta.id !== undefined) call.id = delta.id;
      if (delta.toolName !== undefined) call.name += delta.toolName;
      if (delta.arguments !== undefined) call.arguments += delta.arguments;
      calls.set(delta.index, call);
    }
    const raw = chunk.meta.finish_reason;
    if (chunk.finishReason !== undefined) finishReason = chunk.finishReason;
    else if (typeof raw === "string") finishReason = raw;
    if (chunk.meta.usage !== null && chunk.meta.usage !== undefined) usage = chunk.meta.usage as Usage;
    if (chunk.meta.model !== undefined) model = chunk.meta.model;
  }
  const toolCalls: ToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => parseToolCall(call, logger));
  const logprobs = chunks.flatMap((chunk) =>
    chunk.meta.logprobs === undefined ? [] : [chunk.meta.logprobs],
  );
  return ChatMessage.fromAssistant({
    ...(text === "" ? {} : { text }),
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    ...(reasoning === "" ? {} : { reasoning }),
    meta: {
      model: typeof model === "string" ? model : undefined,
      index: 0,
      finish_reason: finishReason,
      usage,
      completion_start_time: chunks[0]?.meta.received_at,
      ...(logprobs.length === 0 ? {} : { logprobs }),
    },
  });
}
