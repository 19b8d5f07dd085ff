import { createApp, type RunningServer, serve } from "@junction/serve";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { echoChatPipeline, greetPipeline, weatherAgent } from "./fixtures.js";

let server: RunningServer;
let client: OpenAI;

beforeAll(async () => {
  const app = createApp({
    pipelines: { weather: weatherAgent(), echo: echoChatPipeline(), greet: greetPipeline() },
    auth: { token: "test-key" },
  });
  server = await serve({ app, port: 0 });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
});

describe("the OpenAI-compatible endpoint, called with the openai SDK", () => {
  test("models are the agents and chat pipelines (not the others)", async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(["weather", "echo"]);
  });

  test("a chat completion runs the agent and answers its last message", async () => {
    const completion = await client.chat.completions.create({
      model: "weather",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What is the weather in Paris?" },
      ],
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("weather");
    expect(completion.choices[0]?.message).toMatchObject({
      role: "assistant",
      content: "It is sunny in Paris.",
    });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(completion.usage).toEqual({ prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 });
  });

  test("streamed: chat.completion.chunk deltas that add up to the reply, then [DONE]", async () => {
    const stream = await client.chat.completions.create({
      model: "weather",
      messages: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    const finishes: (string | null)[] = [];
    let usage: unknown;
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices) {
        if (choice.delta.content) deltas.push(choice.delta.content);
        finishes.push(choice.finish_reason);
      }
    }
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("It is sunny in Paris.");
    expect(finishes.at(-1)).toBe("stop");
    expect(usage).toEqual({ prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 });
  });

  test("a pipeline whose reply is a list of messages (a lone generator) answers too", async () => {
    const completion = await client.chat.completions.create({
      model: "echo",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(completion.choices[0]?.message.content).toBe("Hello there");
  });

  test("an unknown model, a wrong key and a bad request are errors the SDK raises with their status", async () => {
    await expect(
      client.chat.completions.create({ model: "greet", messages: [{ role: "user", content: "Hi" }] }),
    ).rejects.toMatchObject({ status: 404 });
    const wrong = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "wrong", maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 });
    await expect(client.chat.completions.create({ model: "weather", messages: [] })).rejects.toMatchObject({
      status: 400,
    });
  });
});
