import { streamingCallbackSchema, toolsSchema } from "@junction/llm";
import { z } from "zod";
import { type AISDKLanguageModel, checkLanguageModel } from "./language-model.js";

/**
 * Makes a language model from its id — an AI SDK provider such as `openai` from `"@ai-sdk/openai"` is one.
 * Register it by name (`registry.registerFunction("openai", openai)`) and pass it as `modelFactory`; a saved
 * pipeline then names the factory and the model id, never code.
 */
export type ModelFactory = (modelId: string) => AISDKLanguageModel;

const modelSchema = z.custom<AISDKLanguageModel>().superRefine((value, context) => {
  try {
    checkLanguageModel(value);
  } catch (error) {
    context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
  }
});

/** The params of {@link AISDKChatGenerator}. */
export const aiSDKChatGeneratorParamsSchema = z.object({
  /** An AI SDK language model (specification v2, v3 or v4), e.g. `openai("gpt-5-mini")`. */
  model: modelSchema,
  /** The registered function that made `model` from its id; needed only to save the generator. */
  modelFactory: z
    .custom<ModelFactory>((value) => typeof value === "function", {
      message: "expected a function (modelId) => language model",
    })
    .optional(),
  /** Call settings sent with every call (`temperature`, `max_tokens`, `top_p`, `stop`, `seed`, provider options, ...). */
  generationKwargs: z.record(z.string(), z.unknown()).default({}),
  /** Tools the model may call (a run's `tools` input replaces them). */
  tools: toolsSchema.optional(),
  /** Called with every streamed chunk; its presence turns streaming on. Serialized by registered name. */
  streamingCallback: streamingCallbackSchema.optional(),
});

/** What `new AISDKChatGenerator(...)` accepts. */
export type AISDKChatGeneratorOptions = z.input<typeof aiSDKChatGeneratorParamsSchema>;

/** The validated params of an {@link AISDKChatGenerator}. */
export type AISDKChatGeneratorParams = z.output<typeof aiSDKChatGeneratorParamsSchema>;
