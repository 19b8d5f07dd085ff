import { type ComponentSerializer, JunctionError } from "@junction/core";
import { toolsFromJSON, toolsToJSON } from "@junction/llm";
import type { OpenAIChatGeneratorParams } from "./openai-chat-generator-params.js";

/**
 * Writes the params as `init_parameters`: the key as an env-var reference (a token secret refuses to be
 * written), the streaming callback by registered function name, the tools through `toolsToJSON` (their
 * functions by registered name); unset values are left out. Reading accepts `null` for unset values.
 */
export const openAIChatGeneratorSerializer: ComponentSerializer<OpenAIChatGeneratorParams> = {
  toInitParameters(params, context) {
    const { streamingCallback, tools, ...rest } = params;
    const out = context.serializeValue(rest, []) as Record<string, unknown>;
    if (streamingCallback !== undefined) {
      out.streamingCallback = context.functionName(streamingCallback, "streamingCallback");
    }
    if (tools !== undefined) {
      out.tools = toolsToJSON(tools, { registry: context.registry, path: [...context.path, "tools"] });
    }
    return out;
  },
  fromInitParameters(initParameters, context) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(initParameters)) if (value !== null) out[key] = value;
    if (out.streamingCallback !== undefined) {
      out.streamingCallback = context.resolveFunction(out.streamingCallback, "streamingCallback");
    }
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
