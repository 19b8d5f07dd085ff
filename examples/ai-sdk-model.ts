/**
 * An AI SDK language model as a Junction chat generator, inside an Agent.
 *
 * Any provider of the AI SDK (`@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google`, Ollama, ...) hands
 * out objects of this shape; here a tiny hand-written model plays one, offline: it asks for the weather
 * tool, then answers with the tool's result, and streams its answer.
 *
 * Run: npx tsx --conditions=@junction/source examples/ai-sdk-model.ts
 */

import { Agent } from "@junction/agents";
import { AISDKChatGenerator, type AISDKLanguageModel } from "@junction/ai-sdk";
import { ChatMessage, tool } from "@junction/llm";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

type ModelV3 = Extract<AISDKLanguageModel, { specificationVersion: "v3" }>;
type CallOptions = Parameters<ModelV3["doGenerate"]>[0];

const usage = {
  inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 6, text: 6, reasoning: undefined },
};

/** The last tool result in the prompt, if the previous turn called a tool. */
function lastToolResult(options: CallOptions): string | undefined {
  const last = options.prompt.at(-1);
  if (last?.role !== "tool") return undefined;
  const part = last.content[0];
  return part?.type === "tool-result" && part.output.type === "text" ? part.output.value : undefined;
}

/** A model that calls `weather` first, then answers from its result (as text, streamed word by word). */
export const weatherModel: ModelV3 = {
  specificationVersion: "v3",
  provider: "example",
  modelId: "weather-bot",
  supportedUrls: {},
  async doGenerate(options) {
    const result = lastToolResult(options);
    if (result === undefined) {
      return {
        content: [
          { type: "tool-call", toolCallId: "call-1", toolName: "weather", input: '{"city":"Paris"}' },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    }
    return {
      content: [{ type: "text", text: `The forecast: ${result}.` }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    };
  },
  async doStream(options) {
    const { content, finishReason } = await weatherModel.doGenerate(options);
    const parts: Awaited<ReturnType<ModelV3["doStream"]>>["stream"] extends ReadableStream<infer P>
      ? P[]
      : never = [];
    for (const part of content) {
      if (part.type === "text")
        for (const word of part.text.split(/(?<= )/))
          parts.push({ type: "text-delta", id: "0", delta: word });
      else if (part.type === "tool-call") parts.push(part);
    }
    parts.push({ type: "finish", finishReason, usage });
    return {
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    };
  },
};

const weather = tool({
  name: "weather",
  description: "The weather in a city",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => `sunny and 24 °C in ${city}`,
});

/** Runs an agent on the AI SDK model, streaming the answer; returns the final text and the token usage. */
export async function main(io: ExampleIO): Promise<{ answer: string | undefined; usage: unknown }> {
  const agent = new Agent({
    chatGenerator: new AISDKChatGenerator({ model: weatherModel }),
    tools: [weather],
    streamingCallback: (chunk) => {
      if (chunk.content !== "") io.write(chunk.content);
    },
  });
  const result = await agent.run({ messages: [ChatMessage.fromUser("What is the weather in Paris?")] });
  io.write(`\nexit_reason: ${result.exit_reason}; token_usage: ${JSON.stringify(result.token_usage)}\n`);
  return { answer: result.last_message?.text, usage: result.token_usage };
}

runIfMain(import.meta.url, main);
