import { Secret, secretSchema } from "@junction/core";
import { flattenTools, streamingCallbackSchema, toolsSchema } from "@junction/llm";
import { z } from "zod";
import { responseFormatSchema } from "./response-format.js";

/** Tools: a Toolset or a list of tools and toolsets, with unique names. */
const uniqueToolsSchema = toolsSchema.superRefine((value, context) => {
  try {
    flattenTools(value);
  } catch (error) {
    context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
  }
});

/**
 * The params of {@link OpenAIChatGenerator}. Everything is optional; `model` defaults to `"gpt-5-mini"`
 * and `apiKey` to the `OPENAI_API_KEY` environment variable.
 */
export const openAIChatGeneratorParamsSchema = z.object({
  /** The model name, e.g. `"gpt-5-mini"` or, on a local server, `"llama3.2"`. */
  model: z.string().min(1).default("gpt-5-mini"),
  /** The API key, resolved at warm-up (never serialized as a literal). */
  apiKey: secretSchema.default(() => Secret.fromEnvVar("OPENAI_API_KEY")),
  /** The server's base URL, e.g. `"http://localhost:11434/v1"`; default: env `OPENAI_BASE_URL`, else OpenAI. */
  baseURL: z.string().min(1).optional(),
  /** The OpenAI organization id (default: env `OPENAI_ORG_ID`, read by the SDK). */
  organization: z.string().min(1).optional(),
  /** Request fields sent with every call (`temperature`, `max_completion_tokens`, `reasoning_effort`, ...). */
  generationKwargs: z.record(z.string(), z.unknown()).default({}),
  /** Tools the model may call (a run's `tools` input replaces them). */
  tools: uniqueToolsSchema.optional(),
  /** Ask for strict schema adherence of tool calls (closed, fully required parameter schemas). */
  toolsStrict: z.boolean().default(false),
  /** Called with every streamed chunk; its presence turns streaming on. Serialized by registered name. */
  streamingCallback: streamingCallbackSchema.optional(),
  /** Request timeout in milliseconds (default: env `OPENAI_TIMEOUT` in seconds, else 30 s). */
  timeout: z.number().positive().optional(),
  /** Retries on connection errors, 408, 409, 429 and 5xx (default: env `OPENAI_MAX_RETRIES`, else 5). */
  maxRetries: z.number().int().nonnegative().optional(),
  /** Structured output: a zod schema or a `response_format` object; kept as its JSON form. */
  responseFormat: responseFormatSchema.optional(),
});

/** What `new OpenAIChatGenerator(...)` accepts. */
export type OpenAIChatGeneratorOptions = z.input<typeof openAIChatGeneratorParamsSchema>;

/** The validated params of an {@link OpenAIChatGenerator}. */
export type OpenAIChatGeneratorParams = z.output<typeof openAIChatGeneratorParamsSchema>;
