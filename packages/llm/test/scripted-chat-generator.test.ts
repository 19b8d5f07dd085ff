import {
  ComponentError,
  createRegistry,
  defineComponent,
  deserializeComponent,
  SerializationError,
  serializeComponent,
} from "@junction/core";
import {
  ChatMessage,
  chatGeneratorInputs,
  chatGeneratorOutputs,
  isChatGenerator,
  ScriptedChatGenerator,
  type ScriptedReplyFunction,
  type StreamingChunk,
  supportsResponseFormat,
  tool,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const question = [ChatMessage.fromUser("Weather in Paris?")];

describe("ScriptedChatGenerator", () => {
  test("replays the script: tool calls, then text, with meta", async () => {
    const generator = new ScriptedChatGenerator({
      script: [
        { toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] },
        { text: "Sunny.", usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } },
      ],
      model: "fake-1",
    });
    const first = (await generator.run({ messages: question })).replies?.[0];
    expect(first?.toolCalls).toEqual([{ toolName: "weather", arguments: { city: "Paris" }, id: "call_1_0" }]);
    expect(first?.meta).toEqual({
      model: "fake-1",
      index: 0,
      finish_reason: "tool_calls",
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
    const second = (await generator.run({ messages: question })).replies?.[0];
    expect(second?.text).toBe("Sunny.");
    expect(second?.meta.finish_reason).toBe("stop");
    expect(second?.meta.usage).toEqual({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 });
  });

  test("strings are text replies; finish reasons can be scripted", async () => {
    const generator = new ScriptedChatGenerator({ script: ["Hi", { text: "cut", finishReason: "length" }] });
    expect((await generator.run({ messages: question })).replies?.[0]?.text).toBe("Hi");
    expect((await generator.run({ messages: question })).replies?.[0]?.meta.finish_reason).toBe("length");
  });

  test("fails clearly when the script runs out", async () => {
    const generator = new ScriptedChatGenerator({ script: ["only"] });
    await generator.run({ messages: question });
    await expect(generator.run({ messages: question })).rejects.toThrow(
      /the script has 1 reply and all were used; call 2 has none/,
    );
    await expect(new ScriptedChatGenerator().run({ messages: question })).rejects.toThrow(ComponentError);
  });

  test("reset() replays the script from the start for the next run", async () => {
    const generator = new ScriptedChatGenerator({ script: ["first", "second"] });
    const text = async () => (await generator.run({ messages: question })).replies?.[0]?.text;
    expect([await text(), await text()]).toEqual(["first", "second"]);
    generator.reset();
    expect([await text(), await text()]).toEqual(["first", "second"]);
    // A loaded copy has reset() too.
    const loaded = deserializeComponent(serializeComponent(generator)) as ScriptedChatGenerator;
    expect(await loaded.run({ messages: question }).then((out) => out.replies?.[0]?.text)).toBe("first");
    loaded.reset();
    expect(await loaded.run({ messages: question }).then((out) => out.replies?.[0]?.text)).toBe("first");
  });

  test("onScriptEnd repeatLast and loop", async () => {
    const repeat = new ScriptedChatGenerator({ script: ["a", "b"], onScriptEnd: "repeatLast" });
    const loop = new ScriptedChatGenerator({ script: ["a", "b"], onScriptEnd: "loop" });
    const texts = async (generator: InstanceType<typeof ScriptedChatGenerator>) => {
      const out: (string | undefined)[] = [];
      for (let i = 0; i < 4; i++) out.push((await generator.run({ messages: question })).replies?.[0]?.text);
      return out;
    };
    expect(await texts(repeat)).toEqual(["a", "b", "b", "b"]);
    expect(await texts(loop)).toEqual(["a", "b", "a", "b"]);
  });

  test("a reply function chooses by the conversation and sees tools and kwargs", async () => {
    const seen: unknown[] = [];
    const respond: ScriptedReplyFunction = (messages, context) => {
      seen.push([context.call, context.tools.map((t) => t.name), context.generationKwargs]);
      const last = messages.at(-1);
      if (last?.role === "tool") return `Result: ${String(last.toolCallResult?.result)}`;
      if (last?.text === "fallthrough") return undefined;
      return { toolCalls: [{ toolName: "echo", arguments: { text: last?.text ?? "" }, id: "c1" }] };
    };
    const echo = tool({
      name: "echo",
      description: "echo",
      parameters: z.object({ text: z.string() }),
      function: ({ text }) => text,
    });
    const generator = new ScriptedChatGenerator({ respond, script: ["from script"] });
    const first = (await generator.run({ messages: question, tools: [echo], generation_kwargs: { t: 0 } }))
      .replies?.[0];
    expect(first?.toolCall).toEqual({ toolName: "echo", arguments: { text: "Weather in Paris?" }, id: "c1" });
    const toolMessage = ChatMessage.fromTool("42", first!.toolCall!);
    expect((await generator.run({ messages: [...question, first!, toolMessage] })).replies?.[0]?.text).toBe(
      "Result: 42",
    );
    expect(
      (await generator.run({ messages: [ChatMessage.fromUser("fallthrough")] })).replies?.[0]?.text,
    ).toBe("from script");
    expect(seen[0]).toEqual([1, ["echo"], { t: 0 }]);
  });

  test("declares the response_format input; a reply function sees the requested format", async () => {
    const formats: unknown[] = [];
    const generator = new ScriptedChatGenerator({
      respond: (_messages, { responseFormat }) => {
        formats.push(responseFormat);
        return '{"ok":true}';
      },
    });
    expect(supportsResponseFormat(generator)).toBe(true);
    const format = {
      type: "json_schema" as const,
      json_schema: { name: "Ok", schema: { type: "object", properties: { ok: { type: "boolean" } } } },
    };
    await generator.run({ messages: question, response_format: format });
    await generator.run({ messages: question });
    expect(formats).toEqual([format, undefined]);
    await expect(
      generator.run({ messages: question, response_format: { type: "json_object" } as never }),
    ).rejects.toThrow(/response_format.type/);
  });

  test("a reply function may return a ChatMessage; missing meta is filled", async () => {
    const generator = new ScriptedChatGenerator({ respond: () => ChatMessage.fromAssistant("x") });
    const reply = (await generator.run({ messages: question })).replies?.[0];
    expect(reply?.meta).toMatchObject({ model: "scripted", finish_reason: "stop" });
  });

  test("streams text deltas, tool call deltas and a final chunk to the callback and to emit", async () => {
    const generator = new ScriptedChatGenerator({
      script: [
        {
          text: "It is sunny today",
          toolCalls: [{ toolName: "weather", arguments: { city: "Paris" }, id: "a" }],
          reasoning: "think",
        },
      ],
    });
    const received: StreamingChunk[] = [];
    const emitted: unknown[] = [];
    const { replies } = await generator.run(
      {
        messages: question,
        streaming_callback: async (chunk) => {
          received.push(chunk);
        },
      },
      { onEmit: (payload) => void emitted.push(payload), componentName: "llm" },
    );
    expect(emitted).toEqual(received);
    expect(received[0]?.reasoning?.reasoningText).toBe("think");
    expect(received.map((chunk) => chunk.content).join("")).toBe("It is sunny today");
    expect(received.filter((chunk) => chunk.content !== "").length).toBeGreaterThan(1);
    const deltas = received.flatMap((chunk) => chunk.toolCalls ?? []);
    expect(deltas[0]).toMatchObject({ index: 0, toolName: "weather", id: "a" });
    expect(JSON.parse(deltas.map((delta) => delta.arguments ?? "").join(""))).toEqual({ city: "Paris" });
    const last = received.at(-1);
    expect(last?.finishReason).toBe("tool_calls");
    expect(last?.meta.usage).toEqual(replies?.[0]?.meta.usage);
    expect(received.every((chunk) => chunk.componentInfo?.name === "llm")).toBe(true);
  });

  test("does not stream without a callback unless stream is set", async () => {
    const emitted: unknown[] = [];
    await new ScriptedChatGenerator({ script: ["a b"] }).run(
      { messages: question },
      { onEmit: (p) => void emitted.push(p) },
    );
    expect(emitted).toEqual([]);
    await new ScriptedChatGenerator({ script: ["a b"], stream: true }).run(
      { messages: question },
      { onEmit: (p) => void emitted.push(p) },
    );
    expect(emitted.length).toBe(3);
  });

  test("honours the abort signal: before the call, during latency and while streaming", async () => {
    const aborted = AbortSignal.abort(new Error("stop now"));
    await expect(
      new ScriptedChatGenerator({ script: ["x"] }).run({ messages: question }, { signal: aborted }),
    ).rejects.toThrow("stop now");
    const controller = new AbortController();
    const slow = new ScriptedChatGenerator({ script: ["x"], delayMs: 10_000 });
    const pending = slow.run({ messages: question }, { signal: controller.signal });
    controller.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("cancelled");
    const streaming = new AbortController();
    const chunks: string[] = [];
    const run = new ScriptedChatGenerator({ script: ["one two three four"] }).run(
      {
        messages: question,
        streaming_callback: (chunk) => {
          chunks.push(chunk.content);
          if (chunks.length === 2) streaming.abort(new Error("enough"));
        },
      },
      { signal: streaming.signal },
    );
    await expect(run).rejects.toThrow("enough");
    expect(chunks).toEqual(["one ", "two "]);
  });

  test("serializes the script as data and the reply function by registered name", () => {
    const respond: ScriptedReplyFunction = () => "hi";
    const registry = createRegistry().registerFunction("test.respond", respond);
    const generator = new ScriptedChatGenerator({
      script: ["a", { text: "b", finishReason: "length" }],
      respond,
    });
    const doc = serializeComponent(generator, { registry });
    expect(doc).toEqual({
      type: "junction.ScriptedChatGenerator",
      init_parameters: {
        script: ["a", { text: "b", finishReason: "length" }],
        model: "scripted",
        onScriptEnd: "error",
        stream: false,
        delayMs: 0,
        respond: "test.respond",
      },
    });
    const loaded = deserializeComponent(JSON.parse(JSON.stringify(doc)), { registry });
    expect(loaded.params).toEqual(generator.params);
    expect(serializeComponent(loaded, { registry })).toEqual(doc);
    expect(() => serializeComponent(new ScriptedChatGenerator({ respond: () => "x" }))).toThrow(
      /registry\.registerFunction/,
    );
    expect(() => serializeComponent(new ScriptedChatGenerator({ respond: () => "x" }))).toThrow(
      SerializationError,
    );
  });
});

describe("ChatGenerator contract", () => {
  test("isChatGenerator recognises components with the generator sockets", () => {
    const Custom = defineComponent({
      type: "test.llm.CustomGenerator",
      inputs: chatGeneratorInputs,
      outputs: chatGeneratorOutputs,
      run: () => ({ replies: [ChatMessage.fromAssistant("x")] }),
    });
    const NotOne = defineComponent({
      type: "test.llm.NotAGenerator",
      inputs: { messages: z.array(z.string()) },
      outputs: { replies: z.array(z.string()) },
      run: () => ({}),
    });
    expect(isChatGenerator(new ScriptedChatGenerator())).toBe(true);
    expect(isChatGenerator(new Custom())).toBe(true);
    expect(isChatGenerator(new NotOne())).toBe(false);
    expect(isChatGenerator({})).toBe(false);
  });

  test("messages is mandatory and tools are validated", async () => {
    const generator = new ScriptedChatGenerator({ script: ["x"] });
    await expect(generator.run({} as never)).rejects.toThrow(/messages: missing mandatory input/);
    await expect(generator.run({ messages: question, tools: ["nope"] as never })).rejects.toThrow(
      /Toolset or a list of tools/,
    );
  });
});
