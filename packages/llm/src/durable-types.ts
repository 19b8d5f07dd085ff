import { registerDurableType } from "@junction/core";
import { ChatMessage } from "./messages/chat-message.js";
import { StreamingChunk } from "./streaming/streaming-chunk.js";

/**
 * Internal: registers the LLM value classes for durable step results, so a journaling backend can
 * record model replies, tool results and component outputs that hold them (see `toDurableJSON`).
 */
registerDurableType({
  name: "ChatMessage",
  type: ChatMessage,
  toJSON: (message) => message.toJSON(),
  fromJSON: (json) => ChatMessage.fromJSON(json),
});
registerDurableType({
  name: "StreamingChunk",
  type: StreamingChunk,
  toJSON: (chunk) => chunk.toJSON(),
  fromJSON: (json) => StreamingChunk.fromJSON(json),
});
