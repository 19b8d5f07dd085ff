import { ComponentError, defineComponent, invokeComponent, isComponent } from "@junction/core";
import { z } from "zod";
import { ChatMessage } from "../messages/chat-message.js";
import { StreamingChunk } from "../streaming/streaming-chunk.js";
import { flattenTools } from "../tools/toolset.js";
import { appendEntry, cassetteRequest } from "./cassette.js";
import {
  type ChatGenerator,
  chatGeneratorInputs,
  chatGeneratorOutputs,
  isChatGenerator,
} from "./chat-generator.js";

const TYPE = "junction.RecordingChatGenerator";

const params = z.object({
  /** The chat generator to record (any: OpenAI, AI SDK, scripted, your own). */
  generator: z.custom<ChatGenerator>(isChatGenerator, {
    message:
      "expected a chat generator component (messages/tools/generation_kwargs/streaming_callback → replies)",
  }),
  /** The cassette file (JSONL); entries are appended. */
  cassette: z.string().min(1),
});

/**
 * Wraps any chat generator and appends each call to a JSONL **cassette**: the request (messages without
 * metadata, the tools passed to the run, the run's `generation_kwargs` — credentials and headers
 * removed), its fingerprint, the replies and, when the call streamed, every chunk. (The wrapped
 * generator's own settings are its business: they are not part of the request.) The wrapped generator runs as usual and its replies,
 * chunks, errors and cancellation pass through unchanged; failed calls are not recorded.
 *
 * Record a real-model run once, then replay it offline and exactly with {@link ReplayChatGenerator}.
 *
 * @example
 * ```ts
 * const llm = new RecordingChatGenerator({ generator: new OpenAIChatGenerator(), cassette: "test/cassettes/tip.jsonl" });
 * ```
 */
export const RecordingChatGenerator = defineComponent({
  type: TYPE,
  description: "Records the calls of a chat generator to a JSONL cassette.",
  params,
  inputs: chatGeneratorInputs,
  outputs: chatGeneratorOutputs,
  warmUp: async ({ params: p }) => {
    await p.generator.warmUp();
  },
  run: async (inputs, context) => {
    const { generator, cassette } = context.params;
    const chunks: StreamingChunk[] = [];
    let streamed = false;
    const result = await invokeComponent(
      generator,
      { ...inputs },
      {
        signal: context.signal,
        tracer: context.tracer,
        span: context.span,
        logger: context.logger,
        componentName: context.componentName,
        onEmit: (payload) => {
          if (payload instanceof StreamingChunk) {
            streamed = true;
            chunks.push(payload);
          }
          return context.emit(payload);
        },
      },
    );
    const replies = result.replies;
    if (!Array.isArray(replies) || !replies.every((reply) => reply instanceof ChatMessage))
      throw new ComponentError(
        `RecordingChatGenerator: the generator "${generator.type}" did not return { replies: ChatMessage[] }.`,
        {
          componentType: TYPE,
        },
      );
    const request = cassetteRequest(
      inputs.messages,
      flattenTools(inputs.tools),
      inputs.generation_kwargs ?? {},
    );
    appendEntry(cassette, request, replies, streamed ? chunks : undefined, generator.type);
    return { replies };
  },
  serializer: {
    toInitParameters: (value, context) => ({
      generator: context.serializeComponent(value.generator, "generator"),
      cassette: value.cassette,
    }),
    fromInitParameters: (init, context) => ({
      ...init,
      generator: isComponent(init.generator)
        ? init.generator
        : context.deserializeComponent(init.generator, "generator"),
    }),
  },
});
