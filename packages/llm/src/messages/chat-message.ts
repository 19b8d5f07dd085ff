import {
  DeserializationError,
  defineNamedType,
  findValueProblem,
  type Issue,
  quoteExcerpt,
} from "@junction/core";
import { z } from "zod";
import { MessageFormatError } from "../errors.js";
import { formatIssues } from "../format-issues.js";
import {
  checkPart,
  checkReasoning,
  checkTextOrImagePart,
  checkToolCall,
  checkToolCallResult,
  checkValueLimits,
  copyRecord,
  isRecord,
} from "./content-part-checks.js";
import { type ContentPartJSON, partFromJSON, partToJSON } from "./content-part-json.js";
import {
  type ChatRole,
  type ContentPart,
  chatRoles,
  type ImageContent,
  type ReasoningContent,
  type ToolCall,
  type ToolCallResult,
  type ToolCallResultContent,
  type UserContentPart,
} from "./content-parts.js";
import type { FinishReason } from "./finish-reason.js";
import type { Usage } from "./usage.js";

/** A message's metadata. Generators set `model`, `finish_reason`, `usage` and `index` on replies. */
export interface ChatMessageMeta {
  /** The model that produced the reply. */
  readonly model?: string | undefined;
  /** Why the model stopped. */
  readonly finish_reason?: FinishReason | (string & {}) | null | undefined;
  /** Token usage of the call that produced the reply. */
  readonly usage?: Usage | null | undefined;
  /** Any other metadata (JSON-serializable). */
  readonly [key: string]: unknown;
}

