import { JunctionError, Secret } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { describe, expect, it, vi } from "vitest";
import { completion, errorReply, usage } from "./support/fake-openai-server.js";
import { TEST_KEY, useHarness } from "./support/harness.js";

const h = useHarness();
const question = [ChatMessage.fromSystem("You are helpful."), ChatMessage.fromUser("What's NLP?")];

describe("OpenAIChatGenerator params", () => {
  it("defaults to gpt-5-mini, the OPENAI_API_KEY secret and no tools", () => {
    const generator = new OpenAIChatGenerator();
    expect(generator.params.model).toBe("gpt-5-mini");
    expect(generator.params.apiKey.toJSON()).toEqual({
      type: "env_var",
      env_vars: ["OPENAI_API_KEY"],
      strict: true,
    });
    expect(generator.params.generationKwargs).toEqual({});
    expect(generator.params.toolsStrict).toBe(false);
    expect(generator.params.tools).toBeUndefined();
  });

  it("keeps every given parameter", () => {
    const generator = new OpenAIChatGenerator({
      model: "gpt-4o-mini",
      apiKey: Secret.fromEnvVar("ENV_VAR"),
      baseURL: "http://localhost:8000/v1",
      organization: "org-1",
      generationKwargs: { max_completion_tokens: 10, some_test_param: "test-params" },
      timeout: 40_000,
      maxRetries: 1,
      toolsStrict: true,
    });
    expect(generator.params).toMatchObject({
      model: "gpt-4o-mini",
      baseURL: "http://localhost:8000/v1",
      organization: "org-1",
      generationKwargs: { max_completion_tokens: 10, some_test_param: "test-params" },
      timeout: 40_000,
      maxRetries: 1,
      toolsStrict: true,
    });
  });

  it("rejects invalid params, listing every problem", () => {
    let error: unknown;
    try {
      new OpenAIChatGenerator({ model: "", maxRetries: -1, timeout: 0 });
    } catch (caught) {
      error = caught;
    }
    expect(JunctionError.isInstance(error) && error.issues.map((issue) => issue.path.join("."))).toEqual([
      "params.model",
      "params.timeout",
      "params.maxRetries",
    ]);
  });
});

describe("OpenAIChatGenerator.run", () => {
  it("returns the reply with model, index, finish_reason and usage (with details) in meta", async () => {
    h.server.enqueue(completion({ content: "NLP is ...", model: "gpt-4o-mini-2024", usage: usage(15, 36) }));
    const generator = new OpenAIChatGenerator({ model: "gpt-4o-mini", baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run({ messages: question }, { logger: h.logger });
    expect(replies).toHaveLength(1);
    const reply = replies[0] as ChatMessage;
    expect(reply.role).toBe("assistant");
    expect(reply.text).toBe("NLP is ...");
    expect(reply.meta).toEqual({
      model: "gpt-4o-mini-2024",
      index: 0,
      finish_reason: "stop",
      usage: {
        prompt_tokens: 15,
        completion_tokens: 36,
        total_tokens: 51,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    });
    const request = h.server.requests[0];
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(request?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are helpful." },
        { role: "user", content: "What's NLP?" },
      ],
      stream: false,
    });
  });

  it("merges run generation_kwargs per key over the init ones", async () => {
    h.server.enqueue(completion());
    const generator = new OpenAIChatGenerator({
      baseURL: h.server.baseURL,
      generationKwargs: { max_completion_tokens: 10, temperature: 0.5 },
    });
    await generator.run({ messages: question, generation_kwargs: { temperature: 0.1, stop: ["END"] } });
    expect(h.server.requests[0]?.body).toMatchObject({
      max_completion_tokens: 10,
      temperature: 0.1,
      stop: ["END"],
    });
    // The init kwargs are not changed by a run.
    expect(generator.params.generationKwargs).toEqual({ max_completion_tokens: 10, temperature: 0.5 });
  });

  it("returns one reply per choice when n > 1", async () => {
    h.server.enqueue(completion({ content: "first", extraChoices: ["second"] }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run({ messages: question, generation_kwargs: { n: 2 } });
    expect(replies.map((reply) => [reply.text, reply.meta.index])).toEqual([
      ["first", 0],
      ["second", 1],
    ]);
    expect(h.server.requests[0]?.body.n).toBe(2);
  });

  it("returns no replies and sends nothing for an empty conversation", async () => {
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    expect(await generator.run({ messages: [] })).toEqual({ replies: [] });
    expect(h.server.requests).toHaveLength(0);
  });

  it("warns when a reply is truncated (length) or filtered (content_filter)", async () => {
    h.server.enqueue(completion({ finishReason: "length" }), completion({ finishReason: "content_filter" }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const first = await generator.run({ messages: question }, { logger: h.logger });
    await generator.run({ messages: question }, { logger: h.logger });
    expect(first.replies?.[0]?.meta.finish_reason).toBe("length");
    const warnings = h.logger.messages("warn");
    expect(warnings[0]).toMatch(/truncated.*max_completion_tokens/);
    expect(warnings[1]).toMatch(/content filter/);
  });

  it("sends the organization header when organization is set", async () => {
    h.server.enqueue(completion());
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, organization: "org-42" });
    await generator.run({ messages: question });
    expect(h.server.requests[0]?.headers["openai-organization"]).toBe("org-42");
  });
});

describe("API key and base URL", () => {
  it("resolves the key at warm-up, not at construction", async () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    const generator = new OpenAIChatGenerator({
      apiKey: Secret.fromEnvVar("LATE_KEY"),
      baseURL: h.server.baseURL,
    });
    vi.stubEnv("LATE_KEY", "sk-late-key-1234");
    h.server.enqueue(completion());
    await generator.run({ messages: question });
    expect(h.server.requests[0]?.headers.authorization).toBe("Bearer sk-late-key-1234");
  });

  it("fails clearly without a key against OpenAI itself, sending nothing", async () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    const generator = new OpenAIChatGenerator();
    const error = await generator.run({ messages: question }).catch((caught: unknown) => caught);
    expect(JunctionError.isInstance(error) && error.code).toBe("SECRET_NOT_SET");
    expect((error as Error).message).toMatch(/OPENAI_API_KEY.*baseURL/s);
  });

  it("talks to a key-less OpenAI-compatible server without an Authorization header", async () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    h.server.enqueue(completion({ content: "local" }));
    const generator = new OpenAIChatGenerator({ model: "llama3.2", baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run({ messages: question });
    expect(replies[0]?.text).toBe("local");
    expect(h.server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("uses OPENAI_BASE_URL when baseURL is not set", async () => {
    vi.stubEnv("OPENAI_BASE_URL", h.server.baseURL);
    h.server.enqueue(completion({ content: "via env" }));
    const { replies = [] } = await new OpenAIChatGenerator().run({ messages: question });
    expect(replies[0]?.text).toBe("via env");
  });

  it("reads OPENAI_MAX_RETRIES when maxRetries is not set", async () => {
    vi.stubEnv("OPENAI_MAX_RETRIES", "1");
    h.server.enqueue(errorReply(500), errorReply(500), completion());
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    await expect(generator.run({ messages: question })).rejects.toMatchObject({ status: 500 });
    expect(h.server.requests).toHaveLength(2);
  });

  it("rejects an invalid OPENAI_MAX_RETRIES with a message naming it", async () => {
    vi.stubEnv("OPENAI_MAX_RETRIES", "many");
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    await expect(generator.run({ messages: question })).rejects.toThrow(/OPENAI_MAX_RETRIES/);
  });
});
