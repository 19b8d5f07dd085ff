/**
 * Builders of scripted OpenAI responses (completions, SSE chunks, usage, errors) for the fake server.
 */
import type { ErrorReply, JsonReply, StreamReply } from "./fake-openai-server.js";

/** The fixed `created` timestamp of scripted completions. */
export const CREATED = 1_700_000_000;

/** Options of {@link completion}. */
export interface CompletionOptions {
  readonly content?: string | null;
  readonly toolCalls?: readonly { id: string; name: string; arguments: string }[];
  readonly finishReason?: string;
  readonly model?: string;
  readonly usage?: Record<string, unknown> | null;
  /** Extra choices (for `n > 1`): texts of further choices. */
  readonly extraChoices?: readonly string[];
}

/** A usage record with details, as OpenAI sends it. */
export function usage(prompt: number, completionTokens: number): Record<string, unknown> {
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };
}

/** Builds a non-streaming chat completion reply. */
export function completion(options: CompletionOptions = {}): JsonReply {
  const model = options.model ?? "gpt-test";
  const toolCalls = options.toolCalls?.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const first = {
    index: 0,
    message: {
      role: "assistant",
      content: options.content === undefined ? "Hello!" : options.content,
      refusal: null,
      ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
    },
    logprobs: null,
    finish_reason: options.finishReason ?? (toolCalls === undefined ? "stop" : "tool_calls"),
  };
  const extra = (options.extraChoices ?? []).map((text, index) => ({
    index: index + 1,
    message: { role: "assistant", content: text, refusal: null },
    logprobs: null,
    finish_reason: "stop",
  }));
  return {
    kind: "json",
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: CREATED,
      model,
      choices: [first, ...extra],
      usage: options.usage === undefined ? usage(10, 5) : options.usage,
    },
  };
}

/** One streaming chunk with a single choice. */
export function chunk(
  delta: Record<string, unknown>,
  options: { finishReason?: string | null; model?: string } = {},
): Record<string, unknown> {
  return {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: CREATED,
    model: options.model ?? "gpt-test",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: options.finishReason ?? null }],
  };
}

/** The final usage chunk (`stream_options.include_usage`): no choices, only usage. */
export function usageChunk(
  value: Record<string, unknown> = usage(10, 5),
  model = "gpt-test",
): Record<string, unknown> {
  return {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: CREATED,
    model,
    choices: [],
    usage: value,
  };
}

/** A stream of text deltas, a finish chunk and a usage chunk. */
export function textStream(
  pieces: readonly string[],
  options: { finishReason?: string; usage?: Record<string, unknown>; delayMs?: number; hang?: boolean } = {},
): StreamReply {
  const events: unknown[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of pieces) events.push(chunk({ content: piece }));
  if (options.hang === true) {
    return {
      kind: "stream",
      events,
      hang: true,
      ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
    };
  }
  events.push(chunk({}, { finishReason: options.finishReason ?? "stop" }));
  events.push(usageChunk(options.usage ?? usage(10, pieces.length)));
  return { kind: "stream", events, ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }) };
}

/** A fast-retry error (the SDK honours `retry-after-ms`). */
export function errorReply(status: number, message = `scripted error ${status}`): ErrorReply {
  return { kind: "error", status, message, headers: { "retry-after-ms": "1" } };
}
