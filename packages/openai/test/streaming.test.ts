import { ChatMessage, type StreamingChunk } from "@junction/llm";
import { MALFORMED_ARGUMENTS_KEY, OpenAIChatGenerator } from "@junction/openai";
import { describe, expect, it } from "vitest";
import { chunk, completion, textStream, usage, usageChunk } from "./support/fake-openai-server.js";
import { useHarness } from "./support/harness.js";

const h = useHarness();
const question = [ChatMessage.fromUser("What's the weather in Paris and Berlin?")];

/** Two tool calls whose names, ids and argument fragments arrive across several chunks. */
function toolCallStream() {
  return {
    kind: "stream" as const,
    events: [
      chunk({ role: "assistant", content: null }),
      chunk({
        tool_calls: [
          { index: 0, id: "call_1", type: "function", function: { name: "weather", arguments: "" } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty": "Paris"}' } }] }),
      chunk({
        tool_calls: [
          { index: 1, id: "call_2", type: "function", function: { name: "weather", arguments: "" } },
        ],
      }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"city": "Berlin"}' } }] }),
      chunk({}, { finishReason: "tool_calls" }),
      usageChunk(usage(20, 30)),
    ],
  };
}

describe("streaming", () => {
  it("sends chunks to the callback and to emit, and assembles the reply", async () => {
    h.server.enqueue(textStream(["Hel", "lo", " world"], { usage: usage(7, 3) }));
    const seen: StreamingChunk[] = [];
    const emitted: unknown[] = [];
    const generator = new OpenAIChatGenerator({
      baseURL: h.server.baseURL,
      streamingCallback: (c) => void seen.push(c),
    });
    const { replies = [] } = await generator.run(
      { messages: question },
      { onEmit: (payload) => void emitted.push(payload), componentName: "llm" },
    );
    expect(seen.map((c) => c.content).join("")).toBe("Hello world");
    expect(emitted).toEqual(seen);
    expect(seen.find((c) => c.content !== "")?.start).toBe(true);
    expect(
      seen.every(
        (c) => c.componentInfo?.type === "junction.OpenAIChatGenerator" && c.componentInfo.name === "llm",
      ),
    ).toBe(true);
    expect(seen.map((c) => c.finishReason).filter(Boolean)).toEqual(["stop"]);
    expect(seen.at(-1)?.meta.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
    const reply = replies[0];
    expect(reply?.text).toBe("Hello world");
    expect(reply?.meta).toMatchObject({
      model: "gpt-test",
      index: 0,
      finish_reason: "stop",
      usage: usage(7, 3),
    });
    expect(typeof reply?.meta.completion_start_time).toBe("string");
    const body = h.server.requests[0]?.body;
    expect(body?.stream).toBe(true);
    expect(body?.stream_options).toEqual({ include_usage: true });
  });

  it("takes a run-time streaming_callback over the init one", async () => {
    h.server.enqueue(textStream(["a", "b"]));
    const initChunks: StreamingChunk[] = [];
    const runChunks: StreamingChunk[] = [];
    const generator = new OpenAIChatGenerator({
      baseURL: h.server.baseURL,
      streamingCallback: (c) => void initChunks.push(c),
    });
    await generator.run({ messages: question, streaming_callback: async (c) => void runChunks.push(c) });
    expect(initChunks).toHaveLength(0);
    expect(runChunks.map((c) => c.content).join("")).toBe("ab");
  });

  it("assembles tool calls whose deltas are split across chunks", async () => {
    h.server.enqueue(toolCallStream());
    const seen: StreamingChunk[] = [];
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run({
      messages: question,
      streaming_callback: (c) => void seen.push(c),
    });
    const reply = replies[0];
    expect(reply?.text).toBeUndefined();
    expect(reply?.toolCalls).toEqual([
      { toolName: "weather", arguments: { city: "Paris" }, id: "call_1" },
      { toolName: "weather", arguments: { city: "Berlin" }, id: "call_2" },
    ]);
    expect(reply?.meta).toMatchObject({ finish_reason: "tool_calls", usage: usage(20, 30) });
    const deltas = seen.filter((c) => c.toolCalls !== undefined);
    expect(deltas.map((c) => [c.index, c.start])).toEqual([
      [0, true],
      [0, false],
      [0, false],
      [1, true],
      [1, false],
    ]);
    expect(deltas[1]?.toolCalls?.[0]).toEqual({ index: 0, arguments: '{"ci' });
  });

  it("assembles the same reply as the non-streaming path", async () => {
    const toolCalls = [
      { id: "call_1", name: "weather", arguments: '{"city": "Paris"}' },
      { id: "call_2", name: "weather", arguments: '{"city": "Berlin"}' },
    ];
    h.server.enqueue(completion({ content: null, toolCalls, usage: usage(20, 30) }), toolCallStream());
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const plain = (await generator.run({ messages: question })).replies?.[0];
    const streamed = (await generator.run({ messages: question, streaming_callback: () => {} })).replies?.[0];
    const { completion_start_time: _start, ...streamedMeta } = streamed?.meta ?? {};
    expect(streamed?.content).toEqual(plain?.content);
    expect(streamedMeta).toEqual(plain?.meta);
  });

  it("keeps malformed streamed tool call arguments visibly", async () => {
    h.server.enqueue({
      kind: "stream",
      events: [
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "call_1",
              type: "function",
              function: { name: "weather", arguments: '{"city": ' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"' } }] }),
        chunk({}, { finishReason: "tool_calls" }),
      ],
    });
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run(
      { messages: question, streaming_callback: () => {} },
      { logger: h.logger },
    );
    const call = replies[0]?.toolCall;
    expect(call?.toolName).toBe("weather");
    expect(call?.arguments).toEqual({});
    expect(call?.extra?.[MALFORMED_ARGUMENTS_KEY]).toBe('{"city": "Paris"');
    expect(h.logger.messages("warn").join("\n")).toMatch(/not a JSON object for "weather".*toolsStrict/s);
  });

  it("reports a finish_reason of length on the streamed reply and warns", async () => {
    h.server.enqueue(textStream(["cut"], { finishReason: "length" }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run(
      { messages: question, streaming_callback: () => {} },
      { logger: h.logger },
    );
    expect(replies[0]?.meta.finish_reason).toBe("length");
    expect(h.logger.messages("warn")).toHaveLength(1);
  });

  it("streams without a callback when generation_kwargs.stream is true (chunks go to emit)", async () => {
    h.server.enqueue(textStream(["x", "y"]));
    const emitted: StreamingChunk[] = [];
    const generator = new OpenAIChatGenerator({
      baseURL: h.server.baseURL,
      generationKwargs: { stream: true },
    });
    const { replies = [] } = await generator.run(
      { messages: question },
      { onEmit: (c) => void emitted.push(c as StreamingChunk) },
    );
    expect(replies[0]?.text).toBe("xy");
    expect(emitted.map((c) => c.content).join("")).toBe("xy");
  });

  it("refuses to stream several choices", async () => {
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, generationKwargs: { n: 2 } });
    await expect(generator.run({ messages: question, streaming_callback: () => {} })).rejects.toThrow(
      /n is 2.*stream/,
    );
    expect(h.server.requests).toHaveLength(0);
  });

  it("keeps a user-given stream_options", async () => {
    h.server.enqueue(textStream(["a"]));
    const generator = new OpenAIChatGenerator({
      baseURL: h.server.baseURL,
      generationKwargs: { stream_options: { include_usage: false } },
    });
    await generator.run({ messages: question, streaming_callback: () => {} });
    expect(h.server.requests[0]?.body.stream_options).toEqual({ include_usage: false });
  });

  it("sends no stream_options when they are set to null (for servers that reject them)", async () => {
    h.server.enqueue(textStream(["a"]));
    const generator = new OpenAIChatGenerator({
      baseURL: h.server.baseURL,
      generationKwargs: { stream_options: null },
    });
    const { replies = [] } = await generator.run({ messages: question, streaming_callback: () => {} });
    expect(replies[0]?.text).toBe("a");
    expect(h.server.requests[0]?.body).not.toHaveProperty("stream_options");
  });

  it("warns when the stream ends without a finish reason", async () => {
    h.server.enqueue({ kind: "stream", events: [chunk({ content: "partial" })] });
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run(
      { messages: question, streaming_callback: () => {} },
      { logger: h.logger },
    );
    expect(replies[0]?.text).toBe("partial");
    expect(h.logger.messages("warn").join("\n")).toMatch(/without a finish reason/);
  });
});
