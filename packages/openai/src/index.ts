export { OpenAIDocumentEmbedder } from "./embedders/openai-document-embedder.js";
export type {
  OpenAIDocumentEmbedderOptions,
  OpenAIDocumentEmbedderParams,
  OpenAITextEmbedderOptions,
  OpenAITextEmbedderParams,
} from "./embedders/openai-embedder-params.js";
export {
  openAIDocumentEmbedderParamsSchema,
  openAITextEmbedderParamsSchema,
} from "./embedders/openai-embedder-params.js";
export { OpenAITextEmbedder } from "./embedders/openai-text-embedder.js";
export type { OpenAIApiErrorFields } from "./openai-api-error.js";
export { OpenAIApiError } from "./openai-api-error.js";
export { OpenAIChatGenerator } from "./openai-chat-generator.js";
export type {
  OpenAIChatGeneratorOptions,
  OpenAIChatGeneratorParams,
} from "./openai-chat-generator-params.js";
export { openAIChatGeneratorParamsSchema } from "./openai-chat-generator-params.js";
export { ARGUMENTS_ERROR_KEY, MALFORMED_ARGUMENTS_KEY } from "./parse-tool-call.js";
export type { ResponseFormatJSON } from "./response-format.js";
export { zodToResponseFormat } from "./response-format.js";
export { makeSchemaStrict } from "./strict-schema.js";
export { toOpenAIMessages } from "./to-openai-messages.js";
