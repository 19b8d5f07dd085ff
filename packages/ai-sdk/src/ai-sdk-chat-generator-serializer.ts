import { type ComponentSerializer, JunctionError, SerializationError } from "@junction/core";
import { toolsFromJSON, toolsToJSON } from "@junction/llm";
import type { AISDKChatGeneratorParams } from "./ai-sdk-chat-generator-params.js";
import { isAISDKLanguageModel } from "./language-model.js";
import { modelSpecToJSON, readModelSpec } from "./model-spec.js";

/**
 * Writes the model as `{ factory, modelId }` — the registered name of `modelFactory` and the model's id —
 * so a saved pipeline holds no code and no credentials (the provider reads its key from the environment
 * when the factory runs). Reading calls the registered factory with the id.
 */
export const aiSDKChatGeneratorSerializer: ComponentSerializer<AISDKChatGeneratorParams> = {
  toInitParameters(params, context) {
    const { model, modelFactory, streamingCallback, tools, generationKwargs } = params;
    if (modelFactory === undefined) {
      throw new SerializationError(
        `AISDKChatGenerator: the model "${model.provider}/${model.modelId}" cannot be saved: a model object is code, and documents hold no code. Register the provider that made it and pass it as \`modelFactory\`: registry.registerFunction("openai", openai); new AISDKChatGenerator({ model: openai("${model.modelId}"), modelFactory: openai }).`,
        { componentType: "junction.AISDKChatGenerator" },
      );
    }
    const out: Record<string, unknown> = {
      model: modelSpecToJSON(modelFactory, model.modelId, context),
      generationKwargs: context.serializeValue(generationKwargs, "generationKwargs"),
    };
    if (streamingCallback !== undefined)
      out.streamingCallback = context.functionName(streamingCallback, "streamingCallback");
    if (tools !== undefined)
      out.tools = toolsToJSON(tools, { registry: context.registry, path: [...context.path, "tools"] });
    return out;
  },
  fromInitParameters(initParameters, context) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(initParameters)) if (value !== null) out[key] = value;
    readModelSpec(out, context, { kind: "language", isModel: isAISDKLanguageModel });
    if (out.streamingCallback !== undefined)
      out.streamingCallback = context.resolveFunction(out.streamingCallback, "streamingCallback");
    if (out.tools !== undefined) {
      try {
        out.tools = toolsFromJSON(out.tools, {
          registry: context.registry,
          path: [...context.path, "tools"],
        });
      } catch (error) {
        if (!JunctionError.isInstance(error) || error.issues.length === 0) throw error;
        context.issues.push(...error.issues);
        delete out.tools;
      }
    }
    return out;
  },
};
