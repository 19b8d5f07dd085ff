import { Secret, secretSchema } from "@junction/core";
import { documentEmbedderParamsShape, textEmbedderParamsShape } from "@junction/documents";
import { z } from "zod";

/** The connection and model params both OpenAI embedders share (as `OpenAIChatGenerator`'s). */
const clientShape = {
  /**
   * The embedding model. Default `"text-embedding-ada-002"`, Haystack's default; `"text-embedding-3-small"`
   * is cheaper and better, and supports `dimensions`.
   */
  model: z.string().min(1).default("text-embedding-ada-002"),
  /** The API key, resolved at warm-up (never serialized as a literal). */
  apiKey: secretSchema.default(() => Secret.fromEnvVar("OPENAI_API_KEY")),
  /** The server's base URL, e.g. `"http://localhost:11434/v1"`; default: env `OPENAI_BASE_URL`, else OpenAI. */
  baseURL: z.string().min(1).optional(),
  /** The OpenAI organization id (default: env `OPENAI_ORG_ID`, read by the SDK). */
  organization: z.string().min(1).optional(),
  /** The size of the embeddings (`text-embedding-3-*` and later models only). */
  dimensions: z.number().int().positive().optional(),
  /** Request timeout in milliseconds (default: env `OPENAI_TIMEOUT` in seconds, else 30 s). */
  timeout: z.number().positive().optional(),
  /** Retries on connection errors, 408, 409, 429 and 5xx (default: env `OPENAI_MAX_RETRIES`, else 5). */
  maxRetries: z.number().int().nonnegative().optional(),
};

/** The params of `OpenAITextEmbedder`: model, connection, `dimensions`, `prefix`, `suffix`. */
export const openAITextEmbedderParamsSchema = z.object({ ...clientShape, ...textEmbedderParamsShape });

/** What `new OpenAITextEmbedder(...)` accepts. */
export type OpenAITextEmbedderOptions = z.input<typeof openAITextEmbedderParamsSchema>;

/** The validated params of an `OpenAITextEmbedder`. */
export type OpenAITextEmbedderParams = z.output<typeof openAITextEmbedderParamsSchema>;

/**
 * The params of `OpenAIDocumentEmbedder`: the text embedder's, plus `batchSize`, `metaFieldsToEmbed`,
 * `embeddingSeparator` and `raiseOnFailure`.
 */
export const openAIDocumentEmbedderParamsSchema = z.object({
  ...clientShape,
  ...documentEmbedderParamsShape,
});

/** What `new OpenAIDocumentEmbedder(...)` accepts. */
export type OpenAIDocumentEmbedderOptions = z.input<typeof openAIDocumentEmbedderParamsSchema>;

/** The validated params of an `OpenAIDocumentEmbedder`. */
export type OpenAIDocumentEmbedderParams = z.output<typeof openAIDocumentEmbedderParamsSchema>;
