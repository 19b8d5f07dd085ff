import { type ConversionHelpers, type ConversionStrategy, registerConversion } from "@junction/core";
import { z } from "zod";
import { ConversionError } from "../errors.js";
import { ChatMessage, chatMessageSchema } from "./chat-message.js";

/**
 * The reference's message conversions between sockets (§1.3), registered into core's conversion
 * registry when `@junction/llm` is imported. Priorities follow the reference's order for receiver
 * unions: wrap, unwrap, ChatMessage→string, string→ChatMessage, then the wrap/unwrap variants.
 */

const anyString = z.string();

function messageText(value: unknown): string {
  const text = (value as ChatMessage).text;
  if (text === undefined) {
    throw new ConversionError(
      `Cannot convert a ChatMessage to a string: the ${(value as ChatMessage).role} message has no text part. Connect a socket that takes a ChatMessage, or make sure the message has text.`,
    );
  }
  return text;
}

function toUserMessage(value: unknown): ChatMessage {
  return ChatMessage.fromUser(value as string);
}

function onlyItem(value: unknown): unknown {
  const items = value as readonly unknown[];
  if (items.length !== 1) {
    throw new ConversionError(
      items.length === 0
        ? "Cannot unwrap an empty list into a single value."
        : `Cannot unwrap a list of ${items.length} items into a single value: a list-to-single connection only accepts one-element lists (otherwise items would be silently dropped). Connect a socket that takes a list.`,
    );
  }
  return items[0];
}

type Helpers = ConversionHelpers;

const isMessage = (schema: z.ZodType, h: Helpers) =>
  schema === chatMessageSchema || h.isStrictlyCompatible(schema, chatMessageSchema);
const acceptsMessage = (schema: z.ZodType, h: Helpers) => h.isStrictlyCompatible(chatMessageSchema, schema);
const isString = (schema: z.ZodType, h: Helpers) => h.isStrictlyCompatible(schema, anyString);
const acceptsString = (schema: z.ZodType, h: Helpers) => h.isStrictlyCompatible(anyString, schema);
/** Unwrapping is limited to lists of exactly `string` or `ChatMessage` (the reference's guard). */
const isUnwrappable = (element: z.ZodType) =>
  element === chatMessageSchema || element._zod.def.type === "string";

/** The eight strategies, in the reference's priority order. */
const strategies: readonly ConversionStrategy[] = [
  {
    name: "wrap",
    priority: 10,
    match: (sender, receiver, h) => {
      const element = h.arrayElement(receiver);
      return element !== undefined && h.isStrictlyCompatible(sender, element)
        ? (value) => [value]
        : undefined;
    },
  },
  {
    name: "unwrap",
    priority: 20,
    match: (sender, receiver, h) => {
      const element = h.arrayElement(sender);
      return element !== undefined &&
        isUnwrappable(element) &&
        h.arrayElement(receiver) === undefined &&
        h.isStrictlyCompatible(element, receiver)
        ? onlyItem
        : undefined;
    },
  },
  {
    name: "chat_message_to_str",
    priority: 30,
    match: (sender, receiver, h) =>
      isMessage(sender, h) && acceptsString(receiver, h) ? messageText : undefined,
  },
  {
    name: "str_to_chat_message",
    priority: 40,
    match: (sender, receiver, h) =>
      isString(sender, h) && acceptsMessage(receiver, h) ? toUserMessage : undefined,
  },
  {
    name: "wrap_chat_message_to_str",
    priority: 50,
    match: (sender, receiver, h) => {
      const element = h.arrayElement(receiver);
      return element !== undefined && isMessage(sender, h) && acceptsString(element, h)
        ? (value) => [messageText(value)]
        : undefined;
    },
  },
  {
    name: "wrap_str_to_chat_message",
    priority: 60,
    match: (sender, receiver, h) => {
      const element = h.arrayElement(receiver);
      return element !== undefined && isString(sender, h) && acceptsMessage(element, h)
        ? (value) => [toUserMessage(value)]
        : undefined;
    },
  },
  {
    name: "unwrap_chat_message_to_str",
    priority: 70,
    match: (sender, receiver, h) => {
      const element = h.arrayElement(sender);
      return element !== undefined &&
        isMessage(element, h) &&
        h.arrayElement(receiver) === undefined &&
        acceptsString(receiver, h)
        ? (value) => messageText(onlyItem(value))
        : undefined;
    },
  },
  {
    name: "unwrap_str_to_chat_message",
    priority: 80,
    match: (sender, receiver, h) => {
      const element = h.arrayElement(sender);
      return element !== undefined &&
        isString(element, h) &&
        h.arrayElement(receiver) === undefined &&
        acceptsMessage(receiver, h)
        ? (value) => toUserMessage(onlyItem(value))
        : undefined;
    },
  },
];

for (const strategy of strategies) registerConversion(strategy);
