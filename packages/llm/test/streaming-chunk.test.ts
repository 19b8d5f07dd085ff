import { DeserializationError } from "@junction/core";
import {
  addUsage,
  finishReasons,
  invokeStreamingCallback,
  MessageFormatError,
  type StreamingCallback,
  StreamingChunk,
  selectStreamingCallback,
  streamingChunkSchema,
  type ToolCall,
} from "@junction/llm";
import { describe, expect, test } from "vitest";

const call: ToolCall = { toolName: "weather", arguments: { city: "Paris" }, id: "1" };

describe("StreamingChunk", () => {
  test("content and metadata", () => {
    const chunk = new StreamingChunk({ content: "Test content", meta: { key: "value" } });
    expect(chunk.content).toBe("Test content");
    expect(chunk.meta).toEqual({ key: "value" });
    expect(chunk.start).toBe(false);
    expect(chunk.index).toBeUndefined();
  });

  test("empty content is allowed", () => {
    expect(new StreamingChunk({ content: "" }).content).toBe("");
    expect(new StreamingChunk().content).toBe("");
  });

  test("all fields", () => {
    const chunk = new StreamingChunk({
      content: "x",
      meta: { a: 1 },
      componentInfo: { type: "test.Generator", name: "llm" },
      index: 0,
      start: true,
      finishReason: "stop",
    });
    expect(chunk.componentInfo).toEqual({ type: "test.Generator", name: "llm" });
    expect(chunk.finishReason).toBe("stop");
    expect(chunk.start).toBe(true);
  });

  test.each([
    ["tool call", { toolCalls: [{ index: 0, toolName: "weather" }] }],
    ["tool call result", { toolCallResult: { result: "ok", origin: call, error: false } }],
    ["reasoning", { reasoning: "thinking" }],
  ])("content together with a %s is rejected", (_label, extra) => {
    expect(() => new StreamingChunk({ content: "text", index: 0, ...extra })).toThrow(
      /only one of `content`/,
    );
  });

  test("tool calls, tool results and reasoning require an index", () => {
    expect(() => new StreamingChunk({ reasoning: "r" })).toThrow(/`index` is required/);
    expect(() => new StreamingChunk({ toolCalls: [{ index: 0, toolName: "t" }] })).toThrow(
      MessageFormatError,
    );
    const chunk = new StreamingChunk({
      index: 0,
      toolCalls: [{ index: 0, toolName: "t", arguments: '{"a":' }],
    });
    expect(chunk.toolCalls?.[0]).toEqual({ index: 0, toolName: "t", arguments: '{"a":' });
    expect(new StreamingChunk({ index: 1, reasoning: "r" }).reasoning).toEqual({
      reasoningText: "r",
      extra: {},
    });
  });

  test("tool call deltas need an integer index", () => {
    expect(() => new StreamingChunk({ index: 0, toolCalls: [{ toolName: "t" } as never] })).toThrow(
      /integer `index`/,
    );
  });

  test("finish reasons: the standard values and tool_call_results; others are rejected", () => {
    for (const reason of finishReasons)
      expect(new StreamingChunk({ finishReason: reason }).finishReason).toBe(reason);
    expect(finishReasons).toEqual(["stop", "length", "tool_calls", "content_filter", "tool_call_results"]);
    expect(() => new StreamingChunk({ finishReason: "done" as never })).toThrow(/finishReason/);
  });

  test("chunks are frozen", () => {
    const chunk = new StreamingChunk({ content: "x", meta: { a: 1 } });
    expect(Object.isFrozen(chunk)).toBe(true);
    expect(Object.isFrozen(chunk.meta)).toBe(true);
  });

  test("toJSON writes the reference's field names", () => {
    expect(
      new StreamingChunk({
        index: 0,
        start: true,
        toolCallResult: { result: "22", origin: call, error: false },
      }).toJSON(),
    ).toEqual({
      content: "",
      meta: {},
      component_info: null,
      index: 0,
      tool_calls: null,
      tool_call_result: {
        result: "22",
        origin: { tool_name: "weather", arguments: { city: "Paris" }, id: "1", extra: null },
        error: false,
      },
      start: true,
      finish_reason: null,
      reasoning: null,
    });
    expect(
      new StreamingChunk({ index: 2, toolCalls: [{ index: 0, toolName: "t", id: "c" }] }).toJSON().tool_calls,
    ).toEqual([{ index: 0, tool_name: "t", arguments: null, id: "c", extra: null }]);
    expect(
      new StreamingChunk({ index: 0, reasoning: { reasoningText: "r", extra: { k: 1 } } }).toJSON().reasoning,
    ).toEqual({
      reasoning_text: "r",
      extra: { k: 1 },
    });
  });

  test.each([
    new StreamingChunk({
      content: "hi",
      meta: { model: "m" },
      componentInfo: { type: "g", name: "llm" },
      finishReason: "stop",
    }),
    new StreamingChunk({
      index: 0,
      start: true,
      toolCallResult: { result: "22", origin: call, error: true },
    }),
    new StreamingChunk({
      index: 1,
      toolCalls: [{ index: 0, toolName: "t", arguments: "{}", id: "x", extra: { a: 1 } }],
    }),
    new StreamingChunk({ index: 0, reasoning: "because" }),
  ])("fromJSON reads what toJSON wrote (%#)", (chunk) => {
    const json = JSON.parse(JSON.stringify(chunk));
    expect(StreamingChunk.fromJSON(json)).toEqual(chunk);
  });

  test("fromJSON requires content", () => {
    expect(() => StreamingChunk.fromJSON({ meta: {} })).toThrow(DeserializationError);
    expect(() =>
      StreamingChunk.fromJSON({ content: "", index: 0, tool_call_result: { result: "x" } }),
    ).toThrow(/tool_call_result\.origin/);
  });

  test("streamingChunkSchema accepts only chunks", () => {
    expect(streamingChunkSchema.safeParse(new StreamingChunk()).success).toBe(true);
    expect(streamingChunkSchema.safeParse({ content: "" }).success).toBe(false);
  });
});

describe("streaming callbacks", () => {
  const a: StreamingCallback = () => {};
  const b: StreamingCallback = async () => {};

  test("the runtime callback wins over the init callback", () => {
    expect(selectStreamingCallback(a, b)).toBe(b);
    expect(selectStreamingCallback(undefined, b)).toBe(b);
    expect(selectStreamingCallback(a, undefined)).toBe(a);
    expect(selectStreamingCallback(undefined, undefined)).toBeUndefined();
  });

  test("sync and async callbacks are both awaited", async () => {
    const seen: string[] = [];
    await invokeStreamingCallback(
      (chunk) => void seen.push(chunk.content),
      new StreamingChunk({ content: "s" }),
    );
    await invokeStreamingCallback(
      async (chunk) => {
        await Promise.resolve();
        seen.push(chunk.content);
      },
      new StreamingChunk({ content: "a" }),
    );
    expect(seen).toEqual(["s", "a"]);
  });
});

test("addUsage sums counts and numeric details", () => {
  const total = addUsage(addUsage(undefined, { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }), {
    prompt_tokens: 10,
    completion_tokens: 20,
    total_tokens: 30,
    completion_tokens_details: { reasoning_tokens: 5 },
  });
  expect(total).toEqual({
    prompt_tokens: 11,
    completion_tokens: 22,
    total_tokens: 33,
    completion_tokens_details: { reasoning_tokens: 5 },
  });
});
