import type { Logger, MaybePromise } from "@junction/core";
import type { ChatMessage, ComponentInfo, StreamingCallback, StreamingChunk } from "@junction/llm";
import type OpenAI from "openai";
import { withRefusalStop } from "./connection-refused.js";
import { warnOnAbnormalFinish } from "./finish-reason.js";
import { fromChatCompletion } from "./from-chat-completion.js";
import { fromStreamingChunks } from "./from-streaming-chunks.js";
import { type ErrorContext, toOpenAIApiError } from "./to-openai-api-error.js";
import { toStreamingChunks } from "./to-streaming-chunks.js";

type RequestBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/** Where streamed chunks go. */
export interface StreamTargets {
  /** The user's streaming callback, if any. */
  readonly callback: StreamingCallback | undefined;
  /** The run context's `emit` (Pipeline.stream events). */
  readonly emit: (payload: unknown) => MaybePromise<void>;
  /** The emitting component. */
  readonly componentInfo: ComponentInfo;
}

/** One chat completion call. */
export interface ChatCompletionCall {
  readonly client: OpenAI;
  /** The request body without `stream`. */
  readonly body: Omit<RequestBody, "stream">;
  /** Streams over SSE when given. */
  readonly stream: StreamTargets | undefined;
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
  readonly errorContext: ErrorContext;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

async function streamReply(
  call: ChatCompletionCall,
  targets: StreamTargets,
  requestSignal: AbortSignal,
): Promise<ChatMessage> {
  const { client, body, signal, logger } = call;
  // Usage arrives in a final chunk only when asked for; `stream_options: null` sends none (for servers that reject it).
  const { stream_options: given, ...rest } = body;
  const streamOptions = "stream_options" in body ? given : { include_usage: true };
  const stream = await client.chat.completions.create(
    { ...rest, stream: true, ...(streamOptions == null ? {} : { stream_options: streamOptions }) },
    { signal: requestSignal },
  );
  const chunks: StreamingChunk[] = [];
  let textStarted = false;
  for await (const wire of stream) {
    // The SDK ends the iteration quietly when the signal aborts; check it on every chunk.
    if (signal?.aborted) break;
    for (const chunk of toStreamingChunks(wire, targets.componentInfo, textStarted)) {
      if (chunk.content !== "") textStarted = true;
      chunks.push(chunk);
      await targets.callback?.(chunk);
      await targets.emit(chunk);
    }
  }
  if (signal?.aborted) throw abortReason(signal);
  const reply = fromStreamingChunks(chunks, logger);
  if (reply.meta.finish_reason === null) {
    logger.warn(
      "OpenAIChatGenerator: the stream ended without a finish reason; the reply may be incomplete (the server closed the connection early?).",
      { model: body.model },
    );
  }
  return reply;
}

/**
 * Sends one chat completion request and converts the answer into assistant messages: one per choice
 * without streaming, one assembled from the chunks with streaming (each chunk goes to the callback,
 * then to `emit`, before the next is read).
 *
 * Aborting `signal` cancels the HTTP request or stream and rejects with the signal's reason. SDK errors
 * become `OpenAIApiError`s with a redacted message; errors thrown by the callback pass through.
 *
 * @param call - client, request body, stream targets, signal, logger and error context
 */
export async function runChatCompletion(call: ChatCompletionCall): Promise<ChatMessage[]> {
  const { signal } = call;
  signal?.throwIfAborted();
  let replies: ChatMessage[];
  try {
    // A refused connection stops the SDK's retries at once (see connection-refused.ts).
    replies = await withRefusalStop(signal, async (requestSignal) =>
      call.stream === undefined
        ? fromChatCompletion(
            await call.client.chat.completions.create(
              { ...call.body, stream: false },
              { signal: requestSignal },
            ),
            call.logger,
          )
        : [await streamReply(call, call.stream, requestSignal)],
    );
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw toOpenAIApiError(error, call.errorContext);
  }
  for (const reply of replies)
    warnOnAbnormalFinish(reply.meta.finish_reason, Number(reply.meta.index ?? 0), call.logger);
  return replies;
}
