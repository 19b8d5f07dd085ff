import { JunctionError, type JunctionErrorFields } from "@junction/core";

/** Fields of a {@link ConversationConflictError}. */
export interface ConversationConflictErrorFields extends JunctionErrorFields {
  readonly conversationId: string;
  /** The length the refused turn started from. */
  readonly expectedLength: number;
  /** The conversation's length when the append was refused. */
  readonly length: number;
}

/**
 * A turn was not stored because another turn on the same conversation was stored after this one read
 * the history (two processes answering one conversation at once). Nothing of the refused turn was
 * written; run it again on the new history.
 *
 * @example
 * ```ts
 * try { await agent.run({ messages, conversation_id: "chat-1" }); } catch (error) {
 *   if (error instanceof ConversationConflictError) console.log(error.conversationId, error.length);
 * }
 * ```
 */
export class ConversationConflictError extends JunctionError {
  /** The conversation concerned. */
  readonly conversationId: string;
  /** The length the refused turn started from. */
  readonly expectedLength: number;
  /** The conversation's length when the append was refused. */
  readonly length: number;

  /** @param message - what conflicted and how to retry @param fields - the conversation and lengths */
  constructor(message: string, fields: ConversationConflictErrorFields) {
    super("CONVERSATION_CONFLICT", message, fields);
    this.conversationId = fields.conversationId;
    this.expectedLength = fields.expectedLength;
    this.length = fields.length;
  }
}
