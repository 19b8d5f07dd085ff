/**
 * The content parts of a chat message. Parts are plain, frozen data; a message holds them tagged by
 * `type`, mirroring the serialized shape (`{ text }`, `{ tool_call: {...} }`, ...).
 */

/** Who sent a message. */
export type ChatRole = "user" | "system" | "assistant" | "tool";

/** Every role, in a fixed order. */
export const chatRoles: readonly ChatRole[] = Object.freeze(["user", "system", "assistant", "tool"]);

/** A tool call requested by the model. */
export interface ToolCall {
  /** The name of the tool to call. */
  readonly toolName: string;
  /** The arguments, already parsed from the model's JSON. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The provider's id of the call; tool results quote it. */
  readonly id?: string | undefined;
  /** Provider-specific data about the call (JSON-serializable). */
  readonly extra?: Readonly<Record<string, unknown>> | undefined;
}

/** An image, base64-encoded. */
export interface ImageContent {
  /** The image bytes, base64-encoded (no `data:` prefix). */
  readonly base64Image: string;
  /** The MIME type, e.g. `"image/png"`. Most providers require it. */
  readonly mimeType?: string | undefined;
  /** The detail level (OpenAI only). */
  readonly detail?: "auto" | "high" | "low" | undefined;
  /** Free-form metadata. */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

/** Reasoning text a model produced before its answer. */
export interface ReasoningContent {
  /** The reasoning text. */
  readonly reasoningText: string;
  /** Provider-specific data (signatures, ids). */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** A text part. */
export interface TextPart {
  /** Discriminant. */
  readonly type: "text";
  /** The text. */
  readonly text: string;
}

/** An image part. */
export interface ImagePart {
  /** Discriminant. */
  readonly type: "image";
  /** The image. */
  readonly image: ImageContent;
}

/** What a tool returned, as sent back to the model: a string or a list of text and image parts. */
export type ToolCallResultContent = string | readonly (TextPart | ImagePart)[];

/** The result of one tool call. */
export interface ToolCallResult {
  /** What the tool returned, converted for the model. */
  readonly result: ToolCallResultContent;
  /** The call that produced it. */
  readonly origin: ToolCall;
  /** True when the tool failed and `result` describes the error. */
  readonly error: boolean;
}

/** A tool call part. */
export interface ToolCallPart {
  /** Discriminant. */
  readonly type: "tool_call";
  /** The call. */
  readonly toolCall: ToolCall;
}

/** A tool call result part. */
export interface ToolCallResultPart {
  /** Discriminant. */
  readonly type: "tool_call_result";
  /** The result. */
  readonly toolCallResult: ToolCallResult;
}

/** A reasoning part. */
export interface ReasoningPart {
  /** Discriminant. */
  readonly type: "reasoning";
  /** The reasoning. */
  readonly reasoning: ReasoningContent;
}

/** One part of a message's content. */
export type ContentPart = TextPart | ImagePart | ToolCallPart | ToolCallResultPart | ReasoningPart;

/** What a user message may contain: strings (text), text parts and image parts. */
export type UserContentPart = string | TextPart | ImagePart;
