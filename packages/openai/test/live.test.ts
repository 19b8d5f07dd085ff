/**
 * Live tests against the real OpenAI API (or whatever OPENAI_BASE_URL points to). They run only when
 * OPENAI_API_KEY is set and are skipped otherwise; OPENAI_LIVE_MODEL picks the model (default gpt-5-mini).
 */
import { ChatMessage, type StreamingChunk, tool } from "@junction/llm";
import { OpenAIApiError, OpenAIChatGenerator } from "@junction/openai";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const live = typeof process.env.OPENAI_API_KEY === "string" && process.env.OPENAI_API_KEY !== "";
const model = process.env.OPENAI_LIVE_MODEL ?? "gpt-5-mini";

describe.skipIf(!live)("live OpenAI API", () => {
  it("answers with usage and a stop finish reason", { timeout: 60_000 }, async () => {
    const generator = new OpenAIChatGenerator({ model });
    const { replies = [] } = await generator.run({
      messages: [ChatMessage.fromUser("What's the capital of France? One word.")],
    });
    expect(replies[0]?.text?.toLowerCase()).toContain("paris");
    expect(replies[0]?.meta.finish_reason).toBe("stop");
    expect(replies[0]?.meta.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it("streams a tool call", { timeout: 60_000 }, async () => {
    const weather = tool({
      name: "weather",
      description: "The current weather in a city",
      parameters: z.object({ city: z.string() }),
      function: ({ city }) => `sunny in ${city}`,
    });
    const chunks: StreamingChunk[] = [];
    const generator = new OpenAIChatGenerator({ model, tools: [weather], toolsStrict: true });
    const { replies = [] } = await generator.run({
      messages: [ChatMessage.fromUser("What's the weather in Paris? Use the tool.")],
      streaming_callback: (chunk) => void chunks.push(chunk),
    });
    expect(chunks.length).toBeGreaterThan(1);
    expect(replies[0]?.toolCall).toMatchObject({
      toolName: "weather",
      arguments: { city: expect.stringMatching(/paris/i) },
    });
    expect(replies[0]?.meta.finish_reason).toBe("tool_calls");
  });

  it("reports a wrong model as a typed error with its status", { timeout: 60_000 }, async () => {
    const generator = new OpenAIChatGenerator({ model: "something-that-does-not-exist", maxRetries: 0 });
    const error = await generator
      .run({ messages: [ChatMessage.fromUser("Hi")] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAIApiError);
    expect((error as OpenAIApiError).status).toBeGreaterThanOrEqual(400);
  });
});
