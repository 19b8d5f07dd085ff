import { defineComponent } from "@junction/core";
import {
  chatGeneratorInputs,
  chatGeneratorOutputs,
  flattenTools,
  responseFormatInputs,
  traceChatCall,
} from "@junction/llm";
import { z } from "zod";
import { buildRequest } from "./build-request.js";
import { createClient, type ResolvedClient } from "./create-client.js";
import { openAIChatGeneratorParamsSchema } from "./openai-chat-generator-params.js";
import { openAIChatGeneratorSerializer } from "./openai-chat-generator-serializer.js";
import { runChatCompletion } from "./run-chat-completion.js";

const TYPE = "junction.OpenAIChatGenerator";

interface ClientHolder {
  current: ResolvedClient | undefined;
}

/**
 * Chat completions with OpenAI models, or any OpenAI-compatible server (Ollama, vLLM, llama.cpp server,
 * LM Studio, ...) through `baseURL` / `OPENAI_BASE_URL`. Implements the `ChatGenerator` contract:
 * `run({ messages, tools?, generation_kwargs?, streaming_callback?, tools_strict?, response_format? }) → { replies }`.
 *
 * - It declares the `response_format` input of the contract (JSON-schema replies): a run's
 *   `response_format` wins over a `response_format` generation kwarg and the `responseFormat` param, and
 *   with `strict: true` its schema is sent strict (closed objects, every property required).
 * - Each reply's `meta` holds `model`, `index`, `finish_reason` and `usage` (with its details).
 * - `generation_kwargs` are merged per key over `generationKwargs`; run-time `tools` replace the params' tools.
 * - With a streaming callback (param or input) the reply streams over SSE: every `StreamingChunk` goes to
 *   the callback and to `Pipeline.stream`, and the final reply is assembled from the chunks.
 * - Tool call arguments that are not valid JSON are kept: `arguments: {}` plus
 *   `extra.malformed_arguments` (the raw text) and `extra.arguments_error`, with a logged warning.
 * - Failures are `OpenAIApiError`s with the HTTP status and a redacted message; 429 and 5xx are retried
 *   up to `maxRetries`; aborting `signal` cancels the request or stream and rejects with its reason.
 *
 * @example
 * ```ts
 * const llm = new OpenAIChatGenerator({ model: "gpt-5-mini", generationKwargs: { temperature: 0 } });
 * const { replies } = await llm.run({ messages: [ChatMessage.fromUser("What is NLP?")] });
 * replies[0]?.text;
 * ```
 */
export const OpenAIChatGenerator = defineComponent({
  type: TYPE,
  description: "Generates chat replies with an OpenAI model or any OpenAI-compatible server.",
  params: openAIChatGeneratorParamsSchema,
  inputs: { ...chatGeneratorInputs, ...responseFormatInputs, tools_strict: z.boolean().optional() },
  outputs: chatGeneratorOutputs,
  setup: (): ClientHolder => ({ current: undefined }),
  warmUp: async ({ params, resources }) => {
    if (resources.current === undefined) resources.current = createClient(params);
    for (const tool of flattenTools(params.tools)) await tool.warmUp();
  },
  close: ({ resources }) => {
    resources.current = undefined;
  },
  serializer: openAIChatGeneratorSerializer,
  run: async (inputs, context) => {
    const { params, resources } = context;
    if (inputs.messages.length === 0) return { replies: [] };
    const resolved = resources.current ?? createClient(params);
    resources.current = resolved;
    const callback = inputs.streaming_callback ?? params.streamingCallback;
    const { body, streamRequested } = buildRequest(
      {
        model: params.model,
        messages: inputs.messages,
        initKwargs: params.generationKwargs,
        runKwargs: inputs.generation_kwargs,
        tools: flattenTools(inputs.tools ?? params.tools),
        toolsStrict: inputs.tools_strict ?? params.toolsStrict,
        responseFormat: params.responseFormat,
        runResponseFormat: inputs.response_format,
      },
      callback !== undefined,
    );
    const streaming = callback !== undefined || streamRequested;
    const call = () =>
      runChatCompletion({
        client: resolved.client,
        body,
        stream: streaming
          ? {
              callback,
              emit: context.emit,
              componentInfo:
                context.componentName === undefined
                  ? { type: TYPE }
                  : { type: TYPE, name: context.componentName },
            }
          : undefined,
        signal: context.signal,
        logger: context.logger,
        errorContext: {
          apiKey: resolved.apiKey,
          baseURL: resolved.baseURL,
          model: String(body.model),
          maxRetries: resolved.maxRetries,
        },
      });
    const replies = await traceChatCall(
      context,
      {
        model: String(body.model),
        provider: "openai",
        messages: inputs.messages,
        tools: flattenTools(inputs.tools ?? params.tools),
        generationKwargs: { ...params.generationKwargs, ...(inputs.generation_kwargs ?? {}) },
      },
      call,
    );
    return { replies };
  },
});

/** An `OpenAIChatGenerator` instance (the class doubles as the instance type: `function f(x: OpenAIChatGenerator)`). */
export type OpenAIChatGenerator = InstanceType<typeof OpenAIChatGenerator>;
