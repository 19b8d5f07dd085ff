import type { Logger, MaybePromise } from "@junction/core";
import { type ChatMessage, type ComponentInfo, StreamingChunk } from "@junction/llm";
import { mapFinishReason } from "./finish-reason.js";
import type { AISDKLanguageModel, CallOptions } from "./language-model.js";
import { type RawToolCall, toReply } from "./to-reply.js";
import { toUsage } from "./usage.js";

/** One stream part, of any supported version (read by `type`). */
interface StreamPart {
  readonly type: string;
  readonly id?: string;
  readonly delta?: string;
  readonly toolName?: string;
  readonly toolCallId?: string;
  readonly input?: string;
  readonly providerExecuted?: boolean;
  readonly modelId?: string;
  readonly finishReason?: unknown;
  readonly usage?: unknown;
  readonly error?: unknown;
  readonly warnings?: readonly unknown[];
}

/** Accumulates one streamed reply and turns stream parts into Junction chunks. */
class StreamAssembler {
  text = "";
  reasoning = "";
  finishReason: unknown;
  usage: unknown;
  modelId: string | undefined;
  responseId: string | undefined;
  readonly warnings: unknown[] = [];
  readonly sources: unknown[] = [];
  /** Content blocks (string ids, per kind) → integer index by first appearance. */
  readonly #blocks = new Map<string, number>();
  /** Streamed tool calls by their stream id. */
  readonly #calls = new Map<string, { index: number; call: RawToolCall }>();
  readonly #started = new Set<string>();

  constructor(readonly componentInfo: ComponentInfo) {}

