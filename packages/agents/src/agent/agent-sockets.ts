import { chatMessageSchema, type StreamingCallback } from "@junction/llm";
import { z } from "zod";

/** The Agent's fixed sockets: run inputs every agent has, and the run metadata it always reports. */

/** The run inputs every Agent has. */
export const agentRunInputs = {
  /** The conversation so far (mandatory; may be empty when a `userPrompt` supplies the question). */
  messages: z.array(chatMessageSchema),
  /** Receives model and tool-result chunks for this run (overrides the `streamingCallback` option). */
  streaming_callback: z
    .custom<StreamingCallback>((value) => typeof value === "function", { message: "must be a function." })
    .optional(),
  /** Extra model options for this run (merged by the generator with its own). */
  generation_kwargs: z.record(z.string(), z.unknown()).optional(),
  /** Selects a subset of the configured tools by name for this run. */
  tools: z.array(z.string()).optional(),
};

/** The run metadata every Agent reports. */
export const agentMetadataOutputs = {
  messages: z.array(chatMessageSchema),
  last_message: chatMessageSchema,
  exit_reason: z.string(),
  step_count: z.number().int(),
  token_usage: z.record(z.string(), z.unknown()),
  tool_call_counts: z.record(z.string(), z.number()),
};
