import { documentEmbedderParamsShape, textEmbedderParamsShape } from "@junction/documents";
import { z } from "zod";
import { type AISDKEmbeddingModel, checkEmbeddingModel } from "./embedding-model.js";

/**
 * Makes an embedding model from its id — e.g. `openai.embedding` from `"@ai-sdk/openai"`. Register it by
 * name (`registry.registerFunction("openai.embedding", openai.embedding)`) and pass it as `modelFactory`;
 * a saved pipeline then names the factory and the model id, never code.
 */
export type EmbeddingModelFactory = (modelId: string) => AISDKEmbeddingModel;

function modelSchema(label: string) {
  return z.custom<AISDKEmbeddingModel>().superRefine((value, context) => {
    try {
      checkEmbeddingModel(value, label);
    } catch (error) {
      context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
    }
  });
}

function modelShape(label: string) {
  return {
    /** An AI SDK embedding model (specification v2, v3 or v4), e.g. `openai.embedding("text-embedding-3-small")`. */
    model: modelSchema(label),
    /** The registered function that made `model` from its id; needed only to save the embedder. */
    modelFactory: z
      .custom<EmbeddingModelFactory>((value) => typeof value === "function", {
        message: "expected a function (modelId) => embedding model",
      })
      .optional(),
    /** Provider options sent with every call, by provider (`{ openai: { dimensions: 256 } }`). */
    providerOptions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  };
}

/** The params of `AISDKTextEmbedder`: `model`, `modelFactory`, `providerOptions`, `prefix`, `suffix`. */
export const aiSDKTextEmbedderParamsSchema = z.object({
  ...modelShape("AISDKTextEmbedder"),
  ...textEmbedderParamsShape,
});

/** What `new AISDKTextEmbedder(...)` accepts. */
export type AISDKTextEmbedderOptions = z.input<typeof aiSDKTextEmbedderParamsSchema>;

/** The validated params of an `AISDKTextEmbedder`. */
export type AISDKTextEmbedderParams = z.output<typeof aiSDKTextEmbedderParamsSchema>;

/**
 * The params of `AISDKDocumentEmbedder`: the text embedder's, plus `batchSize` (capped by the model's
 * `maxEmbeddingsPerCall`), `metaFieldsToEmbed`, `embeddingSeparator` and `raiseOnFailure`.
 */
export const aiSDKDocumentEmbedderParamsSchema = z.object({
  ...modelShape("AISDKDocumentEmbedder"),
  ...documentEmbedderParamsShape,
});

/** What `new AISDKDocumentEmbedder(...)` accepts. */
export type AISDKDocumentEmbedderOptions = z.input<typeof aiSDKDocumentEmbedderParamsSchema>;

/** The validated params of an `AISDKDocumentEmbedder`. */
export type AISDKDocumentEmbedderParams = z.output<typeof aiSDKDocumentEmbedderParamsSchema>;
