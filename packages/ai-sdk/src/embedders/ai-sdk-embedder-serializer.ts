import { type ComponentSerializer, type Issue, SerializationError } from "@junction/core";
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
        model: { factory: context.functionName(modelFactory, ["model", "factory"]), modelId: model.modelId },
        ...(context.serializeValue(rest, []) as Record<string, unknown>),
      };
    },
    fromInitParameters(initParameters, context) {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(initParameters)) if (value !== null) out[key] = value;
      const issue = (path: readonly (string | number)[], message: string) =>
        context.issues.push({ path: [...context.path, ...path], message } satisfies Issue);
      const spec = out.model as { factory?: unknown; modelId?: unknown } | undefined;
      delete out.model;
      if (typeof spec !== "object" || spec === null || typeof spec.modelId !== "string") {
        issue(["model"], 'must be { "factory": "<registered function name>", "modelId": "<model id>" }.');
        return out;
      }
      const factory = context.resolveFunction(spec.factory, ["model", "factory"]) as
        | EmbeddingModelFactory
        | undefined;
      if (factory === undefined) return out;
      let model: unknown;
      try {
        model = factory(spec.modelId);
      } catch (error) {
        issue(
          ["model"],
          `the model factory "${String(spec.factory)}" failed for "${spec.modelId}": ${error instanceof Error ? error.message : String(error)}`,
        );
        return out;
      }
      if (!isAISDKEmbeddingModel(model)) {
        issue(
          ["model", "factory"],
          `the function "${String(spec.factory)}" did not return an AI SDK embedding model (specification "v2", "v3" or "v4") for "${spec.modelId}".`,
        );
        return out;
      }
      out.model = model;
      out.modelFactory = factory;
      return out;
    },
  };
}
