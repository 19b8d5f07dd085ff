import type { ComponentSerializer } from "@junction/core";
import type { OpenAIChatGeneratorParams } from "./openai-chat-generator-params.js";

/**
 * Writes the params as `init_parameters`: the key as an env-var reference (a token secret refuses to be
 * written), the streaming callback by registered function name, tools through the tools' own
 * serialization; unset values are left out.
 */
export const openAIChatGeneratorSerializer: ComponentSerializer<OpenAIChatGeneratorParams> = {
  toInitParameters(params, context) {
    const { streamingCallback, tools, ...rest } = params;
    const out: Record<string, unknown> = context.serializeValue(rest, []) as Record<string, unknown>;
    if (streamingCallback !== undefined)
      out.streamingCallback = context.functionName(streamingCallback, "streamingCallback");
    if (tools !== undefined) out.tools = context.serializeValue(tools, "tools");
    return out;
  },
  fromInitParameters(initParameters, context) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(initParameters)) if (value !== null) out[key] = value;
    if (out.streamingCallback !== undefined) {
      out.streamingCallback = context.resolveFunction(out.streamingCallback, "streamingCallback");
    }
    return out;
  },
};
