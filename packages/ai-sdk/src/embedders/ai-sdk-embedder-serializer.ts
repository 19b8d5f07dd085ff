import { type ComponentSerializer, SerializationError } from "@junction/core";
import { modelSpecToJSON, readModelSpec } from "../model-spec.js";
import type { EmbeddingModelFactory } from "./ai-sdk-embedder-params.js";
import { type AISDKEmbeddingModel, isAISDKEmbeddingModel } from "./embedding-model.js";

/** The params every AI SDK embedder has that need care when written. */
interface ModelParams {
  readonly model: AISDKEmbeddingModel;
  readonly modelFactory?: EmbeddingModelFactory | undefined;
}

/**
 * The serializer of the AI SDK embedders, as `AISDKChatGenerator`'s: the model is written as
 * `{ factory, modelId }` — the registered name of `modelFactory` and the model's id — so a saved pipeline
 * holds no code and no credentials; reading calls the registered factory with the id. The other params
 * are plain JSON.
 *
 * @param label - the component, e.g. `"AISDKDocumentEmbedder"`
 */
export function aiSDKEmbedderSerializer<TParams extends ModelParams>(
  label: string,
): ComponentSerializer<TParams> {
  return {
    toInitParameters(params, context) {
      const { model, modelFactory, ...rest } = params;
      if (modelFactory === undefined) {
        throw new SerializationError(
          `${label}: the model "${model.provider}/${model.modelId}" cannot be saved: a model object is code, and documents hold no code. Register the function that made it and pass it as \`modelFactory\`: registry.registerFunction("openai.embedding", openai.embedding); new ${label}({ model: openai.embedding("${model.modelId}"), modelFactory: openai.embedding }).`,
          { componentType: `junction.${label}` },
        );
      }
      return {
        model: modelSpecToJSON(modelFactory, model.modelId, context),
        ...(context.serializeValue(rest, []) as Record<string, unknown>),
      };
    },
    fromInitParameters(initParameters, context) {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(initParameters)) if (value !== null) out[key] = value;
      readModelSpec(out, context, { kind: "embedding", isModel: isAISDKEmbeddingModel });
      return out;
    },
  };
}
