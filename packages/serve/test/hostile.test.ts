import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineComponent, FileRunStore, Pipeline } from "@junction/core";
import { createApp, serve } from "@junction/serve";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { echoChatPipeline, gate, greetPipeline } from "./fixtures.js";
import { readEvents } from "./support/sse.js";

/** What hostile or careless clients send, and what the server must answer. */

const local = { host: "127.0.0.1:3700" };

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:3700${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const Keep = defineComponent({
  type: "serve_test.Keep",
  inputs: { value: z.unknown() },
  outputs: { value: z.unknown() },
  run: ({ value }) => ({ value }),
});

function keepPipeline(): Pipeline {
  const pipeline = new Pipeline().addComponent("keep", new Keep());
  pipeline.declareIO({ inputs: { value: "keep.value" }, outputs: { value: "keep.value" } });
  return pipeline;
}

function nested(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

describe("inputs of the wrong type on /stream", () => {
  test("are answered 400 with the issue before a stream opens", async () => {
    const app = createApp({ pipelines: { greet: greetPipeline() }, auth: {} });
    const response = await app.request(post("/pipelines/greet/stream", { name: 42 }));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("PIPELINE_VALIDATION_ERROR");
    expect(body.error.message).toContain("expected string");
  });

  test("valid inputs still stream every event", async () => {
    const app = createApp({ pipelines: { greet: greetPipeline() }, auth: {} });
    const response = await app.request(post("/pipelines/greet/stream", { name: "Ada" }));
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    expect(events.map((event) => event.event)).toEqual([
      "component_start",
      "component_end",
      "component_start",
      "component_end",
      "run_end",
    ]);
    expect(JSON.parse(events.at(-1)?.data ?? "{}").outputs).toEqual({ greeting: "Hello, Ada!" });
  });
});

describe("inputs nested thousands of levels deep", () => {
  const app = () => createApp({ pipelines: { greet: greetPipeline(), keep: keepPipeline() }, auth: {} });

  test.each([
    ["/pipelines/greet/run", `{"name": ${nested(3000)}}`],
    ["/pipelines/greet/stream", `{"name": ${nested(3000)}}`],
    ["/pipelines/keep/run", `{"value": ${nested(3000)}}`],
    ["/pipelines/keep/stream", `{"value": ${nested(3000)}}`],
    ["/pipelines/keep/run", `{"value": ${nested(200_000)}}`],
  ])("%s is answered 400 naming the depth limit", async (path, body) => {
    const response = await app().request(post(path, body));
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: { type: string; message: string } };
    expect(answer.error.type).toBe("PipelineValidationError");
    expect(answer.error.message).toContain("nested more than 64 levels deep");
  });

  test("a value within the limit reaches a z.unknown() input unchanged", async () => {
    const value = JSON.parse(nested(60));
    const response = await app().request(post("/pipelines/keep/run", { value }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outputs: unknown }).outputs).toEqual({ value });
  });

  test("tool call arguments nested too deep are refused on /v1/chat/completions", async () => {
    const args = JSON.stringify({ a: JSON.parse(nested(3000)) });
    const response = await createApp({ pipelines: { echo: echoChatPipeline() }, auth: {} }).request(
      post("/v1/chat/completions", {
        model: "echo",
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: args } }],
          },
        ],
      }),
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("nested more than 64 levels deep");
  });
});

