import { formatIssues, type Issue, runIdPattern } from "@junction/core";
import { MessageFormatError } from "../errors.js";
import { problems } from "../format-issues.js";
import { ChatMessage } from "../messages/chat-message.js";
import { checkMessageValueLimits } from "../messages/message-value-limits.js";
import { ConversationConflictError } from "./conversation-errors.js";

/**
 * Where an agent keeps a conversation between turns: an append-only list of chat messages per
 * conversation id, stored as their JSON (the `ChatMessage` wire shape), nothing but data.
 */

/** What {@link ConversationStore.read} returns. */
export interface ConversationHistory {
  /** The messages asked for (all, or the tail), oldest first. */
  readonly messages: ChatMessage[];
  /** The position of `messages[0]` in the whole conversation (0 when it starts at the beginning). */
  readonly from: number;
  /** How many messages the conversation holds in all. */
  readonly length: number;
  /** The summary saved with {@link ConversationStore.setSummary}, if any. */
  readonly summary: ConversationSummary | undefined;
}

/** A message that stands for the conversation's first `covers` messages. */
export interface ConversationSummary {
  /** The summary (usually a system or user message). */
  readonly message: ChatMessage;
  /** How many messages, from the start, it replaces. */
  readonly covers: number;
}

/** Which messages {@link ConversationStore.read} returns. */
export interface ConversationReadOptions {
  /** Only the last `last` messages (a tail read: older ones are not read). Default: all. */
  readonly last?: number | undefined;
  /** Only messages from this position on. Default 0. */
  readonly from?: number | undefined;
}

/** Options of {@link ConversationStore.append}. */
export interface ConversationAppendOptions {
  /**
   * The conversation's length the writer read. When another writer appended since, the append is
   * refused with a {@link ConversationConflictError}, so turns never interleave.
   */
  readonly expectedLength?: number | undefined;
}

/** A conversation as listed by {@link ConversationStore.list}. */
export interface ConversationInfo {
  readonly id: string;
  /** How many messages it holds. */
  readonly length: number;
  /** When it was last written (ISO 8601). */
  readonly updatedAt: string;
}

/** What {@link ConversationStore.list} returns. */
export interface ConversationListQuery {
  /** At most this many conversations. */
  readonly limit?: number | undefined;
}

/**
 * Conversations by id. Appends are atomic (all of a turn's messages or none) and, with
 * `expectedLength`, a compare-and-swap: of two turns that read the same history, one is stored and the
 * other refused.
 *
 * Ids are used as directory names: letters, digits, `_`, `-`, `.` up to 128, no leading dot (the run
 * store's run ids).
 */
export interface ConversationStore {
  /**
   * Appends messages at the end of the conversation (created when new).
   *
   * @returns the conversation's new length
   * @throws ConversationConflictError when `expectedLength` is given and the length differs
   */
  append(id: string, messages: readonly ChatMessage[], options?: ConversationAppendOptions): Promise<number>;
  /** Reads the conversation (empty when it does not exist). */
  read(id: string, options?: ConversationReadOptions): Promise<ConversationHistory>;
  /** Saves (replaces) the conversation's summary. */
  setSummary(id: string, summary: ConversationSummary): Promise<void>;
  /** Conversations, most recently written first. */
  list(query?: ConversationListQuery): AsyncIterable<ConversationInfo>;
  /** Deletes the conversation and its summary. */
  delete(id: string): Promise<void>;
}

/** Checks a conversation id (used as a directory name by the file store). */
export function checkConversationId(where: string, id: string): void {
  if (typeof id !== "string" || !runIdPattern.test(id)) {
    throw new TypeError(
      `${where}: ${JSON.stringify(id)} is not a valid conversation id (letters, digits, "_", "-", "." up to 128, no leading dot).`,
    );
  }
}

/** Checks what an append is given. */
export function checkAppend(
  where: string,
  id: string,
  messages: readonly ChatMessage[],
  options: ConversationAppendOptions,
): void {
  checkConversationId(where, id);
  if (!Array.isArray(messages) || !messages.every((message) => message instanceof ChatMessage)) {
    throw new TypeError(`${where}: messages must be a list of ChatMessage instances.`);
  }
  const expected = options.expectedLength;
  if (expected !== undefined && (!Number.isInteger(expected) || expected < 0)) {
    throw new TypeError(`${where}: expectedLength must be a non-negative integer (got ${expected}).`);
  }
  const issues: Issue[] = [];
  messages.forEach((message, index) => {
    checkMessageValueLimits(message, ["messages", index], issues);
  });
  refuseValues(where, issues);
}

/**
 * Refuses to write messages whose values break core's value limits (a nested value of a tool call's
 * arguments grown after the message was built): written, they could not be read back, and the whole
 * conversation would become unreadable. Nothing is written.
 */
function refuseValues(where: string, issues: readonly Issue[]): void {
  if (issues.length === 0) return;
  throw new MessageFormatError(
    `${where}: the messages cannot be stored (${problems(issues)}):\n${formatIssues(issues)}\nNothing was written; the conversation is unchanged.`,
    { issues },
  );
}

