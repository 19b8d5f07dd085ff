import { copyUntrusted, DeserializationError, formatIssues, type Issue, maxValueDepth } from "@junction/core";
import { ChatMessage } from "../messages/chat-message.js";

/**
 * The file store's records, read as untrusted data: each line of `messages.jsonl` is one append
 * `{ "v": 1, "at": <position of its first message>, "messages": [<ChatMessage JSON>, …] }`, and
 * `summary.json` is `{ "v": 1, "covers": <count>, "message": <ChatMessage JSON> }`. Nothing in them is
 * ever run: they are parsed as JSON, bounded, and checked field by field.
 */

/** One append, as read back. */
export interface ConversationRecord {
  /** The position of its first message in the conversation. */
  readonly at: number;
  readonly messages: ChatMessage[];
}

/** A line longer than this is refused without being parsed. */
export const maxRecordLength = 32 * 1024 * 1024;

/**
 * The levels a record adds around a message's free-form value: the record, its `messages` list, the
 * message, its `content` list, the part, `tool_call_result`, `origin`, then the `arguments` value.
 */
const recordStructureDepth = 8;

/**
 * Bounds for one record: every message a store writes (its values nest at most `maxValueDepth` levels,
 * checked before writing) is read back; deeper records were not written by a store.
 */
const recordLimits = { maxDepth: maxValueDepth + recordStructureDepth, maxNodes: 1_000_000 };

function fail(where: string, problem: string, issues: readonly Issue[] = []): never {
  const details = issues.length > 0 ? `\n${formatIssues(issues)}` : "";
  throw new DeserializationError(
    `${where}: ${problem}${details}\nThe file was not written by a Junction conversation store, or was changed by hand. Move it away (or delete the conversation) to start the conversation again.`,
    { issues },
  );
}

function parseJSON(text: string, where: string): Record<string, unknown> {
  if (text.length > maxRecordLength)
    fail(where, `the record is longer than ${maxRecordLength} characters; it is refused.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(where, `not JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const issues: Issue[] = [];
  const copy = copyUntrusted(value, [], issues, recordLimits);
  if (issues.length > 0) fail(where, "the record is refused:", issues);
  if (typeof copy !== "object" || copy === null || Array.isArray(copy))
    fail(where, "expected an object { v, at, messages }.");
  const record = copy as Record<string, unknown>;
  if (record.v !== 1) fail(where, `unknown record version ${JSON.stringify(record.v)} (expected 1).`);
  return record;
}

function readMessage(value: unknown, path: (string | number)[], issues: Issue[]): ChatMessage | undefined {
  try {
    return ChatMessage.fromJSON(value);
  } catch (error) {
    issues.push({ path, message: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** Reads one line of `messages.jsonl`. `where` names the file and line. */
export function parseConversationRecord(text: string, where: string): ConversationRecord {
  const record = parseJSON(text, where);
  const issues: Issue[] = [];
  for (const key of Object.keys(record)) {
    if (!["v", "at", "messages"].includes(key)) issues.push({ path: [key], message: "unknown field." });
  }
  const at = record.at;
  if (typeof at !== "number" || !Number.isSafeInteger(at) || at < 0)
    issues.push({ path: ["at"], message: "must be a non-negative integer." });
  const messages: ChatMessage[] = [];
  if (!Array.isArray(record.messages) || record.messages.length === 0)
    issues.push({ path: ["messages"], message: "must be a non-empty list of chat messages." });
  else {
    record.messages.forEach((value, index) => {
      const message = readMessage(value, ["messages", index], issues);
      if (message !== undefined) messages.push(message);
    });
  }
  if (issues.length > 0) fail(where, "not a valid conversation record:", issues);
  return { at: at as number, messages };
}

/** Reads `summary.json`. */
export function parseConversationSummary(
  text: string,
  where: string,
): { message: ChatMessage; covers: number } {
  const record = parseJSON(text, where);
  const issues: Issue[] = [];
  for (const key of Object.keys(record)) {
    if (!["v", "covers", "message"].includes(key)) issues.push({ path: [key], message: "unknown field." });
  }
  const covers = record.covers;
  if (typeof covers !== "number" || !Number.isSafeInteger(covers) || covers < 0)
    issues.push({ path: ["covers"], message: "must be a non-negative integer." });
  const message = readMessage(record.message, ["message"], issues);
  if (issues.length > 0 || message === undefined) fail(where, "not a valid conversation summary:", issues);
  return { message, covers: covers as number };
}

/** Fails when consecutive records do not follow each other (`next.at` must be `previous.at + count`). */
export function checkSequence(previous: ConversationRecord, next: ConversationRecord, where: string): void {
  const expected = previous.at + previous.messages.length;
  if (next.at !== expected)
    fail(where, `the record starts at message ${next.at}, but the one before it ends at ${expected}.`);
}