describe("OPTIONS with CORS on and a token set", () => {
  const app = () =>
    createApp({
      pipelines: { greet: greetPipeline() },
      auth: { token: "secret" },
      cors: { origins: ["https://app.example"] },
    });

  test("a request that is not a preflight needs the token", async () => {
    const refused = await app().request("/pipelines", { method: "OPTIONS", headers: local });
    expect(refused.status).toBe(401);
    const allowed = await app().request("/pipelines", {
      method: "OPTIONS",
      headers: { ...local, authorization: "Bearer secret" },
    });
    expect(allowed.status).toBe(204);
  });

  test("a preflight from an allowed origin needs none", async () => {
    const response = await app().request("/pipelines/greet/run", {
      method: "OPTIONS",
      headers: {
        ...local,
        origin: "https://app.example",
        "access-control-request-method": "POST",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });
});

describe("GET /runs/<id> with ids no run can have", () => {
  test.each(["..%2F..%2Fetc%2Fpasswd", ".hidden", "a".repeat(200)])(
    "%s on a FileRunStore is 404 RUN_NOT_FOUND",
    async (id) => {
      const store = new FileRunStore(await mkdtemp(join(tmpdir(), "junction-serve-")));
      const app = createApp({ pipelines: { greet: greetPipeline() }, auth: {}, store });
      for (const request of [
        new Request(`http://127.0.0.1:3700/runs/${id}`, { headers: local }),
        post(`/runs/${id}/resume`, { decisions: {} }),
      ]) {
        const response = await app.request(request);
        expect(response.status).toBe(404);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("RUN_NOT_FOUND");
      }
    },
  );
});

describe("errors on /v1/* in the OpenAI API's shape", () => {
  const app = (options: Partial<Parameters<typeof createApp>[0]> = {}) =>
    createApp({ pipelines: { echo: echoChatPipeline(), greet: greetPipeline() }, auth: {}, ...options });
  const chat = (body: unknown, headers: Record<string, string> = {}) =>
    post("/v1/chat/completions", body, headers);

  test("an unknown model: 404 model_not_found on param model", async () => {
    const response = await app().request(
      chat({ model: "gpt-9", messages: [{ role: "user", content: "x" }] }),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        message: 'there is no chat model "gpt-9". Models: "echo".',
        type: "invalid_request_error",
        code: "model_not_found",
        param: "model",
      },
    });
  });

  test("an invalid message names its field as param", async () => {
    const response = await app().request(chat({ model: "echo", messages: [{ role: "robot" }] }));
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      type: "invalid_request_error",
      code: "pipeline_validation_error",
      param: "messages[0].role",
    });
  });

  test("a missing or wrong token: 401 invalid_api_key", async () => {
    const response = await app({ auth: { token: "secret" } }).request(
      chat({ model: "echo", messages: [{ role: "user", content: "x" }] }, { authorization: "Bearer nope" }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        message: "the bearer token is not valid.",
        type: "invalid_request_error",
        code: "invalid_api_key",
        param: null,
      },
    });
  });

  test("an unknown /v1 route, and other routes keep Junction's shape", async () => {
    const missing = await app().request("/v1/embeddings", { method: "POST", headers: local });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    const junction = await app().request(post("/pipelines/greet/run", { name: 1 }));
    expect(((await junction.json()) as { error: { type: string } }).error.type).toBe(
      "PipelineValidationError",
    );
  });

  test("n > 1 is refused with 400 unsupported_value on param n; n = 1 answers", async () => {
    const messages = [{ role: "user", content: "x" }];
    const refused = await app().request(chat({ model: "echo", n: 2, messages }));
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { code: string; param: string; message: string } };
    expect(error.code).toBe("unsupported_value");
    expect(error.param).toBe("n");
    expect(error.message).toContain("one choice per request");
    const answered = await app().request(chat({ model: "echo", n: 1, messages }));
    expect(answered.status).toBe(200);
  });
});

describe("timeouts", () => {
  test("a run longer than the run timeout is stopped and answered 504", async () => {
    const { Wait, aborted } = gate();
    const app = createApp({ pipelines: { slow: new Wait() }, auth: {}, run: { timeoutMs: 50 } });
    const response = await app.request(post("/pipelines/slow/run", { slow: { value: "v" } }));
    expect(response.status).toBe(504);
    const { error } = (await response.json()) as { error: { type: string; message: string } };
    expect(error.type).toBe("TimeoutError");
    expect(error.message).toContain("run timeout (50 ms)");
    expect(((await aborted) as Error).name).toBe("TimeoutError");
  });

  test("a streamed run past the run timeout ends with a TimeoutError event", async () => {
    const { Wait } = gate();
    const app = createApp({ pipelines: { slow: new Wait() }, auth: {}, run: { timeoutMs: 50 } });
    const response = await app.request(post("/pipelines/slow/stream", { slow: { value: "v" } }));
    const events = await readEvents(response);
    expect(events.at(-1)?.event).toBe("error");
    expect(events.at(-1)?.data).toContain("TimeoutError");
  });

  test("a client that never finishes its headers is cut off after headersTimeoutMs", async () => {
    const server = await serve({
      app: createApp({ pipelines: { greet: greetPipeline() }, auth: {} }),
      port: 0,
      headersTimeoutMs: 200,
    });
    try {
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, "127.0.0.1", () => {
          socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        });
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString();
        });
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await server.close();
    }
  });
});