  #block(kind: string, id: string | undefined): { index: number; start: boolean } {
    const key = `${kind}:${id ?? ""}`;
    let index = this.#blocks.get(key);
    if (index === undefined) {
      index = this.#blocks.size;
      this.#blocks.set(key, index);
    }
    const start = !this.#started.has(key);
    this.#started.add(key);
    return { index, start };
  }

  #startCall(id: string, toolName: string): { index: number; call: RawToolCall } {
    const entry = { index: this.#calls.size, call: { toolCallId: id, toolName, input: "" } };
    this.#calls.set(id, entry);
    return entry;
  }

  get toolCalls(): RawToolCall[] {
    return [...this.#calls.values()].map((entry) => entry.call);
  }

  /** The chunks a part becomes (none for bookkeeping parts). */
  chunks(part: StreamPart): StreamingChunk[] {
    const componentInfo = this.componentInfo;
    switch (part.type) {
      case "text-delta": {
        if (part.delta === undefined || part.delta === "") return [];
        this.text += part.delta;
        return [new StreamingChunk({ content: part.delta, ...this.#block("text", part.id), componentInfo })];
      }
      case "reasoning-delta": {
        if (part.delta === undefined || part.delta === "") return [];
        this.reasoning += part.delta;
        return [
          new StreamingChunk({ reasoning: part.delta, ...this.#block("reasoning", part.id), componentInfo }),
        ];
      }
      case "tool-input-start": {
        if (part.providerExecuted === true || part.id === undefined) return [];
        const entry = this.#startCall(part.id, part.toolName ?? "");
        const block = this.#block("tool", part.id);
        return [
          new StreamingChunk({
            ...block,
            componentInfo,
            toolCalls: [{ index: entry.index, toolName: entry.call.toolName, id: part.id }],
          }),
        ];
      }
      case "tool-input-delta": {
        const entry = part.id === undefined ? undefined : this.#calls.get(part.id);
        if (entry === undefined || part.delta === undefined || part.delta === "") return [];
        entry.call = { ...entry.call, input: entry.call.input + part.delta };
        return [
          new StreamingChunk({
            ...this.#block("tool", part.id),
            componentInfo,
            toolCalls: [{ index: entry.index, arguments: part.delta }],
          }),
        ];
      }
      case "tool-call": {
        if (part.providerExecuted === true || part.toolCallId === undefined) return [];
        const known = this.#calls.get(part.toolCallId);
        if (known !== undefined) {
          // The final call is authoritative (some providers repair the streamed input).
          known.call = { ...known.call, input: part.input ?? known.call.input };
          return [];
        }
        // A provider that sends the call whole, without tool-input parts.
        const entry = this.#startCall(part.toolCallId, part.toolName ?? "");
        entry.call = { ...entry.call, input: part.input ?? "" };
        return [
          new StreamingChunk({
            ...this.#block("tool", part.toolCallId),
            componentInfo,
            toolCalls: [
              {
                index: entry.index,
                toolName: entry.call.toolName,
                id: part.toolCallId,
                arguments: entry.call.input,
              },
            ],
          }),
        ];
      }
      case "source":
        this.sources.push(part);
        return [];
      case "stream-start":
        this.warnings.push(...(part.warnings ?? []));
        return [];
      case "response-metadata":
        if (part.modelId !== undefined) this.modelId = part.modelId;
        if (part.id !== undefined) this.responseId = part.id;
        return [];
      case "finish": {
        this.finishReason = part.finishReason;
        this.usage = part.usage;
        const { finishReason, raw } = mapFinishReason(part.finishReason);
        return [
          new StreamingChunk({
            componentInfo,
            finishReason,
            meta: {
              ...(this.modelId === undefined ? {} : { model: this.modelId }),
              finish_reason: finishReason,
              usage: toUsage(part.usage),
              ...(raw === undefined ? {} : { raw_finish_reason: raw }),
            },
          }),
        ];
      }
      case "error":
        throw part.error instanceof Error
          ? part.error
          : new Error(
              `AISDKChatGenerator: the model's stream reported an error: ${JSON.stringify(part.error)}`,
            );
      default:
        // text-start/-end, reasoning-start/-end, tool-input-end, raw, file, ping: nothing to forward.
        return [];
    }
  }
}

/** Where streamed chunks go: the streaming callback, then the run's `emit`. */
export type ChunkSink = (chunk: StreamingChunk) => MaybePromise<unknown>;

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * One `doStream` call: each part becomes Junction chunks (text deltas, reasoning deltas, tool call deltas
 * with block ids mapped to integer indexes by first appearance, a last chunk with the finish reason and
 * usage) sent to every sink in order, awaited before the next part is read; then the reply is assembled as
 * the non-streaming path would have built it. An `error` part throws; aborting `signal` cancels the stream
 * and rejects with the signal's reason.
 *
 * @param model - the language model
 * @param options - the call options (with the run's signal)
 * @param sinks - the streaming callback and the run's `emit`
 * @param componentInfo - the emitting component
 * @param logger - receives warnings about malformed tool call input
 */
export async function streamReply(
  model: AISDKLanguageModel,
  options: CallOptions,
  sinks: readonly ChunkSink[],
  componentInfo: ComponentInfo,
  logger: Logger,
): Promise<ChatMessage> {
  const signal = options.abortSignal;
  const { stream } = (await (model.doStream as (options: CallOptions) => PromiseLike<unknown>)(options)) as {
    stream: ReadableStream<StreamPart>;
  };
  const reader = stream.getReader();
  const assembler = new StreamAssembler(componentInfo);
  const onAbort = () => {
    reader.cancel(abortReason(signal!)).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const { done, value } = await reader.read();
      if (signal?.aborted) throw abortReason(signal);
      if (done) break;
      for (const chunk of assembler.chunks(value)) for (const sink of sinks) await sink(chunk);
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    reader.releaseLock();
  }
  return toReply(
    {
      text: assembler.text,
      reasoning: assembler.reasoning,
      toolCalls: assembler.toolCalls,
      finishReason: assembler.finishReason,
      usage: assembler.usage,
      model: assembler.modelId ?? model.modelId,
      provider: model.provider,
      responseId: assembler.responseId,
      sources: assembler.sources,
      warnings: assembler.warnings,
    },
    logger,
  );
}