/** Refuses an append whose writer read an older conversation. */
export function checkExpectedLength(
  where: string,
  id: string,
  options: ConversationAppendOptions,
  length: number,
): void {
  const expected = options.expectedLength;
  if (expected === undefined || expected === length) return;
  throw new ConversationConflictError(
    `${where}: conversation "${id}" has ${length} messages, not the ${expected} this turn started from; another turn was stored first. Read the conversation again and retry the turn.`,
    { conversationId: id, expectedLength: expected, length },
  );
}

/** The first index of the requested part of a conversation of `length` messages. */
export function readStart(where: string, options: ConversationReadOptions, length: number): number {
  const { last, from } = options;
  if (last !== undefined && (!Number.isInteger(last) || last < 0))
    throw new TypeError(`${where}: last must be a non-negative integer (got ${last}).`);
  if (from !== undefined && (!Number.isInteger(from) || from < 0))
    throw new TypeError(`${where}: from must be a non-negative integer (got ${from}).`);
  return Math.min(length, Math.max(from ?? 0, last === undefined ? 0 : length - last));
}

/** Checks a summary before it is saved. */
export function checkSummary(where: string, id: string, summary: ConversationSummary): void {
  checkConversationId(where, id);
  if (!(summary?.message instanceof ChatMessage))
    throw new TypeError(`${where}: summary.message must be a ChatMessage.`);
  if (!Number.isInteger(summary.covers) || summary.covers < 0)
    throw new TypeError(`${where}: summary.covers must be a non-negative integer.`);
  const issues: Issue[] = [];
  checkMessageValueLimits(summary.message, ["summary", "message"], issues);
  refuseValues(where, issues);
}

interface MemoryConversation {
  messages: unknown[];
  summary: { message: unknown; covers: number } | undefined;
  updatedAt: string;
}

/**
 * A {@link ConversationStore} in memory, for tests and single-process use. Messages are kept as their
 * JSON and read back through `ChatMessage.fromJSON`, like the file store's.
 *
 * @example
 * ```ts
 * const store = new MemoryConversationStore();
 * await store.append("chat-1", [ChatMessage.fromUser("Hi")]);
 * (await store.read("chat-1")).length; // 1
 * ```
 */
export class MemoryConversationStore implements ConversationStore {
  readonly #conversations = new Map<string, MemoryConversation>();

  async append(
    id: string,
    messages: readonly ChatMessage[],
    options: ConversationAppendOptions = {},
  ): Promise<number> {
    const where = `MemoryConversationStore.append("${id}")`;
    checkAppend(where, id, messages, options);
    const conversation = this.#conversations.get(id);
    const length = conversation?.messages.length ?? 0;
    checkExpectedLength(where, id, options, length);
    if (messages.length === 0) return length;
    const json = messages.map((message) => structuredClone(message.toJSON()));
    const updatedAt = new Date().toISOString();
    if (conversation === undefined)
      this.#conversations.set(id, { messages: json, summary: undefined, updatedAt });
    else {
      conversation.messages.push(...json);
      conversation.updatedAt = updatedAt;
      // Most recently written first in list(): move it to the end of the map.
      this.#conversations.delete(id);
      this.#conversations.set(id, conversation);
    }
    return length + messages.length;
  }

  async read(id: string, options: ConversationReadOptions = {}): Promise<ConversationHistory> {
    const where = `MemoryConversationStore.read("${id}")`;
    checkConversationId(where, id);
    const conversation = this.#conversations.get(id);
    const length = conversation?.messages.length ?? 0;
    const from = readStart(where, options, length);
    const summary = conversation?.summary;
    return {
      messages: (conversation?.messages.slice(from) ?? []).map((json) =>
        ChatMessage.fromJSON(structuredClone(json)),
      ),
      from,
      length,
      summary:
        summary === undefined
          ? undefined
          : { message: ChatMessage.fromJSON(structuredClone(summary.message)), covers: summary.covers },
    };
  }

  async setSummary(id: string, summary: ConversationSummary): Promise<void> {
    checkSummary(`MemoryConversationStore.setSummary("${id}")`, id, summary);
    const conversation = this.#conversations.get(id) ?? {
      messages: [],
      summary: undefined,
      updatedAt: new Date().toISOString(),
    };
    conversation.summary = { message: structuredClone(summary.message.toJSON()), covers: summary.covers };
    this.#conversations.set(id, conversation);
  }

  async *list(query: ConversationListQuery = {}): AsyncIterable<ConversationInfo> {
    let count = 0;
    for (const [id, conversation] of [...this.#conversations].reverse()) {
      if (count++ >= (query.limit ?? Number.POSITIVE_INFINITY)) return;
      yield { id, length: conversation.messages.length, updatedAt: conversation.updatedAt };
    }
  }

  async delete(id: string): Promise<void> {
    checkConversationId(`MemoryConversationStore.delete("${id}")`, id);
    this.#conversations.delete(id);
  }
}
