import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import type { AnyTool, ChatMessage } from "@junction/llm";
import type { CallOptions } from "./language-model.js";
import { toPrompt } from "./to-prompt.js";

/**
 * `generation_kwargs` keys that map to an AI SDK call option, by their Junction (OpenAI-style) name and
 * by the AI SDK's own name. Anything else goes to `providerOptions` under the model's provider.
 */
const callOptionNames: Readonly<Record<string, keyof CallOptions>> = {
  max_tokens: "maxOutputTokens",
  max_completion_tokens: "maxOutputTokens",
  max_output_tokens: "maxOutputTokens",
  maxOutputTokens: "maxOutputTokens",
  temperature: "temperature",
  top_p: "topP",
  topP: "topP",
  top_k: "topK",
  topK: "topK",
  stop: "stopSequences",
  stop_sequences: "stopSequences",
  stopSequences: "stopSequences",
  seed: "seed",
  presence_penalty: "presencePenalty",
  presencePenalty: "presencePenalty",
  frequency_penalty: "frequencyPenalty",
  frequencyPenalty: "frequencyPenalty",
  response_format: "responseFormat",
  responseFormat: "responseFormat",
  tool_choice: "toolChoice",
  toolChoice: "toolChoice",
};

function toToolChoice(value: unknown): unknown {
  if (value === "auto" || value === "none" || value === "required") return { type: value };
  if (typeof value === "string") return { type: "tool", toolName: value };
  const name = (value as { function?: { name?: unknown } } | null)?.function?.name;
  return typeof name === "string" ? { type: "tool", toolName: name } : value;
}

function toResponseFormat(value: unknown): unknown {
  const format = value as { type?: unknown; json_schema?: { schema?: unknown; name?: unknown } } | null;
  if (format?.type === "json_schema" && format.json_schema !== undefined)
    return { type: "json", schema: format.json_schema.schema, name: format.json_schema.name };
  if (format?.type === "json_object") return { type: "json" };
  return value;
}

function toStop(value: unknown): unknown {
  return typeof value === "string" ? [value] : value;
}

/**
 * The key under which unknown kwargs go into `providerOptions`: the provider's first segment
 * (`"openai.chat"` → `"openai"`), as AI SDK providers read their options.
 */
export function providerKey(provider: string): string {
  return provider.split(".")[0] ?? provider;
}

/**
 * Describes tools as AI SDK function tools, with their parameters as JSON Schema.
 *
 * @param tools - the tools (flattened)
 */
export function toFunctionTools(tools: readonly AnyTool[]): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => {
    const { name, description, parameters } = tool.spec;
    return {
      type: "function",
      name,
      ...(description === undefined ? {} : { description }),
      inputSchema: { ...parameters } as unknown as LanguageModelV3FunctionTool["inputSchema"],
    };
  });
}

/** What call options are built from. */
export interface CallOptionsInputs {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly AnyTool[];
  /** The params' `generationKwargs` merged with the run's `generation_kwargs` (run wins per key). */
  readonly generationKwargs: Readonly<Record<string, unknown>>;
  /** The model's `provider`, e.g. `"openai.chat"`. */
  readonly provider: string;
  readonly signal: AbortSignal | undefined;
}

/**
 * Builds the options of one `doGenerate` / `doStream` call: the prompt, the tools, the known
 * generation kwargs as call options (`max_tokens` → `maxOutputTokens`, `top_p` → `topP`, `stop` →
 * `stopSequences`, `tool_choice`, `response_format`, ...), an explicit `providerOptions` kwarg as it is,
 * every other kwarg in `providerOptions[provider]`, and the run's signal as `abortSignal`.
 *
 * @param inputs - messages, tools, kwargs, provider and signal
 */
export function buildCallOptions(inputs: CallOptionsInputs): CallOptions {
  const options: Record<string, unknown> = { prompt: toPrompt(inputs.messages) };
  if (inputs.tools.length > 0) options.tools = toFunctionTools(inputs.tools);
  const { providerOptions: explicit, ...kwargs } = inputs.generationKwargs;
  const providerOptions: Record<string, Record<string, unknown>> = {
    ...((explicit ?? {}) as Record<string, Record<string, unknown>>),
  };
  const key = providerKey(inputs.provider);
  for (const [name, value] of Object.entries(kwargs)) {
    const option = callOptionNames[name];
    if (value === undefined) continue;
    if (option === "toolChoice") options.toolChoice = toToolChoice(value);
    else if (option === "responseFormat") options.responseFormat = toResponseFormat(value);
    else if (option === "stopSequences") options.stopSequences = toStop(value);
    else if (option !== undefined) options[option] = value;
    else providerOptions[key] = { ...providerOptions[key], [name]: value };
  }
  if (Object.keys(providerOptions).length > 0) options.providerOptions = providerOptions;
  if (inputs.signal !== undefined) options.abortSignal = inputs.signal;
  return options as unknown as CallOptions;
}
