import { ComponentError, defineComponent } from "@junction/core";
import { z } from "zod";
import { ChatMessage } from "../messages/chat-message.js";
import { StreamingChunk } from "../streaming/streaming-chunk.js";
import { flattenTools } from "../tools/toolset.js";
import {
  type CassetteEntry,
  cassetteRequest,
  diffJSON,
  distance,
  fingerprint,
  readCassette,
} from "./cassette.js";
import { chatGeneratorInputs, chatGeneratorOutputs } from "./chat-generator.js";
import { traceChatCall } from "./chat-span.js";

const TYPE = "junction.ReplayChatGenerator";

const params = z.object({
  /** The cassette file written by `RecordingChatGenerator`. */
  cassette: z.string().min(1),
});

interface Loaded {
  entries: CassetteEntry[] | undefined;
  /** How many times each fingerprint was replayed, so repeated requests replay in recorded order. */
  used: Map<string, number>;
}

function unseen(
  path: string,
  entries: readonly CassetteEntry[],
  request: ReturnType<typeof cassetteRequest>,
): never {
  let closest: { entry: CassetteEntry; line: number; score: number } | undefined;
  entries.forEach((entry, index) => {
    const score = distance(entry.request, request);
    if (closest === undefined || score < closest.score) closest = { entry, line: index + 1, score };
  });
  const detail =
    closest === undefined
      ? `The cassette ${path} has no recordings.`
      : `The closest recorded request (line ${closest.line}) differs in:\n${diffJSON(closest.entry.request, request).join("\n")}`;
  throw new ComponentError(
    `ReplayChatGenerator: no recorded reply for this request (fingerprint ${fingerprint(request).slice(0, 12)}). ${detail}\nIf the change is intended, record again with RecordingChatGenerator (delete ${path} first).`,
    { componentType: TYPE },
  );
}

/**
 * Replays a cassette written by `RecordingChatGenerator`, offline: each request is matched by its
 * fingerprint (messages, tool specs, the run's generation kwargs) and answered with the recorded replies —
 * streamed again chunk by chunk when the recording streamed and a callback or `Pipeline.stream` listens.
 * A request that appears several times replays its recordings in order (then the last one again).
 *
 * A request the cassette has not seen fails with a `ComponentError` that shows how it differs from the
 * closest recorded request, so a changed prompt or tool is found at once.
 *
 * @example
 * ```ts
 * const llm = new ReplayChatGenerator({ cassette: "test/cassettes/tip.jsonl" });
 * const agent = new Agent({ chatGenerator: llm, tools });
 * ```
 */
export const ReplayChatGenerator = defineComponent({
  type: TYPE,
  description: "Replays recorded chat generator calls from a JSONL cassette (offline, deterministic).",
  params,
  inputs: chatGeneratorInputs,
  outputs: chatGeneratorOutputs,
  setup: (): Loaded => ({ entries: undefined, used: new Map() }),
  warmUp: ({ params: p, resources }) => {
    resources.entries ??= readCassette(p.cassette);
  },
  close: ({ resources }) => {
    resources.entries = undefined;
    resources.used.clear();
  },
  run: async (inputs, context) => {
    const { params: p, resources, signal } = context;
    signal?.throwIfAborted();
    resources.entries ??= readCassette(p.cassette);
    const entries = resources.entries;
    const tools = flattenTools(inputs.tools);
    const request = cassetteRequest(inputs.messages, tools, inputs.generation_kwargs ?? {});
    const key = fingerprint(request);
    const matches = entries.filter((entry) => entry.fingerprint === key);
    if (matches.length === 0) unseen(p.cassette, entries, request);
    const count = resources.used.get(key) ?? 0;
    resources.used.set(key, count + 1);
    const entry = matches[Math.min(count, matches.length - 1)]!;
    const replies = entry.replies.map((reply) => ChatMessage.fromJSON(reply));
    const model = typeof replies[0]?.meta.model === "string" ? replies[0].meta.model : "replay";
    return {
      replies: await traceChatCall(
        context,
        {
          model,
          provider: "replay",
          messages: inputs.messages,
          tools,
          generationKwargs: inputs.generation_kwargs,
        },
        async () => {
          if (entry.chunks !== null) {
            const componentInfo =
              context.componentName === undefined
                ? { type: TYPE }
                : { type: TYPE, name: context.componentName };
            for (const json of entry.chunks) {
              signal?.throwIfAborted();
              const recorded = StreamingChunk.fromJSON(json);
              const chunk = new StreamingChunk({
                content: recorded.content,
                meta: recorded.meta,
                componentInfo,
                index: recorded.index,
                toolCalls: recorded.toolCalls,
                toolCallResult: recorded.toolCallResult,
                start: recorded.start,
                finishReason: recorded.finishReason,
                reasoning: recorded.reasoning,
              });
              await inputs.streaming_callback?.(chunk);
              await context.emit(chunk);
            }
          }
          return replies;
        },
      ),
    };
  },
});
