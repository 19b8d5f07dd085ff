import { type Component, defineNamedType, isComponent } from "@junction/core";
import { z } from "zod";
import { type ChatMessage, chatMessageSchema } from "../messages/chat-message.js";
import type { StreamingCallback } from "../streaming/streaming-chunk.js";
import { isTool } from "../tools/tool.js";
import { Toolset, type ToolsInput } from "../tools/toolset.js";

function isToolsInput(value: unknown): value is ToolsInput {
  if (value instanceof Toolset) return true;
  return Array.isArray(value) && value.every((item) => isTool(item) || item instanceof Toolset);
}

/**
 * The named socket type `"Tools"`: a {@link Toolset} or a list of tools and toolsets (what chat
 * generators and agents take as `tools`).
 */
export const toolsSchema = defineNamedType(
  "Tools",
  z.custom<ToolsInput>(isToolsInput, { message: "expected a Toolset or a list of tools and toolsets" }),
);

/** The named socket type `"StreamingCallback"`: a function receiving each {@link StreamingChunk}. */
export const streamingCallbackSchema = defineNamedType(
  "StreamingCallback",
  z.custom<StreamingCallback>((value) => typeof value === "function", {
    message: "expected a streaming callback function",
  }),
);

/**
 * The input sockets every chat generator declares (spread them into your `inputs`):
 * `messages` (mandatory), and optional `tools`, `generation_kwargs` and `streaming_callback`.
 *
 * @example
 * ```ts
 * defineComponent({ type: "myapp.MyGenerator", inputs: chatGeneratorInputs, outputs: chatGeneratorOutputs, run });
 * ```
 */
export const chatGeneratorInputs = {
  messages: z.array(chatMessageSchema),
  tools: toolsSchema.optional(),
  generation_kwargs: z.record(z.string(), z.unknown()).optional(),
  streaming_callback: streamingCallbackSchema.optional(),
};

/** The output sockets every chat generator declares: `replies`, whose `meta` carries `usage` and `finish_reason`. */
export const chatGeneratorOutputs = {
  replies: z.array(chatMessageSchema),
};

/** The input socket declarations of a chat generator. */
export type ChatGeneratorInputs = typeof chatGeneratorInputs;
/** The output socket declarations of a chat generator. */
export type ChatGeneratorOutputs = typeof chatGeneratorOutputs;

/**
 * The contract a model adapter implements: a component with the {@link chatGeneratorInputs} sockets
 * (it may add more optional ones) and a `replies` output.
 */
export type ChatGenerator = Component<ChatGeneratorInputs, ChatGeneratorOutputs, any>;

/** The inputs a chat generator's `run` receives. */
export interface ChatGeneratorRunInputs {
  /** The conversation. */
  readonly messages: readonly ChatMessage[];
  /** Tools the model may call. */
  readonly tools?: ToolsInput | undefined;
  /** Provider options for this call (temperature, max tokens, ...). */
  readonly generation_kwargs?: Readonly<Record<string, unknown>> | undefined;
  /** Receives streaming chunks. */
  readonly streaming_callback?: StreamingCallback | undefined;
}

/**
 * True when `value` is a component that fulfils the chat generator contract: input sockets
 * `messages`, `tools`, `generation_kwargs`, `streaming_callback` and an output `replies`.
 *
 * @param value - anything
 */
export function isChatGenerator(value: unknown): value is ChatGenerator {
  if (!isComponent(value)) return false;
  const inputs = value.inputSockets as Readonly<Record<string, unknown>>;
  return (
    Object.hasOwn(inputs, "messages") &&
    Object.hasOwn(inputs, "tools") &&
    Object.hasOwn(inputs, "generation_kwargs") &&
    Object.hasOwn(inputs, "streaming_callback") &&
    Object.hasOwn(value.outputSockets as object, "replies")
  );
}
