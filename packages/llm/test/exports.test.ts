import * as api from "@junction/llm";
import { expect, test } from "vitest";

test("@junction/llm exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ChatMessage",
    "MessageFormatError",
    "StreamingChunk",
    "addUsage",
    "chatMessageSchema",
    "chatRoles",
    "finishReasons",
    "streamingChunkSchema",
  ]);
});
