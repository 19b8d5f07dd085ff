import { PipelineValidationError, runIdPattern } from "@junction/core";
import type { ServedPipeline } from "./served-pipeline.js";

/**
 * Conversations over HTTP: a request names its conversation with the `Junction-Conversation-Id`
 * header (or a `conversation_id` field), and the server passes the id to every Agent of the pipeline
 * that keeps conversations (its `conversation_id` input), so the history stays on the server.
 */

/** The request header naming the conversation. */
export const conversationHeader = "Junction-Conversation-Id";

/** The input fields that take a conversation id (an Agent's `conversation_id` socket). */
function conversationFields(served: ServedPipeline) {
  return served.io.inputs.filter((field) =>
    field.sockets.some((socket) => socket.endsWith(".conversation_id")),
  );
}

/** True when the pipeline keeps conversations (some Agent in it has a `conversation` option). */
export function keepsConversations(served: ServedPipeline): boolean {
  return conversationFields(served).length > 0;
}

/**
 * The request with the conversation id at every conversation field a caller left out.
 *
 * @throws PipelineValidationError when the id is not a valid conversation id or the pipeline keeps none
 */
export function withConversationId(
  served: ServedPipeline,
  request: unknown,
  id: string | undefined,
): unknown {
  if (id === undefined) return request;
  const where = `pipeline "${served.name}"`;
  if (!runIdPattern.test(id)) {
    throw new PipelineValidationError(`${where}: invalid conversation id.`, {
      issues: [
        {
          path: [conversationHeader],
          message: `${JSON.stringify(id.slice(0, 140))} is not a conversation id (letters, digits, "_", "-", "." up to 128, no leading dot).`,
        },
      ],
    });
  }
  const fields = conversationFields(served);
  if (fields.length === 0) {
    throw new PipelineValidationError(`${where} keeps no conversations.`, {
      issues: [
        {
          path: [conversationHeader],
          message: "no Agent of this pipeline has a conversation option, so a conversation id has no effect.",
        },
      ],
    });
  }
  if (typeof request !== "object" || request === null || Array.isArray(request)) return request;
  const out: Record<string, unknown> = { ...(request as Record<string, unknown>) };
  for (const { path } of fields) {
    let target = out;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      const copy = typeof next === "object" && next !== null && !Array.isArray(next) ? { ...next } : {};
      target[key] = copy;
      target = copy as Record<string, unknown>;
    }
    const last = path.at(-1);
    if (last !== undefined && target[last] === undefined) target[last] = id;
  }
  return out;
}
