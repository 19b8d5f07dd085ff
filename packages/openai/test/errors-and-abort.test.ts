import { ChatMessage, type StreamingChunk } from "@junction/llm";
import { OpenAIApiError, OpenAIChatGenerator } from "@junction/openai";
import { describe, expect, it, vi } from "vitest";
import { chunk, completion, errorReply, textStream } from "./support/fake-openai-server.js";
import { TEST_KEY, useHarness } from "./support/harness.js";

const h = useHarness();
const question = [ChatMessage.fromUser("Hi")];

async function failure(promise: Promise<unknown>): Promise<OpenAIApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAIApiError);
  return error as OpenAIApiError;
}

describe("HTTP errors", () => {
  it("retries a 429 and then succeeds", async () => {
    h.server.enqueue(errorReply(429, "Rate limit reached"), completion({ content: "finally" }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, maxRetries: 2 });
    const { replies = [] } = await generator.run({ messages: question });
    expect(replies[0]?.text).toBe("finally");
    expect(h.server.requests).toHaveLength(2);
  });

  it("gives up on 500s after maxRetries with a typed error carrying the status", async () => {
    h.server.enqueue(errorReply(500), errorReply(500), errorReply(500), completion());
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, maxRetries: 2 });
    const error = await failure(generator.run({ messages: question }));
    expect(error.status).toBe(500);
    expect(error.code).toBe("OPENAI_API_ERROR");
    expect(error.message).toMatch(/HTTP 500.*after 2 retries/s);
    expect(h.server.requests).toHaveLength(3);
  });

  it("does not retry a 400 and says what to check", async () => {
    h.server.enqueue(errorReply(400, "Unsupported parameter: 'foo'"), completion());
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, maxRetries: 3 });
    const error = await failure(generator.run({ messages: question, generation_kwargs: { foo: 1 } }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/Unsupported parameter: 'foo'.*generationKwargs/s);
    expect(h.server.requests).toHaveLength(1);
  });

  it("never shows the API key, even when the server quotes it back", async () => {
    h.server.enqueue(errorReply(401, `Incorrect API key provided: ${TEST_KEY}. Also sk-proj-abc123def456.`));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const error = await failure(generator.run({ messages: question }));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/Incorrect API key provided: \*\*\*/);
    expect(error.message).toMatch(/OPENAI_API_KEY/);
    const everything = `${error.message} ${String((error.cause as Error).message)} ${JSON.stringify((error.cause as { error?: unknown }).error)}`;
    expect(everything).not.toContain(TEST_KEY);
    expect(everything).not.toContain("sk-proj-abc123def456");
  });

  it("reports an unreachable server with no status", async () => {
    const closed = h.server.baseURL;
    await h.server.close();
    const generator = new OpenAIChatGenerator({ baseURL: closed, maxRetries: 0 });
    const error = await failure(generator.run({ messages: question }));
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/127\.0\.0\.1.*is not reachable/s);
  });

  it("says a refused connection means the server is not reachable, without spending the retry budget", async () => {
    const closed = h.server.baseURL;
    await h.server.close();
    const fetches = vi.spyOn(globalThis, "fetch");
    try {
      for (const streaming of [false, true]) {
        fetches.mockClear();
        const generator = new OpenAIChatGenerator({ baseURL: closed, maxRetries: 5 });
        const error = await failure(
          generator.run({ messages: question, ...(streaming ? { streaming_callback: () => {} } : {}) }),
        );
        expect(error.status).toBeUndefined();
        expect(error.message).toContain(`the server at "${closed}" is not reachable (connection refused`);
        expect(error.message).toContain("Start the server, or fix `baseURL`");
        expect(error.message).not.toMatch(/raise `timeout`\./);
        expect(fetches).toHaveBeenCalledTimes(1);
      }
    } finally {
      fetches.mockRestore();
    }
  });

  it("turns an error event inside a stream into a typed error", async () => {
    h.server.enqueue({
      kind: "stream",
      events: [chunk({ content: "par" }), { error: { message: "model overloaded", type: "server_error" } }],
    });
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const error = await failure(generator.run({ messages: question, streaming_callback: () => {} }));
    expect(error.message).toMatch(/model overloaded/);
  });
});

describe("cancellation", () => {
  it("rejects at once with the reason of an already aborted signal, sending nothing", async () => {
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const reason = new Error("user cancelled");
    await expect(generator.run({ messages: question }, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(h.server.requests).toHaveLength(0);
  });

  it("aborts an in-flight request with the signal's reason", async () => {
    h.server.enqueue({ ...completion(), delayMs: 60_000 });
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const controller = new AbortController();
    const disconnected = h.server.nextDisconnect();
    const run = generator.run({ messages: question }, { signal: controller.signal });
    while (h.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error("stop now");
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    await disconnected;
  });

  it("aborts a stream mid-way: rejects (no partial reply) and closes the connection", async () => {
    h.server.enqueue(textStream(["one ", "two ", "three"], { hang: true }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const controller = new AbortController();
    const seen: StreamingChunk[] = [];
    const reason = new Error("enough");
    const disconnected = h.server.nextDisconnect();
    const run = generator.run(
      {
        messages: question,
        streaming_callback: (c) => {
          seen.push(c);
          if (c.content === "two ") controller.abort(reason);
        },
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toBe(reason);
    await disconnected;
    expect(seen.map((c) => c.content).join("")).toBe("one two ");
  });

  it("aborts a stream that is waiting for the next chunk", async () => {
    h.server.enqueue(textStream(["first"], { hang: true }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const controller = new AbortController();
    let resolveFirst: () => void = () => {};
    const firstChunk = new Promise<void>((resolve) => {
      resolveFirst = resolve;
    });
    const run = generator.run(
      { messages: question, streaming_callback: (c) => (c.content === "first" ? resolveFirst() : undefined) },
      { signal: controller.signal },
    );
    await firstChunk;
    const reason = new Error("timeout by user");
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
  });

  it("passes on an error thrown by the streaming callback and closes the stream", async () => {
    h.server.enqueue(textStream(["a", "b", "c"], { hang: true }));
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const disconnected = h.server.nextDisconnect();
    const boom = new Error("callback failed");
    const run = generator.run({
      messages: question,
      streaming_callback: (c) => {
        if (c.content === "b") throw boom;
      },
    });
    await expect(run).rejects.toBe(boom);
    await disconnected;
  });
});
