import { DeserializationError, JunctionError, maxValueDepth } from "@junction/core";
import {
  ChatMessage,
  type ConversationStore,
  FileConversationStore,
  MemoryConversationStore,
  MessageFormatError,
  ToolInvocationError,
  tool,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { useTempDirs } from "../../../test/support/temp-dirs.js";

/**
 * Values nested deeper than core's `maxValueDepth` inside messages and tool arguments: refused with an
 * error naming the field and the limit when the message is built or read and when a tool validates its
 * arguments, so no later `JSON.stringify` (a conversation store, serve, a snapshot) or zod walk ends in a
 * `RangeError`.
 */

const tempDir = useTempDirs("deep-values");

/** `{ a: { a: … "leaf" } }` nesting `depth` objects (built iteratively: any depth). */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level++) value = { a: value };
  return value as Record<string, unknown>;
}

/** The innermost object of {@link nested}. */
function innermost(value: Record<string, unknown>): Record<string, unknown> {
  let current = value;
  while (typeof current.a === "object" && current.a !== null) current = current.a as Record<string, unknown>;
  return current;
}

function thrown(run: () => unknown): JunctionError {
  try {
    run();
  } catch (error) {
    expect(error).not.toBeInstanceOf(RangeError);
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an error");
}

const limit = /deeper than 1,000 levels, the limit for values in a run \(maxValueDepth\)\. Flatten it/;

describe("ChatMessage.fromJSON", () => {
  const call = (args: unknown, extra: unknown = null) => ({
    tool_call: { tool_name: "search", arguments: args, id: "c1", extra },
  });

  test.each([
    [
      "tool call arguments",
      { role: "assistant", content: [call(nested(10_000))] },
      "content.0.tool_call.arguments",
    ],
    [
      "tool call extra",
      { role: "assistant", content: [call({}, nested(10_000))] },
      "content.0.tool_call.extra",
    ],
    [
      "a tool result's origin",
      {
        role: "tool",
        content: [
          {
            tool_call_result: {
              result: "ok",
              origin: { tool_name: "search", arguments: nested(10_000), id: "c1" },
              error: false,
            },
          },
        ],
      },
      "content.0.tool_call_result.origin.arguments",
    ],
    ["meta", { role: "user", content: [{ text: "hi" }], meta: nested(10_000) }, "meta"],
    [
      "reasoning extra",
      { role: "assistant", content: [{ reasoning: { reasoning_text: "r", extra: nested(10_000) } }] },
      "content.0.reasoning.extra",
    ],
  ])("refuses %s nested 10,000 deep, naming the field and the limit", (_what, json, path) => {
    const error = thrown(() => ChatMessage.fromJSON(json));
    expect(error).toBeInstanceOf(DeserializationError);
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual([path]);
    expect(error.message).toMatch(limit);
  });

  test("reads arguments of exactly maxValueDepth levels, and the message serializes again", () => {
    const message = ChatMessage.fromJSON({ role: "assistant", content: [call(nested(maxValueDepth))] });
    const text = JSON.stringify(message);
    expect(ChatMessage.fromJSON(JSON.parse(text)).toolCall?.arguments).toEqual(nested(maxValueDepth));
    expect(() =>
      ChatMessage.fromJSON({ role: "assistant", content: [call(nested(maxValueDepth + 1))] }),
    ).toThrow(limit);
  });
});

describe("messages built from code", () => {
  test("fromAssistant refuses tool call arguments nested too deep, naming the call", () => {
    const error = thrown(() =>
      ChatMessage.fromAssistant({
        toolCalls: [
          { toolName: "ok", arguments: { q: "x" } },
          { toolName: "search", arguments: nested(maxValueDepth + 1), id: "c2" },
        ],
      }),
    );
    expect(error).toBeInstanceOf(MessageFormatError);
    expect(error.message).toMatch(/^ChatMessage\.fromAssistant: invalid message/);
    expect(error.issues.map((issue) => issue.path)).toEqual([["toolCalls", 1, "arguments"]]);
    expect(error.message).toMatch(limit);
  });

  test("fromTool refuses an origin whose arguments nest too deep; factories refuse a too-deep meta", () => {
    const origin = { toolName: "search", arguments: nested(10_000), id: "c1" };
    expect(thrown(() => ChatMessage.fromTool("ok", origin)).issues.map((issue) => issue.path)).toEqual([
      ["origin", "arguments"],
    ]);
    const meta = thrown(() => ChatMessage.fromUser("hi", { meta: nested(10_000) }));
    expect(meta.message).toMatch(/^ChatMessage\.fromUser: invalid message/);
    expect(meta.issues.map((issue) => issue.path)).toEqual([["meta"]]);
    expect(() => ChatMessage.fromUser("hi").withMeta({ deep: nested(maxValueDepth) })).toThrow(limit);
  });

  test("values at the limit are accepted, and huge sparse arrays are refused", () => {
    const reply = ChatMessage.fromAssistant({
      toolCalls: [{ toolName: "search", arguments: nested(maxValueDepth) }],
      meta: { model: "m", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    });
    expect(() => JSON.stringify(reply)).not.toThrow();
    const list: unknown[] = [];
    list.length = 1_000_000_000;
    const sparse = thrown(() =>
      ChatMessage.fromAssistant({ toolCalls: [{ toolName: "t", arguments: { list } }] }),
    );
    expect(sparse.message).toMatch(/sparse array \(length 1,000,000,000, no entry at index 0\)/);
  });
});

describe("tool arguments nested deeper than the limit", () => {
  const anything = tool({
    name: "anything",
    description: "Takes anything.",
    parameters: z.object({ value: z.unknown() }),
    function: () => "ran",
  });
  type Tree = { a?: Tree | string | undefined };
  const tree: z.ZodType<Tree> = z.lazy(() => z.object({ a: z.union([z.string(), tree]).optional() }));
  const recursive = tool({
    name: "recursive",
    description: "Takes a tree.",
    parameters: z.object({ value: tree }),
    function: () => "ran",
  });
  const jsonSchema = tool({
    name: "json_schema",
    description: "Takes an object.",
    parameters: { type: "object", properties: { value: { type: "object" } } },
    function: () => "ran",
  });

  test.each([
    ["a z.unknown() parameter", anything],
    ["a recursive z.lazy parameter", recursive],
    ["a JSON Schema parameter", jsonSchema],
  ])(
    "are refused for %s: validateArguments names the limit, invoke rejects with a ToolInvocationError",
    async (_what, tool) => {
      const args = { value: nested(100_000) };
      const validated = tool.validateArguments(args);
      expect(validated.success).toBe(false);
      if (!validated.success)
        expect(validated.issues[0]?.message).toMatch(
          /^the arguments object nests objects and arrays deeper than 1,000 levels/,
        );
      const error = await tool.invoke(args).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ToolInvocationError);
      expect((error as Error).message).toMatch(/invalid arguments.*deeper than 1,000 levels/s);
      expect((error as Error).message).toMatch(/Call the tool again/);
    },
  );

  test("arguments at the limit run (a recursive schema too)", async () => {
    expect(await anything.invoke({ value: nested(maxValueDepth - 1) })).toBe("ran");
    expect(await recursive.invoke({ value: nested(maxValueDepth - 1) })).toBe("ran");
  });

  test("a parameters schema that runs out of stack is reported as invalid arguments", async () => {
    const exhausting = tool({
      name: "exhausting",
      description: "Its schema overflows.",
      parameters: z.object({ value: z.unknown() }).refine(() => {
        throw new RangeError("Maximum call stack size exceeded");
      }),
      function: () => "ran",
    });
    const error = await exhausting.invoke({ value: 1 }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ToolInvocationError);
    expect((error as Error).message).toMatch(/validation ran out of stack/);
  });
});

const stores: [string, () => Promise<ConversationStore>][] = [
  ["MemoryConversationStore", async () => new MemoryConversationStore()],
  ["FileConversationStore", async () => new FileConversationStore(await tempDir())],
];

describe.each(stores)("%s with deep tool arguments", (_name, make) => {
  test.each([500, maxValueDepth])("a turn with a %i-deep argument is stored and read back", async (depth) => {
    const store = await make();
    const call = { toolName: "search", arguments: nested(depth), id: "c1" };
    const turn = [
      ChatMessage.fromUser("go"),
      ChatMessage.fromAssistant({ toolCalls: [call] }),
      ChatMessage.fromTool("found", call),
    ];
    expect(await store.append("chat", turn)).toBe(3);
    const { messages } = await store.read("chat");
    expect(messages.map((message) => message.toJSON())).toEqual(turn.map((message) => message.toJSON()));
  });

  test("a 1,001-deep argument is refused at write, naming it; the conversation stays readable", async () => {
    const store = await make();
    await store.append("chat", [ChatMessage.fromUser("first")]);
    // A message checks its arguments when built; a nested value can still be deepened afterwards.
    const args = nested(maxValueDepth);
    const reply = ChatMessage.fromAssistant({ toolCalls: [{ toolName: "search", arguments: args }] });
    innermost(args).a = { a: "deeper" };
    const error = await store.append("chat", [ChatMessage.fromUser("second"), reply]).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(MessageFormatError);
    expect((error as MessageFormatError).issues.map((issue) => issue.path)).toEqual([
      ["messages", 1, "content", 0, "tool_call", "arguments"],
    ]);
    expect((error as Error).message).toMatch(
      /the messages cannot be stored.*deeper than 1,000 levels.*Nothing was written/s,
    );
    const history = await store.read("chat");
    expect(history.messages.map((message) => message.text)).toEqual(["first"]);
    expect(history.length).toBe(1);
    await expect(store.setSummary("chat", { message: reply, covers: 1 })).rejects.toThrow(/cannot be stored/);
  });
});
