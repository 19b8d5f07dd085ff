import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { z } from "zod";

/** Chat messages for the scenarios: `@junction/llm`'s `ChatMessage` plus short factories. */

export { ChatMessage, chatMessageSchema };

/** Socket type of a list of chat messages. */
export const chatMessageListSchema = z.array(chatMessageSchema);

/** A user message. */
export function user(text: string): ChatMessage {
  return ChatMessage.fromUser(text);
}

/** A system message. */
export function system(text: string): ChatMessage {
  return ChatMessage.fromSystem(text);
}

/** An assistant message; without text it has no text part. */
export function assistant(text?: string): ChatMessage {
  return ChatMessage.fromAssistant(text === undefined ? {} : { text });
}
