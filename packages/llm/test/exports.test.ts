import * as api from "@junction/llm";
import { expect, test } from "vitest";

test("@junction/llm exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ChatMessage",
    "ComponentTool",
    "MessageFormatError",
    "StreamingChunk",
    "Tool",
    "ToolDefinitionError",
    "ToolInvocationError",
    "Toolset",
    "addUsage",
    "chatMessageSchema",
    "chatRoles",
    "finishReasons",
    "flattenTools",
    "isTool",
    "streamingChunkSchema",
    "stringifyToolResult",
    "tool",
    "toolNamePattern",
    "toolResultToString",
  ]);
});
