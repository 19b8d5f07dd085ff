import * as api from "@junction/llm";
import { expect, test } from "vitest";

test("@junction/llm exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ChatMessage",
    "ComponentTool",
    "ConversionError",
    "MessageFormatError",
    "ScriptedChatGenerator",
    "StreamingChunk",
    "Tool",
    "ToolDefinitionError",
    "ToolInvocationError",
    "Toolset",
    "addUsage",
    "chatGeneratorInputs",
    "chatGeneratorOutputs",
    "chatMessageSchema",
    "chatRoles",
    "finishReasons",
    "flattenTools",
    "isChatGenerator",
    "isTool",
    "streamingCallbackSchema",
    "streamingChunkSchema",
    "stringifyToolResult",
    "tool",
    "toolFromJSON",
    "toolNamePattern",
    "toolResultToString",
    "toolToJSON",
    "toolsFromJSON",
    "toolsSchema",
    "toolsToJSON",
    "toolsetFromJSON",
    "toolsetToJSON",
  ]);
});
