import { DeserializationError } from "@junction/core";
import { ChatMessage, chatMessageSchema, MessageFormatError, type ToolCall } from "@junction/llm";
import { describe, expect, test } from "vitest";

const png =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const call: ToolCall = { toolName: "weather", arguments: { city: "Paris" }, id: "call_1" };

describe("factories and accessors", () => {
  test("fromUser with text", () => {
    const message = ChatMessage.fromUser("Hi", { name: "ada", meta: { some: "info" } });
    expect(message.role).toBe("user");
    expect(message.text).toBe("Hi");
    expect(message.texts).toEqual(["Hi"]);
    expect(message.name).toBe("ada");
    expect(message.meta).toEqual({ some: "info" });
    expect(message.isFrom("user")).toBe(true);
    expect(message.isFrom("assistant")).toBe(false);
    expect(message.toolCalls).toEqual([]);
    expect(message.toolCall).toBeUndefined();
  });

  test("fromUser with an empty text keeps it", () => {
    expect(ChatMessage.fromUser("").text).toBe("");
  });

  test("fromUser with parts mixes text and images", () => {
    const message = ChatMessage.fromUser({
      parts: [
        "Describe",
        { type: "text", text: "this" },
        { type: "image", image: { base64Image: png, mimeType: "image/png" } },
      ],
    });
    expect(message.texts).toEqual(["Describe", "this"]);
    expect(message.images).toHaveLength(1);
    expect(message.image?.mimeType).toBe("image/png");
  });

  test("fromUser rejects empty or unsupported parts", () => {
    expect(() => ChatMessage.fromUser({ parts: [] })).toThrow(/at least one part/);
    expect(() => ChatMessage.fromUser({ parts: [{ type: "tool_call" } as never] })).toThrow(
      MessageFormatError,
    );
  });

  test("images are checked", () => {
    expect(() =>
      ChatMessage.fromUser({
        parts: [{ type: "image", image: { base64Image: "not base64!", mimeType: "text/plain" } }],
      }),
    ).toThrow(/base64Image[\s\S]*mimeType/);
  });

  test("fromSystem", () => {
    const message = ChatMessage.fromSystem("Be brief.");
    expect(message.role).toBe("system");
    expect(message.text).toBe("Be brief.");
  });

  test("fromAssistant orders reasoning, text, tool calls", () => {
    const message = ChatMessage.fromAssistant({
      text: "Let me check",
      toolCalls: [call],
      reasoning: "The user wants weather",
      meta: { finish_reason: "tool_calls", model: "m" },
    });
    expect(message.content.map((part) => part.type)).toEqual(["reasoning", "text", "tool_call"]);
    expect(message.reasoning).toEqual({ reasoningText: "The user wants weather", extra: {} });
    expect(message.toolCall).toEqual(call);
    expect(message.toolCalls).toEqual([call]);
    expect(message.meta.finish_reason).toBe("tool_calls");
  });

  test("fromAssistant with a reasoning object and a plain string", () => {
    const message = ChatMessage.fromAssistant({ reasoning: { reasoningText: "hmm", extra: { sig: "x" } } });
    expect(message.reasonings).toEqual([{ reasoningText: "hmm", extra: { sig: "x" } }]);
    expect(message.text).toBeUndefined();
    expect(ChatMessage.fromAssistant("Hello").text).toBe("Hello");
  });

  test("fromAssistant rejects invalid reasoning and tool calls, listing every problem", () => {
    try {
      ChatMessage.fromAssistant({
        reasoning: 1 as never,
        toolCalls: [{ toolName: "", arguments: [] } as never],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MessageFormatError);
      expect((error as MessageFormatError).issues.map((issue) => issue.path.join("."))).toEqual([
        "reasoning",
        "toolCalls.0.toolName",
        "toolCalls.0.arguments",
      ]);
    }
  });

  test("fromTool", () => {
    const message = ChatMessage.fromTool("22°C", call);
    expect(message.role).toBe("tool");
    expect(message.toolCallResult).toEqual({ result: "22°C", origin: call, error: false });
    expect(message.toolCallResults).toHaveLength(1);
    expect(message.text).toBeUndefined();
    expect(ChatMessage.fromTool("boom", call, { error: true }).toolCallResult?.error).toBe(true);
  });

  test("fromTool with mixed content", () => {
    const message = ChatMessage.fromTool(
      [
        { type: "text", text: "a chart" },
        { type: "image", image: { base64Image: png, mimeType: "image/png" } },
      ],
      call,
    );
    expect(message.toolCallResult?.result).toHaveLength(2);
  });

  test("multiple text segments: text is the first", () => {
    const message = new ChatMessage({
      role: "user",
      content: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    });
    expect(message.text).toBe("one");
    expect(message.texts).toEqual(["one", "two"]);
  });

  test("the constructor rejects an unknown role", () => {
    expect(() => new ChatMessage({ role: "function" as never, content: [] })).toThrow(
      /unknown role "function"/,
    );
  });
});

describe("immutability", () => {
  test("messages, parts and meta are frozen copies", () => {
    const args = { city: "Paris" };
    const meta = { model: "m" };
    const message = ChatMessage.fromAssistant({ toolCalls: [{ toolName: "w", arguments: args }], meta });
    expect(Object.isFrozen(message)).toBe(true);
    expect(Object.isFrozen(message.content)).toBe(true);
    expect(Object.isFrozen(message.toolCall)).toBe(true);
    expect(Object.isFrozen(message.toolCall?.arguments)).toBe(true);
    expect(Object.isFrozen(message.meta)).toBe(true);
    args.city = "Rome";
    meta.model = "other";
    expect(message.toolCall?.arguments).toEqual({ city: "Paris" });
    expect(message.meta.model).toBe("m");
    expect(Object.isFrozen(args)).toBe(false);
  });

  test("every factory's parts are frozen, and a tool result's origin is a checked frozen call", () => {
    const reply = ChatMessage.fromAssistant({
      text: "t",
      reasoning: "r",
      toolCalls: [{ toolName: "w", arguments: {} }],
    });
    const result = ChatMessage.fromTool("ok", reply.toolCall!);
    const messages = [
      ChatMessage.fromUser("u"),
      ChatMessage.fromUser({ parts: ["a"] }),
      ChatMessage.fromSystem("s"),
      ChatMessage.fromAssistant("a"),
      reply,
      reply.withMeta({ extra: 1 }),
      result,
    ];
    for (const message of messages) {
      expect(Object.isFrozen(message)).toBe(true);
      expect(Object.isFrozen(message.content)).toBe(true);
      for (const part of message.content) expect(Object.isFrozen(part)).toBe(true);
    }
    expect(result.toolCallResult?.origin).toEqual(reply.toolCall);
    expect(Object.isFrozen(result.toolCallResult?.origin)).toBe(true);
    expect(() => ChatMessage.fromTool("x", { toolName: "", arguments: {} })).toThrow(/toolName/);
    const plain = { toolName: "w", arguments: {} };
    expect(ChatMessage.fromTool("x", plain).toolCallResult?.origin).not.toBe(plain);
  });

  test('a "__proto__" key in meta or arguments (from JSON) is copied as data, never as a prototype', () => {
    const meta = JSON.parse('{"__proto__": {"polluted": true}, "model": "m"}') as Record<string, unknown>;
    const args = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const message = ChatMessage.fromAssistant({ toolCalls: [{ toolName: "w", arguments: args }], meta });
    expect(Object.getPrototypeOf(message.meta)).toBe(Object.prototype);
    expect(Object.hasOwn(message.meta, "__proto__")).toBe(true);
    expect((message.meta as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(message.toolCall!.arguments)).toBe(Object.prototype);
    expect(Object.hasOwn(message.toolCall!.arguments, "__proto__")).toBe(true);
  });

  test("a factory's name and meta are still checked", () => {
    expect(() => ChatMessage.fromUser("x", { name: 1 as never })).toThrow(/name/);
    expect(() => ChatMessage.fromAssistant({ text: "x", meta: "m" as never })).toThrow(/meta/);
  });

  test("withMeta returns a new message", () => {
    const message = ChatMessage.fromUser("x", { meta: { a: 1 } });
    const updated = message.withMeta({ b: 2 });
    expect(updated.meta).toEqual({ a: 1, b: 2 });
    expect(message.meta).toEqual({ a: 1 });
  });
});

describe("serialization", () => {
  test("round trip of every part kind in the reference's shape", () => {
    const messages = [
      ChatMessage.fromUser(
        {
          parts: ["Hi", { type: "image", image: { base64Image: png, mimeType: "image/png", detail: "low" } }],
        },
        { name: "ada" },
      ),
      ChatMessage.fromSystem("sys"),
      ChatMessage.fromAssistant({
        text: "ok",
        toolCalls: [call],
        reasoning: "why",
        meta: { model: "m", usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
      }),
      ChatMessage.fromTool("22", call, { error: true }),
    ];
    for (const message of messages) {
      const json = JSON.parse(JSON.stringify(message));
      expect(ChatMessage.fromJSON(json)).toEqual(message);
      expect(ChatMessage.fromJSON(json).toJSON()).toEqual(json);
    }
    expect(messages[2]?.toJSON()).toEqual({
      role: "assistant",
      name: null,
      meta: { model: "m", usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
      content: [
        { reasoning: { reasoning_text: "why", extra: {} } },
        { text: "ok" },
        { tool_call: { tool_name: "weather", arguments: { city: "Paris" }, id: "call_1", extra: null } },
      ],
    });
    expect(messages[3]?.toJSON().content).toEqual([
      {
        tool_call_result: {
          result: "22",
          origin: { tool_name: "weather", arguments: { city: "Paris" }, id: "call_1", extra: null },
          error: true,
        },
      },
    ]);
    expect(messages[0]?.toJSON().content[1]).toEqual({
      image: { base64_image: png, mime_type: "image/png", detail: "low", meta: {} },
    });
  });

  test("reads the legacy string content and the _role/_content shape", () => {
    expect(ChatMessage.fromJSON({ role: "user", content: "hello" }).text).toBe("hello");
    const legacy = ChatMessage.fromJSON({
      _role: "assistant",
      _content: [{ text: "hi" }],
      _name: null,
      _meta: { a: 1 },
    });
    expect(legacy.role).toBe("assistant");
    expect(legacy.text).toBe("hi");
    expect(legacy.meta).toEqual({ a: 1 });
  });

  test("missing name and meta default", () => {
    const message = ChatMessage.fromJSON({ role: "user", content: [{ text: "x" }] });
    expect(message.name).toBeUndefined();
    expect(message.meta).toEqual({});
  });

  test("reads the flat (model_dump) part shapes", () => {
    const message = ChatMessage.fromJSON({
      role: "assistant",
      content: [{ tool_name: "t", arguments: { a: 1 }, id: null }, { reasoning_text: "r" }],
    });
    expect(message.toolCall).toEqual({ toolName: "t", arguments: { a: 1 } });
    expect(message.reasoning?.reasoningText).toBe("r");
  });

  test("invalid shapes throw one DeserializationError listing every problem", () => {
    try {
      ChatMessage.fromJSON({
        role: "robot",
        content: [
          { unknown: 1 },
          { tool_call: { arguments: {} } },
          { tool_call_result: { result: "x", origin: {} } },
        ],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DeserializationError);
      const paths = (error as DeserializationError).issues.map((issue) => issue.path.join("."));
      expect(paths).toEqual([
        "role",
        "content.0",
        "content.1.tool_call.tool_name",
        "content.2.tool_call_result.origin.tool_name",
        "content.2.tool_call_result.origin.arguments",
        "content.2.tool_call_result.error",
      ]);
      expect((error as Error).message).toMatch(
        /'text', 'image', 'reasoning', 'tool_call' or 'tool_call_result'/,
      );
    }
  });

  test("missing role or content", () => {
    expect(() => ChatMessage.fromJSON({ content: [] })).toThrow(/'role' field is required/);
    expect(() => ChatMessage.fromJSON({ role: "user" })).toThrow(/'content' field is required/);
    expect(() => ChatMessage.fromJSON("user")).toThrow(DeserializationError);
  });
});

test("chatMessageSchema accepts only ChatMessage instances", () => {
  expect(chatMessageSchema.safeParse(ChatMessage.fromUser("x")).success).toBe(true);
  expect(chatMessageSchema.safeParse({ role: "user", content: [] }).success).toBe(false);
});
