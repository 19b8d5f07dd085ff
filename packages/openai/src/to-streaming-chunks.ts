import { type ComponentInfo, StreamingChunk, type ToolCallDelta } from "@junction/llm";
import type OpenAI from "openai";
import { chunkFinishReason } from "./finish-reason.js";
import { jsonCopy, reasoningOf, usageToJSON } from "./from-chat-completion.js";

type ChatCompletionChunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/**
 * Converts one SSE chunk of a chat completion into `StreamingChunk`s: a reasoning delta, a text delta
 * (block index 0) and tool call deltas (block index = the tool call's index), in that order. A
 * `StreamingChunk` carries only one kind of delta, so a wire chunk with several yields several chunks;
 * a wire chunk with none (the first role-only chunk, the finish chunk, the usage chunk) yields one
 * empty chunk that carries the metadata.
 *
 * Every chunk's `meta` has `model`, `received_at` (ISO time), `usage` (or `null`) and, when the wire
 * chunk has a choice, `index` and `finish_reason`.
 *
 * @param wire - the SDK's chunk
 * @param componentInfo - the emitting component
 * @param textStarted - whether text was already streamed (decides `start` on the first text chunk)
 */
export function toStreamingChunks(
  wire: ChatCompletionChunk,
  componentInfo: ComponentInfo,
  textStarted: boolean,
): StreamingChunk[] {
  const choice = wire.choices[0];
  const finishReason = chunkFinishReason(choice?.finish_reason);
  const meta: Record<string, unknown> = {
    model: wire.model,
    received_at: new Date().toISOString(),
    usage: usageToJSON(wire.usage),
    ...(choice === undefined ? {} : { index: choice.index, finish_reason: choice.finish_reason ?? null }),
    ...(choice?.logprobs ? { logprobs: jsonCopy(choice.logprobs, "logprobs") } : {}),
  };
  const common = { componentInfo, meta, ...(finishReason === undefined ? {} : { finishReason }) };
  const out: StreamingChunk[] = [];
  const delta = choice?.delta;
  const reasoning = reasoningOf(delta);
  if (reasoning !== undefined) out.push(new StreamingChunk({ ...common, index: 0, reasoning }));
  if (typeof delta?.content === "string" && delta.content !== "") {
    out.push(new StreamingChunk({ ...common, index: 0, content: delta.content, start: !textStarted }));
  }
  const deltas: ToolCallDelta[] = (delta?.tool_calls ?? []).map((call) => ({
    index: call.index,
    ...(call.id === undefined || call.id === null ? {} : { id: call.id }),
    ...(call.function?.name === undefined || call.function.name === null
      ? {}
      : { toolName: call.function.name }),
    ...(call.function?.arguments ? { arguments: call.function.arguments } : {}),
  }));
  const first = deltas[0];
  if (first !== undefined) {
    out.push(
      new StreamingChunk({
        ...common,
        index: first.index,
        toolCalls: deltas,
        start: first.toolName !== undefined,
      }),
    );
  }
  if (out.length === 0) out.push(new StreamingChunk(common));
  return out;
}
