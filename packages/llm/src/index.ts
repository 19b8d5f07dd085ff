export type {
  AssistantMessageInit,
  ChatMessageInit,
  ChatMessageJSON,
  ChatMessageMeta,
  ChatMessageOptions,
} from "./chat-message.js";
export { ChatMessage, chatMessageSchema } from "./chat-message.js";
export type {
  ContentPartJSON,
  ImageContentJSON,
  ToolCallJSON,
  ToolCallResultJSON,
} from "./content-part-json.js";
export type {
  ChatRole,
  ContentPart,
  ImageContent,
  ImagePart,
  ReasoningContent,
  ReasoningPart,
  TextPart,
  ToolCall,
  ToolCallPart,
  ToolCallResult,
  ToolCallResultContent,
  ToolCallResultPart,
  UserContentPart,
} from "./content-parts.js";
export { chatRoles } from "./content-parts.js";
export { MessageFormatError } from "./errors.js";
export type { FinishReason } from "./finish-reason.js";
export { finishReasons } from "./finish-reason.js";
export type {
  ComponentInfo,
  StreamingCallback,
  StreamingChunkInit,
  StreamingChunkJSON,
  ToolCallDelta,
} from "./streaming-chunk.js";
export { StreamingChunk, streamingChunkSchema } from "./streaming-chunk.js";
export type { Usage } from "./usage.js";
export { addUsage } from "./usage.js";
