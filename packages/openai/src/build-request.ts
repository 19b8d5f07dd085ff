import { ComponentError } from "@junction/core";
import type { AnyTool, ChatMessage, JsonSchemaResponseFormat } from "@junction/llm";
import type OpenAI from "openai";
import type { ResponseFormatJSON } from "./response-format.js";
import { makeSchemaStrict } from "./strict-schema.js";
import { toOpenAIMessages } from "./to-openai-messages.js";

type RequestBody = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, "stream">;
type FunctionTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

/** What a request is built from. */
export interface RequestInputs {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /** `generationKwargs` of the params. */
  readonly initKwargs: Readonly<Record<string, unknown>>;
  /** `generation_kwargs` of the run, merged per key over the params' ones. */
  readonly runKwargs: Readonly<Record<string, unknown>> | undefined;
  /** The tools the model may call (already flattened). */
  readonly tools: readonly AnyTool[];
  readonly toolsStrict: boolean;
  /** The `responseFormat` param; a `response_format` generation kwarg wins over it. */
  readonly responseFormat: ResponseFormatJSON | undefined;
  /** The run's `response_format` input; it wins over the kwarg and the param. */
  readonly runResponseFormat?: JsonSchemaResponseFormat | undefined;
}

/** The run's response format as OpenAI wants it: with `strict`, the schema made strict. */
function runFormat(format: JsonSchemaResponseFormat): ResponseFormatJSON {
  const { name, schema, strict, description } = format.json_schema;
  return {
    type: "json_schema",
    json_schema: {
      name,
      schema: strict === true ? makeSchemaStrict(schema) : { ...schema },
      ...(strict === undefined ? {} : { strict }),
      ...(description === undefined ? {} : { description }),
    },
  };
}

/** The request and whether to stream it. */
export interface BuiltRequest {
  readonly body: RequestBody;
  /** True when `generation_kwargs.stream` asked for streaming. */
  readonly streamRequested: boolean;
}

/**
 * Describes tools as OpenAI function tools. With `strict`, each function is marked `strict: true` and its
 * parameters schema is made strict (closed objects, every property required).
 *
 * @param tools - the tools
 * @param strict - whether to ask for strict schema adherence
 */
export function toOpenAITools(tools: readonly AnyTool[], strict: boolean): FunctionTool[] {
  return tools.map((tool) => {
    const { name, description, parameters } = tool.spec;
    return {
      type: "function",
      function: strict
        ? { name, description, parameters: makeSchemaStrict(parameters), strict: true }
        : { name, description, parameters: { ...parameters } },
    };
  });
}

/**
 * Builds the chat completion request: `model`, `messages`, `tools`, then the generation kwargs (the
 * run's merged per key over the params'; they may override anything but `messages`), then
 * `response_format` (the run's input, else the kwarg, else the param). `stream` is decided by the caller and removed from the kwargs.
 *
 * @param inputs - model, messages, kwargs, tools and response format
 * @param streaming - whether a streaming callback is present
 * @throws ComponentError when streaming is asked for with `n` > 1 (a stream carries one reply)
 */
export function buildRequest(inputs: RequestInputs, streaming: boolean): BuiltRequest {
  const {
    stream,
    response_format: kwargsFormat,
    ...kwargs
  } = { ...inputs.initKwargs, ...(inputs.runKwargs ?? {}) };
  const streamRequested = stream === true;
  const n = kwargs.n;
  if ((streaming || streamRequested) && typeof n === "number" && n > 1) {
    throw new ComponentError(
      `OpenAIChatGenerator.run: generation_kwargs.n is ${n}, but a stream carries one reply. Set n to 1, or run without a streaming callback.`,
      { componentType: "junction.OpenAIChatGenerator" },
    );
  }
  const responseFormat =
    inputs.runResponseFormat === undefined
      ? (kwargsFormat ?? inputs.responseFormat)
      : runFormat(inputs.runResponseFormat);
  const tools = inputs.tools.length === 0 ? {} : { tools: toOpenAITools(inputs.tools, inputs.toolsStrict) };
  const body = {
    model: inputs.model,
    ...tools,
    ...kwargs,
    messages: toOpenAIMessages(inputs.messages),
    ...(responseFormat === undefined || responseFormat === null ? {} : { response_format: responseFormat }),
  } as RequestBody;
  return { body, streamRequested };
}
