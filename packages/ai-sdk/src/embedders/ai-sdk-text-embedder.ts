import { ComponentError, defineComponent } from "@junction/core";
import { textEmbedderInputs, textEmbedderOutputs } from "@junction/documents";
import { aiSDKTextEmbedderParamsSchema } from "./ai-sdk-embedder-params.js";
import { aiSDKEmbedderSerializer } from "./ai-sdk-embedder-serializer.js";
import { embedValues } from "./embed-values.js";

const TYPE = "junction.AISDKTextEmbedder";
const LABEL = "AISDKTextEmbedder";

/**
 * Embeds one string with any AI SDK embedding model (specification v2, v3 or v4 — `@ai-sdk/openai`,
 * `@ai-sdk/google`, `@ai-sdk/mistral`, `ollama-ai-provider`, ...): `run({ text }) → { embedding, meta: {
 * model, usage: { prompt_tokens, total_tokens } } }`, the same contract as `OpenAITextEmbedder`.
 *
 * - The text sent is `prefix + text + suffix`; `providerOptions` go with every call.
 * - `meta.model` is the model's id; `usage` counts the tokens the provider reports (0 when it reports none).
 * - The run's `signal` is the call's `abortSignal`. Saving needs `modelFactory` (see `AISDKChatGenerator`).
 *
 * @example
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * const embedder = new AISDKTextEmbedder({ model: openai.embedding("text-embedding-3-small") });
 * const { embedding } = await embedder.run({ text: "What is the capital of France?" });
 * ```
 */
export const AISDKTextEmbedder = defineComponent({
  type: TYPE,
  description: "Embeds a string with any AI SDK embedding model.",
  params: aiSDKTextEmbedderParamsSchema,
  inputs: textEmbedderInputs(LABEL, "AISDKDocumentEmbedder"),
  outputs: textEmbedderOutputs,
  serializer: aiSDKEmbedderSerializer(LABEL),
  run: async ({ text }, context) => {
    const { params } = context;
    if (typeof text !== "string") {
      throw new ComponentError(
        `${LABEL} expects a string as \`text\`, got ${Array.isArray(text) ? "a list" : typeof text}. To embed a list of documents, use AISDKDocumentEmbedder.`,
        { componentType: TYPE, componentName: context.componentName, socket: "text" },
      );
    }
    const result = await embedValues({
      model: params.model,
      values: [params.prefix + text + params.suffix],
      providerOptions: params.providerOptions,
      signal: context.signal,
    });
    const embedding = result.embeddings[0];
    if (embedding === undefined) {
      throw new ComponentError(
        `${LABEL}: the model "${params.model.provider}/${params.model.modelId}" returned no embedding. Check the provider and the model id.`,
        { componentType: TYPE, componentName: context.componentName },
      );
    }
    return {
      embedding: [...embedding],
      meta: {
        model: params.model.modelId,
        usage: result.usage ?? { prompt_tokens: 0, total_tokens: 0 },
      },
    };
  },
});

/** An `AISDKTextEmbedder` instance. */
export type AISDKTextEmbedder = InstanceType<typeof AISDKTextEmbedder>;
