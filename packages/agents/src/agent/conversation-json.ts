import { type DeserializeContext, SerializationError, type SerializeContext } from "@junction/core";
import { FileConversationStore } from "@junction/llm";
import type { ConversationOption, HistoryLimit } from "./conversation.js";

/**
 * The conversation options in a pipeline document: a `FileConversationStore` by its directory
 * (`{ store: { type: "junction.FileConversationStore", directory }, id? }`), `historyLimit`'s numbers as
 * they are and its functions by registered name. Other stores hold live state (a
 * `MemoryConversationStore`) or connections, so a document cannot carry them.
 */

const fileStoreType = "junction.FileConversationStore";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Writes the `conversation` option. */
export function conversationToJSON(
  option: ConversationOption,
  context: SerializeContext,
): Record<string, unknown> {
  if (!(option.store instanceof FileConversationStore)) {
    const name = (option.store as { constructor?: { name?: string } }).constructor?.name ?? "this store";
    const message = `the conversation store (${name}) cannot be written to a document; only a FileConversationStore can (by its directory). Build the Agent in code to use another store.`;
    throw new SerializationError(`Agent: ${message}`, {
      issues: [{ path: [...context.path, "conversation", "store"], message }],
    });
  }
  return {
    store: { type: fileStoreType, directory: option.store.directory },
    ...(option.id === undefined ? {} : { id: option.id }),
  };
}

/** Reads the `conversation` option (problems go to `context.issues`). */
export function conversationFromJSON(doc: unknown, context: DeserializeContext): unknown {
  const path = [...context.path, "conversation"];
  if (!isRecord(doc) || !isRecord(doc.store)) {
    context.issues.push({ path, message: "must be { store: { type, directory }, id? }." });
    return undefined;
  }
  const { type, directory } = doc.store;
  if (type !== fileStoreType || typeof directory !== "string" || directory === "") {
    context.issues.push({
      path: [...path, "store"],
      message: `must be { type: "${fileStoreType}", directory: "<path>" }.`,
    });
    return undefined;
  }
  return { ...doc, store: new FileConversationStore(directory) };
}

/** Writes `historyLimit` (functions by registered name). */
export function historyLimitToJSON(limit: HistoryLimit, context: SerializeContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (limit.messages !== undefined) out.messages = limit.messages;
  if (limit.tokens !== undefined) out.tokens = limit.tokens;
  if (limit.countTokens !== undefined)
    out.countTokens = context.functionName(limit.countTokens, ["historyLimit", "countTokens"]);
  if (limit.summarize !== undefined)
    out.summarize = context.functionName(limit.summarize, ["historyLimit", "summarize"]);
  return out;
}

/** Reads `historyLimit`. */
export function historyLimitFromJSON(doc: unknown, context: DeserializeContext): unknown {
  if (!isRecord(doc)) return doc;
  const out: Record<string, unknown> = { ...doc };
  for (const key of ["countTokens", "summarize"] as const) {
    if (doc[key] !== undefined) out[key] = context.resolveFunction(doc[key], ["historyLimit", key]);
  }
  return out;
}
