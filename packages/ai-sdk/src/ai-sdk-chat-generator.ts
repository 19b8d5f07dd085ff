import { defineComponent } from "@junction/core";
import {
  chatGeneratorInputs,
  chatGeneratorOutputs,
  flattenTools,
  type StreamingChunk,
  traceChatCall,
} from "@junction/llm";
import { aiSDKChatGeneratorParamsSchema } from "./ai-sdk-chat-generator-params.js";
import { aiSDKChatGeneratorSerializer } from "./ai-sdk-chat-generator-serializer.js";
import { buildCallOptions, providerKey } from "./call-options.js";
import { generateReply } from "./generate-reply.js";
import { type ChunkSink, streamReply } from "./stream-reply.js";

const TYPE = "junction.AISDKChatGenerator";

/**
 * Any AI SDK language model (specification v2, v3 or v4 — `@ai-sdk/openai`, `@ai-sdk/anthropic`,
 * `@ai-sdk/google`, `ollama-ai-provider`, ... 40+ providers) as a Junction chat generator, with the
 * standard sockets: `run({ messages, tools?, generation_kwargs?, streaming_callback? }) → { replies }`.
 *
 * - Messages, tools (JSON Schema), tool calls and results, reasoning and images are converted in one
 *   place each; known `generation_kwargs` become call options, the rest go to `providerOptions`.
 * - The reply's `meta` has `model`, `provider`, `finish_reason` (Junction's values; the model's own in
 *   `raw_finish_reason` when it has no equivalent) and `usage` in Junction's names.
 * - With a streaming callback (param or input) the model streams: each part becomes a `StreamingChunk`
 *   for the callback and `Pipeline.stream`; the reply is the same as without streaming.
 * - The run's `signal` is the call's `abortSignal`; aborting rejects with the signal's reason.
 * - Saving needs `modelFactory`: the document names the registered factory and the model id.
 *
 * @example
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * const llm = new AISDKChatGenerator({ model: openai("gpt-5-mini"), modelFactory: openai });
 * const { replies } = await llm.run({ messages: [ChatMessage.fromUser("What is NLP?")] });
 * ```
 */
export const AISDKChatGenerator = defineComponent({
  type: TYPE,
  description: "Generates chat replies with any AI SDK language model (specification v2, v3 or v4).",
  params: aiSDKChatGeneratorParamsSchema,
  inputs: chatGeneratorInputs,
  outputs: chatGeneratorOutputs,
  warmUp: async ({ params }) => {
    for (const tool of flattenTools(params.tools)) await tool.warmUp();
  },
  serializer: aiSDKChatGeneratorSerializer,
  run: async (inputs, context) => {
    const { params, signal } = context;
    if (inputs.messages.length === 0) return { replies: [] };
    signal?.throwIfAborted();
    const tools = flattenTools(inputs.tools ?? params.tools);
    const generationKwargs = { ...params.generationKwargs, ...(inputs.generation_kwargs ?? {}) };
    const options = buildCallOptions({
      messages: inputs.messages,
      tools,
      generationKwargs,
      provider: params.model.provider,
      signal,
    });
    const callback = inputs.streaming_callback ?? params.streamingCallback;
    const call = async () => {
      if (callback === undefined) return [await generateReply(params.model, options, context.logger)];
      const sinks: ChunkSink[] = [callback, (chunk: StreamingChunk) => context.emit(chunk)];
      const componentInfo =
        context.componentName === undefined ? { type: TYPE } : { type: TYPE, name: context.componentName };
      return [await streamReply(params.model, options, sinks, componentInfo, context.logger)];
    };
    const request = {
      model: params.model.modelId,
      provider: providerKey(params.model.provider),
      messages: inputs.messages,
      tools,
      generationKwargs,
    };
    try {
      return { replies: await traceChatCall(context, request, call) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  },
});
