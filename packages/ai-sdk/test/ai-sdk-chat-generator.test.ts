import { AISDKChatGenerator, supportedSpecificationVersions } from "@junction/ai-sdk";
import { ComponentError, MemoryLogger } from "@junction/core";
import { ChatMessage, type StreamingChunk, tool } from "@junction/llm";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { streamOf, textResult, toolCallResult, usageV3 } from "./support.js";

const weather = tool({
  name: "weather",
  description: "The weather in a city",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => `sunny in ${city}`,
});

describe("AISDKChatGenerator with a v3 model (MockLanguageModelV3)", () => {
  it("converts the conversation, tools and kwargs into one doGenerate call and the reply back", async () => {
    const model = new MockLanguageModelV3({
      provider: "mock.chat",
      modelId: "mock-1",
      doGenerate: {
        ...textResult("It is sunny in Paris.", usageV3(12, 6, { cacheRead: 4, reasoning: 2 })),
        response: { id: "resp-1", modelId: "mock-1-2026" },
      },
    });
    const generator = new AISDKChatGenerator({
      model,
      generationKwargs: { temperature: 0, max_tokens: 100, reasoningEffort: "low" },
    });
    const { replies } = await generator.run({
      messages: [
        ChatMessage.fromSystem("Be brief."),
        ChatMessage.fromUser("Weather in Paris?"),
        ChatMessage.fromAssistant({
          reasoning: "Use the tool.",
          toolCalls: [{ toolName: "weather", arguments: { city: "Paris" }, id: "c1" }],
        }),
        ChatMessage.fromTool("sunny", { toolName: "weather", arguments: { city: "Paris" }, id: "c1" }),
      ],
      tools: [weather],
      generation_kwargs: { top_p: 0.5, stop: "END" },
    });

    const call = model.doGenerateCalls[0]!;
    expect(call.prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Use the tool." },
          { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "weather",
            output: { type: "text", value: "sunny" },
          },
        ],
      },
    ]);
    expect(call.tools).toEqual([
      {
        type: "function",
        name: "weather",
        description: "The weather in a city",
        inputSchema: expect.objectContaining({ type: "object", properties: { city: { type: "string" } } }),
      },
    ]);
    expect(call).toMatchObject({
      temperature: 0,
      maxOutputTokens: 100,
      topP: 0.5,
      stopSequences: ["END"],
      providerOptions: { mock: { reasoningEffort: "low" } },
    });

    const reply = replies![0]!;
    expect(reply.text).toBe("It is sunny in Paris.");
    expect(reply.meta).toMatchObject({
      model: "mock-1-2026",
      provider: "mock.chat",
      finish_reason: "stop",
      id: "resp-1",
      usage: {
        prompt_tokens: 12,
        completion_tokens: 6,
        total_tokens: 18,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });
  });

  it("returns tool calls with parsed arguments and finish_reason tool_calls", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: toolCallResult([
        { id: "a", name: "weather", input: { city: "Paris" } },
        { id: "b", name: "weather", input: { city: "Rome" } },
      ]),
    });
    const { replies } = await new AISDKChatGenerator({ model }).run({
      messages: [ChatMessage.fromUser("Paris and Rome?")],
      tools: [weather],
    });
    expect(replies![0]!.toolCalls).toEqual([
      { toolName: "weather", arguments: { city: "Paris" }, id: "a" },
      { toolName: "weather", arguments: { city: "Rome" }, id: "b" },
    ]);
    expect(replies![0]!.meta.finish_reason).toBe("tool_calls");
  });

  it("keeps tool call input that is not JSON visibly, with a warning", async () => {
    const logger = new MemoryLogger();
    const model = new MockLanguageModelV3({
      doGenerate: toolCallResult([{ id: "a", name: "weather", input: "{city" }]),
    });
    const { replies } = await new AISDKChatGenerator({ model }).run(
      { messages: [ChatMessage.fromUser("?")], tools: [weather] },
      { logger },
    );
    expect(replies![0]!.toolCalls[0]).toMatchObject({
      arguments: {},
      extra: { malformed_arguments: "{city" },
    });
    expect(logger.records.map((record) => record.level)).toEqual(["warn"]);
  });

  it("keeps tool call input nested deeper than maxValueDepth as malformed (the run can tell the model)", async () => {
    const logger = new MemoryLogger();
    const deep = `{"city":${"[".repeat(5_000)}1${"]".repeat(5_000)}}`;
    const model = new MockLanguageModelV3({
      doGenerate: toolCallResult([{ id: "a", name: "weather", input: deep }]),
    });
    const { replies } = await new AISDKChatGenerator({ model }).run(
      { messages: [ChatMessage.fromUser("?")], tools: [weather] },
      { logger },
    );
    const call = replies![0]!.toolCalls[0]!;
    expect(call.arguments).toEqual({});
    expect(call.extra?.malformed_arguments).toBe(deep);
    expect(String(call.extra?.arguments_error)).toMatch(/deeper than 1,000 levels/);
    expect(logger.records.map((record) => record.level)).toEqual(["warn"]);
  });

  it("maps tool_choice, response_format and a failed tool result", async () => {
    const model = new MockLanguageModelV3({ doGenerate: textResult("ok") });
    await new AISDKChatGenerator({ model }).run({
      messages: [
        ChatMessage.fromUser("?"),
        ChatMessage.fromAssistant({ toolCalls: [{ toolName: "weather", arguments: { city: "X" } }] }),
        ChatMessage.fromTool("boom", { toolName: "weather", arguments: { city: "X" } }, { error: true }),
      ],
      generation_kwargs: {
        tool_choice: "required",
        response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" } } },
      },
    });
    const call = model.doGenerateCalls[0]!;
    expect(call.toolChoice).toEqual({ type: "required" });
    expect(call.responseFormat).toEqual({ type: "json", name: "answer", schema: { type: "object" } });
    // A call without an id gets one, and its result quotes the same id.
    expect(call.prompt[1]).toMatchObject({ content: [{ type: "tool-call", toolCallId: "call_0" }] });
    expect(call.prompt[2]).toMatchObject({
      role: "tool",
      content: [{ toolCallId: "call_0", output: { type: "error-text", value: "boom" } }],
    });
  });

  it("streams text, reasoning and tool input as chunks, then a last chunk with finish reason and usage", async () => {
    const model = new MockLanguageModelV3({
      modelId: "mock-stream",
      doStream: streamOf([
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", id: "r1", modelId: "mock-stream-v2" },
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "Think" },
        { type: "reasoning-delta", id: "r", delta: "ing." },
        { type: "reasoning-end", id: "r" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Let me " },
        { type: "text-delta", id: "t", delta: "check." },
        { type: "text-end", id: "t" },
        { type: "tool-input-start", id: "call-1", toolName: "weather" },
        { type: "tool-input-delta", id: "call-1", delta: '{"city":' },
        { type: "tool-input-delta", id: "call-1", delta: '"Paris"}' },
        { type: "tool-input-end", id: "call-1" },
        { type: "tool-call", toolCallId: "call-1", toolName: "weather", input: '{"city":"Paris"}' },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: usageV3(9, 3) },
      ]),
    });
    const chunks: StreamingChunk[] = [];
    const { replies } = await new AISDKChatGenerator({ model }).run({
      messages: [ChatMessage.fromUser("Weather?")],
      tools: [weather],
      streaming_callback: (chunk) => {
        chunks.push(chunk);
      },
    });
    expect(
      chunks.map((chunk) => [chunk.index, chunk.start, chunk.reasoning?.reasoningText ?? chunk.content]),
    ).toEqual([
      [0, true, "Think"],
      [0, false, "ing."],
      [1, true, "Let me "],
      [1, false, "check."],
      [2, true, ""],
      [2, false, ""],
      [2, false, ""],
      [undefined, false, ""],
    ]);
    expect(chunks.slice(4, 7).map((chunk) => chunk.toolCalls)).toEqual([
      [{ index: 0, toolName: "weather", id: "call-1" }],
      [{ index: 0, arguments: '{"city":' }],
      [{ index: 0, arguments: '"Paris"}' }],
    ]);
    const last = chunks.at(-1)!;
    expect(last.finishReason).toBe("tool_calls");
    expect(last.meta).toMatchObject({
      model: "mock-stream-v2",
      usage: { prompt_tokens: 9, completion_tokens: 3 },
    });
    expect(chunks.every((chunk) => chunk.componentInfo?.type === "junction.AISDKChatGenerator")).toBe(true);

    const reply = replies![0]!;
    expect(reply.text).toBe("Let me check.");
    expect(reply.reasoning?.reasoningText).toBe("Thinking.");
    expect(reply.toolCalls).toEqual([{ toolName: "weather", arguments: { city: "Paris" }, id: "call-1" }]);
    expect(reply.meta).toMatchObject({ model: "mock-stream-v2", finish_reason: "tool_calls", id: "r1" });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("fails the run when the stream reports an error", async () => {
    const model = new MockLanguageModelV3({
      doStream: streamOf([
        { type: "text-delta", id: "t", delta: "Hel" },
        { type: "error", error: new Error("overloaded") },
      ]),
    });
    await expect(
      new AISDKChatGenerator({ model, streamingCallback: () => {} }).run({
        messages: [ChatMessage.fromUser("?")],
      }),
    ).rejects.toThrow("overloaded");
  });

  it("passes the run's signal to the model, and aborting rejects with the signal's reason", async () => {
    let seen: AbortSignal | undefined;
    let called: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      called = resolve;
    });
    const model = new MockLanguageModelV3({
      doGenerate: (options) => {
        seen = options.abortSignal;
        called();
        return new Promise((_resolve, reject) => {
          options.abortSignal?.addEventListener("abort", () => reject(new Error("fetch aborted")));
        });
      },
    });
    const controller = new AbortController();
    const run = new AISDKChatGenerator({ model }).run(
      { messages: [ChatMessage.fromUser("?")] },
      { signal: controller.signal },
    );
    await reached;
    const reason = new Error("user cancelled");
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(seen?.aborted).toBe(true);
  });

  it("cancels a stream when the signal aborts mid-stream", async () => {
    const controller = new AbortController();
    let cancelled = false;
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream({
          start(stream) {
            stream.enqueue({ type: "text-delta", id: "t", delta: "Hel" });
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
    });
    const reason = new Error("stop");
    const run = new AISDKChatGenerator({ model }).run(
      {
        messages: [ChatMessage.fromUser("?")],
        streaming_callback: () => controller.abort(reason),
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toBe(reason);
    expect(cancelled).toBe(true);
  });
});

describe("AISDKChatGenerator with hand-written v2 and v4 models", () => {
  it("reads a v2 model: flat usage and string finish reasons", async () => {
    const calls: unknown[] = [];
    const v2 = {
      specificationVersion: "v2" as const,
      provider: "legacy",
      modelId: "legacy-1",
      supportedUrls: {},
      async doGenerate(options: unknown) {
        calls.push(options);
        return {
          content: [{ type: "text" as const, text: "hello from v2" }],
          finishReason: "unknown" as const,
          usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9, cachedInputTokens: 1 },
          warnings: [],
        };
      },
      async doStream(): Promise<never> {
        throw new Error("not used");
      },
    };
    const { replies } = await new AISDKChatGenerator({ model: v2 }).run({
      messages: [ChatMessage.fromUser("hi")],
    });
    expect(replies![0]!.text).toBe("hello from v2");
    expect(replies![0]!.meta).toMatchObject({
      model: "legacy-1",
      finish_reason: "stop",
      raw_finish_reason: "unknown",
      usage: {
        prompt_tokens: 7,
        completion_tokens: 2,
        total_tokens: 9,
        prompt_tokens_details: { cached_tokens: 1 },
      },
    });
    expect(calls).toHaveLength(1);
  });

  it("reads a v4 model: the 'interrupted' finish reason, and ping parts are ignored", async () => {
    const v4 = {
      specificationVersion: "v4" as const,
      provider: "future",
      modelId: "future-1",
      supportedUrls: {},
      async doGenerate(): Promise<never> {
        throw new Error("not used");
      },
      async doStream() {
        return {
          stream: new ReadableStream({
            start(stream) {
              stream.enqueue({ type: "ping" });
              stream.enqueue({ type: "text-delta", id: "0", delta: "partial" });
              stream.enqueue({
                type: "finish",
                finishReason: { unified: "interrupted", raw: undefined },
                usage: usageV3(3, 1),
              });
              stream.close();
            },
          }),
        };
      },
    };
    const chunks: StreamingChunk[] = [];
    const { replies } = await new AISDKChatGenerator({ model: v4 as never }).run({
      messages: [ChatMessage.fromUser("hi")],
      streaming_callback: (chunk) => {
        chunks.push(chunk);
      },
    });
    expect(chunks.map((chunk) => chunk.content)).toEqual(["partial", ""]);
    expect(replies![0]!.meta).toMatchObject({ finish_reason: "stop", raw_finish_reason: "interrupted" });
  });

  it("refuses another specification version, naming the supported ones", () => {
    const v1 = { specificationVersion: "v1", provider: "old", modelId: "x", doGenerate() {}, doStream() {} };
    expect(() => new AISDKChatGenerator({ model: v1 as never })).toThrow(ComponentError);
    expect(() => new AISDKChatGenerator({ model: v1 as never })).toThrow(
      /specification version "v2", "v3", "v4"; got a language model of specification version "v1"/,
    );
    expect(() => new AISDKChatGenerator({ model: "gpt-5-mini" as never })).toThrow(/a model id, not a model/);
    expect(supportedSpecificationVersions).toEqual(["v2", "v3", "v4"]);
  });
});
