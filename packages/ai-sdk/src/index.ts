export { AISDKChatGenerator } from "./ai-sdk-chat-generator.js";
export type {
  AISDKChatGeneratorOptions,
  AISDKChatGeneratorParams,
  ModelFactory,
} from "./ai-sdk-chat-generator-params.js";
export { aiSDKChatGeneratorParamsSchema } from "./ai-sdk-chat-generator-params.js";
export { AISDKDocumentEmbedder } from "./embedders/ai-sdk-document-embedder.js";
export type {
  AISDKDocumentEmbedderOptions,
  AISDKDocumentEmbedderParams,
  AISDKTextEmbedderOptions,
  AISDKTextEmbedderParams,
  EmbeddingModelFactory,
} from "./embedders/ai-sdk-embedder-params.js";
export {
  aiSDKDocumentEmbedderParamsSchema,
  aiSDKTextEmbedderParamsSchema,
} from "./embedders/ai-sdk-embedder-params.js";
export { AISDKTextEmbedder } from "./embedders/ai-sdk-text-embedder.js";
export type { AISDKEmbeddingModel, EmbeddingModelV4 } from "./embedders/embedding-model.js";
export {
  isAISDKEmbeddingModel,
  supportedEmbeddingSpecificationVersions,
} from "./embedders/embedding-model.js";
export type { MappedFinishReason } from "./finish-reason.js";
export { mapFinishReason } from "./finish-reason.js";
export type {
  AISDKLanguageModel,
  LanguageModelV4,
  LanguageModelV4FinishReason,
} from "./language-model.js";
export { isAISDKLanguageModel, supportedSpecificationVersions } from "./language-model.js";
export { toPrompt } from "./to-prompt.js";
export { toUsage } from "./usage.js";
