import type { ChatMessage } from "../messages/chat-message.js";
import { type FinishReason, finishReasons } from "../messages/finish-reason.js";
import { type ComponentInfo, StreamingChunk } from "../streaming/streaming-chunk.js";

/** Internal: replays a finished reply as the chunks a streaming provider would send. */

const wordPattern = /\S+\s*|\s+/g;

function* chunksOf(message: ChatMessage, componentInfo: ComponentInfo): Generator<StreamingChunk> {
  let block = 0;
  for (const reasoning of message.reasonings) {
    yield new StreamingChunk({ index: block, start: true, reasoning, componentInfo });
    block++;
  }
  const text = message.text;
  if (text !== undefined && text !== "") {
    let first = true;
    for (const match of text.matchAll(wordPattern)) {
      yield new StreamingChunk({ content: match[0], index: block, start: first, componentInfo });
      first = false;
    }
    block++;
  }
  let callIndex = 0;
  for (const toolCall of message.toolCalls) {
    const json = JSON.stringify(toolCall.arguments);
    const half = Math.ceil(json.length / 2);
    yield new StreamingChunk({
      index: block,
      start: true,
      componentInfo,
      toolCalls: [
        { index: callIndex, toolName: toolCall.toolName, id: toolCall.id, arguments: json.slice(0, half) },
      ],
    });
    if (half < json.length)
      yield new StreamingChunk({
        index: block,
        componentInfo,
        toolCalls: [{ index: callIndex, arguments: json.slice(half) }],
      });
    block++;
    callIndex++;
  }
  const reason = message.meta.finish_reason;
  yield new StreamingChunk({
    componentInfo,
    finishReason: finishReasons.includes(reason as FinishReason) ? (reason as FinishReason) : undefined,
    meta: { model: message.meta.model, usage: message.meta.usage, finish_reason: message.meta.finish_reason },
  });
}

/**
 * Sends the chunks of `message` to each sink in turn, awaiting async sinks, checking `signal` before
 * every chunk.
 */
export async function streamScriptedReply(
  message: ChatMessage,
  componentInfo: ComponentInfo,
  sinks: readonly ((chunk: StreamingChunk) => unknown)[],
  signal: AbortSignal | undefined,
): Promise<void> {
  for (const chunk of chunksOf(message, componentInfo)) {
    signal?.throwIfAborted();
    for (const sink of sinks) {
      const result = sink(chunk);
      if (result instanceof Promise) await result;
    }
  }
}
