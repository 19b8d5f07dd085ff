// Importing the package registers the reference's ChatMessage/string conversions with core.
import "./messages/conversions.js";
import "./durable-types.js";

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
export type { CassetteEntry, CassetteRequest } from "./generators/cassette.js";
export type {
  ChatGenerator,
  ChatGeneratorInputs,
  ChatGeneratorOutputs,
  ChatGeneratorRunInputs,
} from "./generators/chat-generator.js";
export {
  chatGeneratorInputs,
  chatGeneratorOutputs,
  isChatGenerator,
  streamingCallbackSchema,
  toolsSchema,
} from "./generators/chat-generator.js";
export type { ChatCallRequest } from "./generators/chat-span.js";
export { errorType, traceChatCall } from "./generators/chat-span.js";
export { RecordingChatGenerator } from "./generators/recording-chat-generator.js";
export { ReplayChatGenerator } from "./generators/replay-chat-generator.js";
export type { JsonSchemaResponseFormat } from "./generators/response-format.js";
export {
  jsonSchemaResponseFormatSchema,
  responseFormatInputs,
  supportsResponseFormat,
} from "./generators/response-format.js";
export type { ScriptedReplyContext, ScriptedReplyFunction } from "./generators/scripted-chat-generator.js";
export { ScriptedChatGenerator } from "./generators/scripted-chat-generator.js";
export type { ScriptedReply } from "./generators/scripted-reply.js";
export type {
  AssistantMessageInit,
  ChatMessageInit,
  ChatMessageJSON,
  ChatMessageMeta,
  ChatMessageOptions,
} from "./messages/chat-message.js";
export { ChatMessage, chatMessageSchema } from "./messages/chat-message.js";
export type {
  ContentPartJSON,
  ImageContentJSON,
  ToolCallJSON,
  ToolCallResultJSON,
} from "./messages/content-part-json.js";
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
} from "./messages/content-parts.js";
export { chatRoles } from "./messages/content-parts.js";
export type { FinishReason } from "./messages/finish-reason.js";
export { finishReasons } from "./messages/finish-reason.js";
export type { Usage } from "./messages/usage.js";
export { addUsage } from "./messages/usage.js";
export type {
  ComponentInfo,
  StreamingCallback,
  StreamingChunkInit,
  StreamingChunkJSON,
  ToolCallDelta,
} from "./streaming/streaming-chunk.js";
export {
  invokeStreamingCallback,
  isStreamingChunk,
  StreamingChunk,
  selectStreamingCallback,
  streamingChunkSchema,
} from "./streaming/streaming-chunk.js";
export type { ToolCallTag } from "./streaming/tool-chunk.js";
export { tagToolChunk } from "./streaming/tool-chunk.js";
export type { ComponentToolInit, ComponentToolOptions } from "./tools/component-tool.js";
export { ComponentTool } from "./tools/component-tool.js";
export type { JsonObjectType, JsonSchemaType } from "./tools/json-schema-type.js";
export type { PipelineToolInit } from "./tools/pipeline-tool.js";
export { PipelineTool } from "./tools/pipeline-tool.js";
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
} from "./tools/tool.js";
export { callTool, isTool, Tool, tool, toolCallError, toolNamePattern } from "./tools/tool.js";
export type {
  NamedOutputToString,
  OutputHandler,
  OutputsToString,
  OutputToState,
  OutputToStringConfig,
  StateMergeHandler,
} from "./tools/tool-config.js";
export {
  toolFieldsFromJSON,
  toolFromJSON,
  toolsetFromJSON,
  toolsFromJSON,
} from "./tools/tool-deserialization.js";
export type { ToolInvocationErrorFields } from "./tools/tool-errors.js";
export { ToolDefinitionError, ToolInvocationError } from "./tools/tool-errors.js";
export type { JsonObjectSchema, JsonSchema } from "./tools/tool-parameters.js";
export type { ToolResultSource, ToolResultToStringOptions } from "./tools/tool-result.js";
export { stringifyToolResult, toolResultToString } from "./tools/tool-result.js";
export type { ToolDocument, ToolFields, ToolSerializationOptions } from "./tools/tool-serialization.js";
export { toolFieldsToJSON, toolsetToJSON, toolsToJSON, toolToJSON } from "./tools/tool-serialization.js";
export type { ToolsetSource, ToolsInput } from "./tools/toolset.js";
export { flattenTools, Toolset } from "./tools/toolset.js";
