import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { Agent } from "@junction/agents";
import { AISDKChatGenerator } from "@junction/ai-sdk";
import { createRegistry, deserializeComponent, SerializationError, serializeComponent } from "@junction/core";
import { ChatMessage, tool } from "@junction/llm";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { streamOf, textResult, toolCallResult, usageV3 } from "./support.js";

function weatherFunction({ city }: { city: string }): string {
  return `sunny in ${city}`;
}
const weather = tool({
  name: "weather",
  description: "The weather in a city",
  parameters: z.object({ city: z.string() }),
  function: weatherFunction,
});

describe("AISDKChatGenerator inside an Agent", () => {
  it("runs the tool loop end to end: tool calls, tool results sent back, usage totalled", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallResult([
          { id: "c1", name: "weather", input: { city: "Paris" } },
          { id: "c2", name: "weather", input: { city: "Rome" } },
        ]),
        textResult("Sunny in both Paris and Rome."),
      ],
    });
    const agent = new Agent({ chatGenerator: new AISDKChatGenerator({ model }), tools: [weather] });
    const result = await agent.run({ messages: [ChatMessage.fromUser("Weather in Paris and Rome?")] });

    expect(result.exit_reason).toBe("text");
    expect(result.last_message?.text).toBe("Sunny in both Paris and Rome.");
    expect(result.tool_call_counts).toEqual({ weather: 2 });
    expect(result.token_usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 13, total_tokens: 43 });
    const second = model.doGenerateCalls[1] as LanguageModelV3CallOptions;
    expect(second.prompt.at(-1)).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "weather",
          output: { type: "text", value: "sunny in Paris" },
        },
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "weather",
          output: { type: "text", value: "sunny in Rome" },
        },
      ],
    });
  });
});

describe("AISDKChatGenerator serialization", () => {
  const made: string[] = [];
  function mockProvider(modelId: string) {
    made.push(modelId);
    return new MockLanguageModelV3({
      provider: "mock",
      modelId,
      doGenerate: textResult(`hello from ${modelId}`),
      doStream: streamOf([
        { type: "text-delta", id: "0", delta: `hello from ${modelId}` },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usageV3(1, 1) },
      ]),
    });
  }
  function onChunk(): void {}
  const registry = createRegistry()
    .registerFunction("mock", mockProvider)
    .registerFunction("test.onChunk", onChunk)
    .registerFunction("test.weather", weatherFunction);

  it("writes the registered factory's name and the model id, never code, and reads them back", async () => {
    const generator = new AISDKChatGenerator({
      model: mockProvider("mock-large"),
      modelFactory: mockProvider,
      generationKwargs: { temperature: 0.2 },
      streamingCallback: onChunk,
      tools: [weather],
    });
    const document = serializeComponent(generator, { registry });
    expect(document.init_parameters).toMatchObject({
      model: { factory: "mock", modelId: "mock-large" },
      generationKwargs: { temperature: 0.2 },
      streamingCallback: "test.onChunk",
    });
    expect(JSON.stringify(document)).not.toContain("doGenerate");

    const loaded = deserializeComponent(document, { registry }) as InstanceType<typeof AISDKChatGenerator>;
    expect(made.at(-1)).toBe("mock-large");
    expect(serializeComponent(loaded, { registry })).toEqual(document);
    const { replies } = await loaded.run({ messages: [ChatMessage.fromUser("hi")] });
    expect(replies![0]?.text).toBe("hello from mock-large");
  });

  it("refuses to save a model given without a factory, and says how to fix it", () => {
    const generator = new AISDKChatGenerator({ model: mockProvider("m") });
    expect(() => serializeComponent(generator, { registry })).toThrow(SerializationError);
    expect(() => serializeComponent(generator, { registry })).toThrow(/modelFactory/);
  });

  it("reports an unregistered factory with its path", () => {
    expect(() =>
      deserializeComponent(
        {
          type: "junction.AISDKChatGenerator",
          init_parameters: { model: { factory: "nope", modelId: "x" } },
        },
        { registry },
      ),
    ).toThrow(/model\.factory/);
  });
});