/** The serialized form of a message (the reference's dict shape). */
export interface ChatMessageJSON {
  /** Who sent it. */
  readonly role: ChatRole;
  /** The content parts. */
  readonly content: readonly ContentPartJSON[];
  /** The participant name, or `null`. */
  readonly name: string | null;
  /** Metadata. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/** What the {@link ChatMessage} constructor takes. */
export interface ChatMessageInit {
  /** Who sends it. */
  readonly role: ChatRole;
  /** The content parts. */
  readonly content: readonly ContentPart[];
  /** An optional participant name (OpenAI only). */
  readonly name?: string | undefined;
  /** Metadata. */
  readonly meta?: ChatMessageMeta | undefined;
}

/** Options shared by the factories. */
export interface ChatMessageOptions {
  /** Metadata. */
  readonly meta?: ChatMessageMeta | undefined;
  /** An optional participant name (OpenAI only). */
  readonly name?: string | undefined;
}

/** What {@link ChatMessage.fromAssistant} takes. */
export interface AssistantMessageInit extends ChatMessageOptions {
  /** The reply text. */
  readonly text?: string | undefined;
  /** Tool calls the model requests. */
  readonly toolCalls?: readonly ToolCall[] | undefined;
  /** The model's reasoning, as text or a {@link ReasoningContent}. */
  readonly reasoning?: string | ReasoningContent | undefined;
}

const emptyMeta: ChatMessageMeta = Object.freeze({});

/**
 * Set by the factories right before `new ChatMessage(...)` when every part is a frozen, checked copy
 * they just built (and the role is theirs): the constructor then freezes the list without checking
 * each part again. The constructor resets it first thing, so it never leaks to another call.
 */
let trustedParts = false;

/**
 * Set by {@link fromAssistantWithOwnMeta}: the message's `meta` was built for it alone, so the
 * constructor freezes it as it is instead of copying it. Reset like {@link trustedParts}.
 */
let ownMeta = false;

/**
 * Internal to `@junction/llm` (not exported from the package): {@link ChatMessage.fromAssistant} for a
 * generator that built `meta` itself for this one message (nobody else holds it), which is then frozen
 * in place instead of copied — one copy fewer per model reply.
 */
export function fromAssistantWithOwnMeta(init: AssistantMessageInit): ChatMessage {
  ownMeta = true;
  try {
    return ChatMessage.fromAssistant(init);
  } finally {
    ownMeta = false;
  }
}

/**
 * A message from parts that are already checked frozen copies (the factories' path). `meta` is checked
 * here against the value limits, so the error names the factory (`what`).
 */
function fromCheckedParts(
  what: string,
  role: ChatRole,
  content: ContentPart[] | readonly ContentPart[],
  name: string | undefined,
  meta: ChatMessageMeta | undefined,
): ChatMessage {
  if (isRecord(meta) && findValueProblem(meta) !== undefined) {
    const issues: Issue[] = [];
    checkValueLimits(meta, ["meta"], issues);
    fail(what, issues);
  }
  const init: ChatMessageInit = { role, content, name, meta };
  trustedParts = true;
  return new ChatMessage(init);
}

/** A frozen text part. */
function textPart(text: string): ContentPart {
  return Object.freeze({ type: "text", text });
}

function fail(what: string, issues: Issue[]): never {
  throw new MessageFormatError(
    `${what}: invalid message (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
    { issues },
  );
}

/**
 * One message of a conversation: a role plus content parts (text, tool calls, tool results,
 * reasoning, images). Immutable: the message, its parts and its metadata are frozen copies.
 *
 * Build messages with the factories {@link ChatMessage.fromUser}, {@link ChatMessage.fromSystem},
 * {@link ChatMessage.fromAssistant} and {@link ChatMessage.fromTool}.
 *
 * @example
 * ```ts
 * const question = ChatMessage.fromUser("What is the weather in Berlin?");
 * const reply = ChatMessage.fromAssistant({
 *   toolCalls: [{ toolName: "weather", arguments: { city: "Berlin" }, id: "call_1" }],
 * });
 * reply.toolCall?.toolName; // "weather"
 * ```
 */
export class ChatMessage {
  /** Who sent the message. */
  readonly role: ChatRole;
  /** The content parts, in order. */
  readonly content: readonly ContentPart[];
  /** The participant name, if any. */
  readonly name: string | undefined;
  /** Metadata (model, finish_reason, usage, ...). */
  readonly meta: ChatMessageMeta;

  /**
   * Creates a message from already-built parts; prefer the `from*` factories.
   *
   * @param init - role, content parts, optional name and metadata
   * @throws MessageFormatError listing every invalid part
   */
  constructor(init: ChatMessageInit) {
    const trusted = trustedParts;
    const metaIsOwn = ownMeta;
    trustedParts = false;
    ownMeta = false;
    if (trusted) {
      // Parts built and checked by a factory a moment ago: freeze the list, check name and meta.
      if (init.name !== undefined && typeof init.name !== "string")
        fail("new ChatMessage", [{ path: ["name"], message: "must be a string when given." }]);
      if (init.meta !== undefined && !isRecord(init.meta))
        fail("new ChatMessage", [{ path: ["meta"], message: "must be an object." }]);
      this.role = init.role;
      this.content = Object.freeze(init.content);
      this.name = init.name;
      if (init.meta === undefined) this.meta = emptyMeta;
      else this.meta = Object.freeze(metaIsOwn ? init.meta : copyRecord(init.meta));
      Object.freeze(this);
      return;
    }
    const issues: Issue[] = [];
    if (!chatRoles.includes(init.role))
      issues.push({
        path: ["role"],
        message: `unknown role ${quoteExcerpt(init.role)}; expected one of ${chatRoles.map((r) => `"${r}"`).join(", ")}.`,
      });
    const content: ContentPart[] = [];
    if (!Array.isArray(init.content))
      issues.push({ path: ["content"], message: "must be an array of content parts." });
    else
      init.content.forEach((part, index) => {
        const checked = checkPart(part, ["content", index], issues);
        if (checked !== undefined) content.push(checked);
      });
    if (init.name !== undefined && typeof init.name !== "string")
      issues.push({ path: ["name"], message: "must be a string when given." });
    if (init.meta !== undefined && !isRecord(init.meta))
      issues.push({ path: ["meta"], message: "must be an object." });
    else if (init.meta !== undefined) checkValueLimits(init.meta, ["meta"], issues);
    if (issues.length > 0) fail("new ChatMessage", issues);
    this.role = init.role;
    this.content = Object.freeze(content);
    this.name = init.name;
    this.meta = init.meta === undefined ? emptyMeta : Object.freeze(copyRecord(init.meta));
    Object.freeze(this);
  }

  /**
   * A message from the user: a text, or `{ parts }` mixing text and images.
   *
   * @param content - the text, or `{ parts: [...] }` (strings are text parts)
   * @param options - metadata and participant name
   * @example
   * ```ts
   * ChatMessage.fromUser("Hi");
   * ChatMessage.fromUser({ parts: ["Describe this", { type: "image", image: { base64Image: png, mimeType: "image/png" } }] });
   * ```
   */
  static fromUser(
    content: string | { readonly parts: readonly UserContentPart[] },
    options: ChatMessageOptions = {},
  ): ChatMessage {
    if (typeof content === "string")
      return fromCheckedParts(
        "ChatMessage.fromUser",
        "user",
        [textPart(content)],
        options.name,
        options.meta,
      );
    const issues: Issue[] = [];
    if (!isRecord(content) || !Array.isArray(content.parts)) {
      issues.push({ path: [], message: "expected a text or { parts: [...] }." });
      fail("ChatMessage.fromUser", issues);
    }
    if (content.parts.length === 0)
      issues.push({ path: ["parts"], message: "a user message needs at least one part (text or image)." });
    const parts = content.parts.map((part, index) => checkTextOrImagePart(part, ["parts", index], issues));
    if (issues.length > 0) fail("ChatMessage.fromUser", issues);
    return fromCheckedParts(
      "ChatMessage.fromUser",
      "user",
      parts as ContentPart[],
      options.name,
      options.meta,
    );
  }

  /**
   * A system message (instructions for the model).
   *
   * @param text - the instructions
   * @param options - metadata and participant name
   */
  static fromSystem(text: string, options: ChatMessageOptions = {}): ChatMessage {
    if (typeof text !== "string")
      fail("ChatMessage.fromSystem", [{ path: ["text"], message: "must be a string." }]);
    return fromCheckedParts("ChatMessage.fromSystem", "system", [textPart(text)], options.name, options.meta);
  }

  /**
   * A reply from the model. Content order follows the reference: reasoning, text, tool calls.
   *
   * @param init - a text, or `{ text?, toolCalls?, reasoning?, meta?, name? }`
   * @example
   * ```ts
   * ChatMessage.fromAssistant({ text: "Done.", meta: { finish_reason: "stop" } });
   * ```
   */
  static fromAssistant(init: string | AssistantMessageInit = {}): ChatMessage {
    if (typeof init === "string")
      return fromCheckedParts(
        "ChatMessage.fromAssistant",
        "assistant",
        [textPart(init)],
        undefined,
        undefined,
      );
    const issues: Issue[] = [];
    const content: ContentPart[] = [];
    if (init.reasoning !== undefined && init.reasoning !== "") {
      const reasoning = checkReasoning(init.reasoning, ["reasoning"], issues);
      if (reasoning !== undefined) content.push(Object.freeze({ type: "reasoning", reasoning }));
    }
    if (init.text !== undefined) {
      if (typeof init.text === "string") content.push(textPart(init.text));
      else issues.push({ path: ["text"], message: "must be a string." });
    }
    if (init.toolCalls !== undefined) {
      if (!Array.isArray(init.toolCalls))
        issues.push({ path: ["toolCalls"], message: "must be an array of tool calls." });
      else
        init.toolCalls.forEach((call, index) => {
          const toolCall = checkToolCall(call, ["toolCalls", index], issues);
          if (toolCall !== undefined) content.push(Object.freeze({ type: "tool_call", toolCall }));
        });
    }
    if (issues.length > 0) fail("ChatMessage.fromAssistant", issues);
    return fromCheckedParts("ChatMessage.fromAssistant", "assistant", content, init.name, init.meta);
  }

  /**
   * The result of a tool call, sent back to the model.
   *
   * @param result - what the tool returned, as a string (or text/image parts)
   * @param origin - the call that produced it
   * @param options - `error: true` when the tool failed; metadata
   */
  static fromTool(
    result: ToolCallResultContent,
    origin: ToolCall,
    options: { readonly error?: boolean | undefined; readonly meta?: ChatMessageMeta | undefined } = {},
  ): ChatMessage {
    const issues: Issue[] = [];
    const toolCallResult = checkToolCallResult({ result, origin, error: options.error ?? false }, [], issues);
    if (toolCallResult === undefined) fail("ChatMessage.fromTool", issues);
    return fromCheckedParts(
      "ChatMessage.fromTool",
      "tool",
      [Object.freeze({ type: "tool_call_result", toolCallResult })],
      undefined,
      options.meta,
    );
  }

  /** Every text part's text, in order. */
  get texts(): string[] {
    const out: string[] = [];
    for (const part of this.content) if (part.type === "text") out.push(part.text);
    return out;
  }

  /** The first text, or `undefined` when the message has none. */
  get text(): string | undefined {
    for (const part of this.content) if (part.type === "text") return part.text;
    return undefined;
  }

  /** Every tool call, in order. */
  get toolCalls(): ToolCall[] {
    const out: ToolCall[] = [];
    for (const part of this.content) if (part.type === "tool_call") out.push(part.toolCall);
    return out;
  }

  /** The first tool call, or `undefined`. */
  get toolCall(): ToolCall | undefined {
    for (const part of this.content) if (part.type === "tool_call") return part.toolCall;
    return undefined;
  }

  /** Every tool call result, in order. */
  get toolCallResults(): ToolCallResult[] {
    const out: ToolCallResult[] = [];
    for (const part of this.content) if (part.type === "tool_call_result") out.push(part.toolCallResult);
    return out;
  }

  /** The first tool call result, or `undefined`. */
  get toolCallResult(): ToolCallResult | undefined {
    for (const part of this.content) if (part.type === "tool_call_result") return part.toolCallResult;
    return undefined;
  }

  /** Every reasoning part, in order. */
  get reasonings(): ReasoningContent[] {
    const out: ReasoningContent[] = [];
    for (const part of this.content) if (part.type === "reasoning") out.push(part.reasoning);
    return out;
  }

  /** The first reasoning part, or `undefined`. */
  get reasoning(): ReasoningContent | undefined {
    for (const part of this.content) if (part.type === "reasoning") return part.reasoning;
    return undefined;
  }

  /** Every image, in order. */
  get images(): ImageContent[] {
    const out: ImageContent[] = [];
    for (const part of this.content) if (part.type === "image") out.push(part.image);
    return out;
  }

  /** The first image, or `undefined`. */
  get image(): ImageContent | undefined {
    for (const part of this.content) if (part.type === "image") return part.image;
    return undefined;
  }

  /**
   * True when the message was sent by `role`.
   *
   * @param role - the role to compare with
   */
  isFrom(role: ChatRole): boolean {
    return this.role === role;
  }

  /**
   * A copy of this message with `meta` merged over the current metadata.
   *
   * @param meta - keys to add or replace
   */
  withMeta(meta: ChatMessageMeta): ChatMessage {
    // This message's parts are already checked frozen copies.
    return fromCheckedParts("ChatMessage.withMeta", this.role, this.content, this.name, {
      ...this.meta,
      ...meta,
    });
  }

  /** The serialized form `{ role, content: [...], name, meta }`. */
  toJSON(): ChatMessageJSON {
    return {
      role: this.role,
      content: this.content.map(partToJSON),
      name: this.name ?? null,
      meta: this.meta,
    };
  }

  /**
   * Reads a serialized message. Accepts the current shape, the legacy string `content` and the
   * `_role` / `_content` shape of older reference versions.
   *
   * @param value - the serialized message
   * @throws DeserializationError listing every problem with its path
   */
  static fromJSON(value: unknown): ChatMessage {
    const issues: Issue[] = [];
    if (!isRecord(value)) {
      throw new DeserializationError(
        "ChatMessage.fromJSON: expected an object { role, content, name, meta }.",
      );
    }
    const legacy = !("role" in value) && "_role" in value;
    const role = legacy ? value._role : value.role;
    const rawContent = legacy ? value._content : value.content;
    const name = optional(legacy ? value._name : value.name);
    const meta = optional(legacy ? value._meta : value.meta);
    if (typeof role !== "string" || !chatRoles.includes(role as ChatRole)) {
      issues.push({
        path: ["role"],
        message: `${role === undefined ? "the 'role' field is required" : `unknown role ${quoteExcerpt(role)}`}; expected one of ${chatRoles.map((r) => `'${r}'`).join(", ")}.`,
      });
    }
    const content: ContentPart[] = [];
    if (typeof rawContent === "string") content.push({ type: "text", text: rawContent });
    else if (Array.isArray(rawContent))
      rawContent.forEach((part, index) => {
        const checked = partFromJSON(part, ["content", index], issues);
        if (checked !== undefined) content.push(checked);
      });
    else
      issues.push({
        path: ["content"],
        message: "the 'content' field is required and must be a list of content parts.",
      });
    if (name !== undefined && typeof name !== "string")
      issues.push({ path: ["name"], message: "must be a string or null." });
    if (meta !== undefined && !isRecord(meta))
      issues.push({ path: ["meta"], message: "must be an object or null." });
    else if (meta !== undefined) checkValueLimits(meta, ["meta"], issues);
    if (issues.length > 0) {
      throw new DeserializationError(
        `ChatMessage.fromJSON: invalid message (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
        { issues },
      );
    }
    return new ChatMessage({
      role: role as ChatRole,
      content,
      name: name as string | undefined,
      meta: meta as ChatMessageMeta | undefined,
    });
  }
}

function optional(value: unknown): unknown {
  return value === null ? undefined : value;
}

/**
 * The named socket type `"ChatMessage"`: sockets declared with it accept {@link ChatMessage} instances,
 * and type compatibility compares it by name (so `ChatMessage` ↔ `string` conversions can apply).
 *
 * @example
 * ```ts
 * inputs: { messages: z.array(chatMessageSchema) }
 * ```
 */
export const chatMessageSchema = defineNamedType("ChatMessage", z.instanceof(ChatMessage), {
  fromJSON: (value) => (value instanceof ChatMessage ? value : ChatMessage.fromJSON(value)),
  wire: {
    jsonSchema: {
      type: "object",
      description:
        "A chat message: { role, content: [{ text }], name?, meta? } with role one of user, system, assistant, tool.",
      properties: {
        role: { type: "string", enum: [...chatRoles] },
        content: { type: "array", items: { type: "object" } },
        name: { type: ["string", "null"] },
        meta: { type: "object" },
      },
      required: ["role", "content"],
    },
    decode: (value) => (value instanceof ChatMessage ? value : ChatMessage.fromJSON(value)),
  },
});
