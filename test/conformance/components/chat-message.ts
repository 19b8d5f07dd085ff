import { defineNamedType } from "@junction/core";
import { z } from "zod";

// TODO: replace with @junction/llm ChatMessage (and its chatMessageSchema + registered conversions) once it is
// exported; only this file should need to change, since scenarios build messages through user/assistant/system.

/** The role of a chat message. */
export type ChatRole = "user" | "system" | "assistant" | "tool";

/** A minimal chat message: a role and text parts (test stand-in). */
export class ChatMessage {
  readonly role: ChatRole;
  readonly content: readonly { readonly text: string }[];
  readonly meta: Readonly<Record<string, unknown>>;

  constructor(role: ChatRole, text: string | undefined, meta: Record<string, unknown> = {}) {
    this.role = role;
    this.content = text === undefined ? [] : [{ text }];
    this.meta = meta;
  }

  /** The first text part, or `undefined`. */
  get text(): string | undefined {
    return this.content[0]?.text;
  }

  /** A user message. */
  static fromUser(text: string): ChatMessage {
    return new ChatMessage("user", text);
  }

  /** A system message. */
  static fromSystem(text: string): ChatMessage {
    return new ChatMessage("system", text);
  }

  /** An assistant message; without text it has no text part. */
  static fromAssistant(text?: string, meta?: Record<string, unknown>): ChatMessage {
    return new ChatMessage("assistant", text, meta);
  }
}

/** Socket type of one chat message. */
export const chatMessageSchema = defineNamedType("conformance.ChatMessage", z.instanceof(ChatMessage));
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

/** An assistant message. */
export function assistant(text?: string, meta?: Record<string, unknown>): ChatMessage {
  return ChatMessage.fromAssistant(text, meta);
}
