import { noopTracer, type Span, type Tracer } from "@junction/core";
import type { ChatMessage } from "../messages/chat-message.js";
import type { AnyTool } from "../tools/tool.js";

/** What {@link traceChatCall} records about a request. */
export interface ChatCallRequest {
  /** The model asked for, e.g. `"gpt-5-mini"`. */
  readonly model: string;
  /** The provider, in the GenAI conventions' terms where one fits (`"openai"`, `"anthropic"`, ...). */
  readonly provider: string;
  /** The conversation sent (recorded as `gen_ai.input.messages`; tracers decide whether to keep content). */
  readonly messages: readonly ChatMessage[];
  /** The tools offered. */
  readonly tools?: readonly AnyTool[] | undefined;
  /** The merged generation kwargs. */
  readonly generationKwargs?: Readonly<Record<string, unknown>> | undefined;
}

const requestTags: Readonly<Record<string, string>> = {
  temperature: "gen_ai.request.temperature",
  top_p: "gen_ai.request.top_p",
  top_k: "gen_ai.request.top_k",
  max_tokens: "gen_ai.request.max_tokens",
  max_completion_tokens: "gen_ai.request.max_tokens",
  seed: "gen_ai.request.seed",
  stop: "gen_ai.request.stop_sequences",
  presence_penalty: "gen_ai.request.presence_penalty",
  frequency_penalty: "gen_ai.request.frequency_penalty",
};

function startTags(request: ChatCallRequest): Record<string, unknown> {
  const tags: Record<string, unknown> = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": request.provider,
    "gen_ai.request.model": request.model,
    "gen_ai.input.messages": request.messages,
  };
  for (const [key, value] of Object.entries(request.generationKwargs ?? {})) {
    const tag = requestTags[key];
    if (tag !== undefined && value !== undefined) tags[tag] = value;
  }
  if (request.tools !== undefined && request.tools.length > 0)
    tags["gen_ai.tool.definitions"] = request.tools.map((tool) => tool.spec);
  return tags;
}

function endTags(span: Span, replies: readonly ChatMessage[]): void {
  const first = replies[0];
  if (first?.meta.model !== undefined) span.setTag("gen_ai.response.model", first.meta.model);
  if (typeof first?.meta.id === "string") span.setTag("gen_ai.response.id", first.meta.id);
  span.setTag(
    "gen_ai.response.finish_reasons",
    replies.map((reply) => String(reply.meta.finish_reason ?? "unknown")),
  );
  let input = 0;
  let output = 0;
  let cached: number | undefined;
  for (const reply of replies) {
    const usage = reply.meta.usage;
    if (usage == null) continue;
    input += usage.prompt_tokens;
    output += usage.completion_tokens;
    const read = usage.prompt_tokens_details?.cached_tokens;
    if (typeof read === "number") cached = (cached ?? 0) + read;
  }
  if (replies.some((reply) => reply.meta.usage != null)) {
    span.setTag("gen_ai.usage.input_tokens", input);
    span.setTag("gen_ai.usage.output_tokens", output);
    if (cached !== undefined) span.setTag("gen_ai.usage.cache_read.input_tokens", cached);
  }
  span.setTag("gen_ai.output.messages", replies);
}

/**
 * Records one model call as a `junction.chat` span under the component's span, with the GenAI semantic
 * conventions' tags: `gen_ai.operation.name` (`"chat"`), `gen_ai.provider.name`, `gen_ai.request.model`
 * and request settings; after the call `gen_ai.response.model`, `gen_ai.response.finish_reasons`,
 * `gen_ai.usage.input_tokens` / `output_tokens` / `cache_read.input_tokens`. Messages go in
 * `gen_ai.input.messages` / `gen_ai.output.messages` as `ChatMessage`s; a tracer decides whether content is
 * kept (the OpenTelemetry tracer drops it unless content capture is on). A failure sets `error` and
 * `error.type`. Every chat generator calls this once per model call, so each call is one span.
 *
 * @param context - the run context's `tracer` and `span`
 * @param request - model, provider, messages, tools and kwargs
 * @param call - makes the call and returns the replies
 * @example
 * ```ts
 * const replies = await traceChatCall(context, { model, provider: "openai", messages }, () => send(messages));
 * ```
 */
export async function traceChatCall(
  context: { readonly tracer: Tracer; readonly span: Span | undefined },
  request: ChatCallRequest,
  call: () => Promise<ChatMessage[]>,
): Promise<ChatMessage[]> {
  // Nobody records spans: no tags are built (they copy the conversation and the tool specs).
  if (context.tracer === noopTracer) return call();
  const span = context.tracer.startSpan("junction.chat", startTags(request), context.span);
  try {
    const replies = await call();
    endTags(span, replies);
    return replies;
  } catch (error) {
    span.setTag("error", true);
    span.setTag("error.type", errorType(error));
    throw error;
  } finally {
    span.end();
  }
}

/** The `error.type` of a failure: the error's class name (`"OpenAIApiError"`, `"AbortError"`, ...). */
export function errorType(error: unknown): string {
  if (error instanceof Error) return error.name === "Error" ? error.constructor.name : error.name;
  return typeof error;
}
