// Importing the package registers the reference's ChatMessage/string conversions with core.
import "./conversions.js";
import "./durable-types.js";

export type { CassetteEntry, CassetteRequest } from "./cassette.js";
export type {
  ChatGenerator,
  ChatGeneratorInputs,
  ChatGeneratorOutputs,
  ChatGeneratorRunInputs,
} from "./chat-generator.js";
export {
  chatGeneratorInputs,
  chatGeneratorOutputs,
  isChatGenerator,
  streamingCallbackSchema,
  toolsSchema,
} from "./chat-generator.js";
export type {
  AssistantMessageInit,
  ChatMessageInit,
  ChatMessageJSON,
  ChatMessageMeta,
  ChatMessageOptions,
} from "./chat-message.js";
export { ChatMessage, chatMessageSchema } from "./chat-message.js";
export type { ChatCallRequest } from "./chat-span.js";
export { errorType, traceChatCall } from "./chat-span.js";
export type { ComponentToolInit, ComponentToolOptions } from "./component-tool.js";
export { ComponentTool } from "./component-tool.js";
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
export type { ConversationConflictErrorFields } from "./conversation/conversation-errors.js";
export { ConversationConflictError } from "./conversation/conversation-errors.js";
export type {
  ConversationAppendOptions,
  ConversationHistory,
  ConversationInfo,
  ConversationListQuery,
  ConversationReadOptions,
  ConversationStore,
  ConversationSummary,
} from "./conversation/conversation-store.js";
export { MemoryConversationStore } from "./conversation/conversation-store.js";
export type { FileConversationStoreOptions } from "./conversation/file-conversation-store.js";
export { FileConversationStore } from "./conversation/file-conversation-store.js";
export { ConversionError, MessageFormatError } from "./errors.js";
export type { FinishReason } from "./finish-reason.js";
export { finishReasons } from "./finish-reason.js";
export type { JsonObjectType, JsonSchemaType } from "./json-schema-type.js";
export type { PipelineToolInit } from "./pipeline-tool.js";
export { PipelineTool } from "./pipeline-tool.js";
export { RecordingChatGenerator } from "./recording-chat-generator.js";
export { ReplayChatGenerator } from "./replay-chat-generator.js";
export type { JsonSchemaResponseFormat } from "./response-format.js";
export {
  jsonSchemaResponseFormatSchema,
  responseFormatInputs,
  supportsResponseFormat,
} from "./response-format.js";
export type { ScriptedReplyContext, ScriptedReplyFunction } from "./scripted-chat-generator.js";
export { ScriptedChatGenerator } from "./scripted-chat-generator.js";
export type { ScriptedReply } from "./scripted-reply.js";
export type {
  ComponentInfo,
  StreamingCallback,
  StreamingChunkInit,
  StreamingChunkJSON,
  ToolCallDelta,
} from "./streaming-chunk.js";
export {
  invokeStreamingCallback,
  isStreamingChunk,
  StreamingChunk,
  selectStreamingCallback,
  streamingChunkSchema,
} from "./streaming-chunk.js";
export type {
  AnyTool,
  NeedsApproval,
  ToolApprovalContext,
  ToolContext,
  ToolDocumentOptions,
  ToolFunction,
  ToolInit,
  ToolInvokeOptions,
  ToolSpec,
  ToolState,
  ToolSubclassOptions,
} from "./tool.js";
export { isTool, Tool, tool, toolNamePattern } from "./tool.js";
export type { ToolCallTag } from "./tool-chunk.js";
export { tagToolChunk } from "./tool-chunk.js";
export type {
  NamedOutputToString,
  OutputHandler,
  OutputsToString,
  OutputToState,
  OutputToStringConfig,
  StateMergeHandler,
} from "./tool-config.js";
export { toolFieldsFromJSON, toolFromJSON, toolsetFromJSON, toolsFromJSON } from "./tool-deserialization.js";
export type { ToolInvocationErrorFields } from "./tool-errors.js";
export { ToolDefinitionError, ToolInvocationError } from "./tool-errors.js";
export type { JsonObjectSchema, JsonSchema } from "./tool-parameters.js";
export type { ToolResultSource, ToolResultToStringOptions } from "./tool-result.js";
export { stringifyToolResult, toolResultToString } from "./tool-result.js";
export type { ToolDocument, ToolFields, ToolSerializationOptions } from "./tool-serialization.js";
export { toolFieldsToJSON, toolsetToJSON, toolsToJSON, toolToJSON } from "./tool-serialization.js";
export type { ToolsetSource, ToolsInput } from "./toolset.js";
export { flattenTools, Toolset } from "./toolset.js";
export type { Usage } from "./usage.js";
export { addUsage } from "./usage.js";
