export { AISDKChatGenerator } from "./ai-sdk-chat-generator.js";
export type {
  AISDKChatGeneratorOptions,
  AISDKChatGeneratorParams,
  ModelFactory,
} from "./ai-sdk-chat-generator-params.js";
export { aiSDKChatGeneratorParamsSchema } from "./ai-sdk-chat-generator-params.js";
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
