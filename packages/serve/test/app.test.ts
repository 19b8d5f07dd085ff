import { request as httpRequest } from "node:http";
import { defineComponent, Pipeline } from "@junction/core";
import { createApp, serve } from "@junction/serve";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { echoChatPipeline, Fail, gate, greetPipeline, NeedsHandle, weatherAgent } from "./fixtures.js";
import { readEvents } from "./support/sse.js";

const local = { host: "127.0.0.1:3700" };

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:3700${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function app(options: Partial<Parameters<typeof createApp>[0]> = {}) {
  return createApp({
    pipelines: { greet: greetPipeline(), weather: weatherAgent(), echo: echoChatPipeline() },
    auth: {},
    ...options,
  });
}

describe("describing what is served", () => {
  test("/health, /info and /pipelines", async () => {
    const server = app();
    expect(await (await server.request("/health", { headers: local })).json()).toEqual({ status: "ok" });
    expect(await (await server.request("/info", { headers: local })).json()).toEqual({
      name: "junction",
      version: "0.1.0",
      pipelines: ["greet", "weather", "echo"],
      openai: true,
      mcp: true,
      runs: false,
      auth: false,
    });
    const list = (await (await server.request("/pipelines", { headers: local })).json()) as {
      pipelines: { name: string; chat: boolean; description: string }[];
    };
    expect(list.pipelines.map(({ name, chat, description }) => [name, chat, description])).toEqual([
      ["greet", false, "Greets someone by name."],
      ["weather", true, 'Runs the Junction pipeline "weather".'],
      ["echo", true, 'Runs the Junction pipeline "echo".'],
    ]);
  });

  test("/pipelines/{name}: schemas from the declared inputs, the document and the diagram", async () => {
    const response = await app().request("/pipelines/greet", { headers: local });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.input_schema).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
    expect(body.output_schema).toEqual({ type: "object", properties: { greeting: { type: "string" } } });
    expect((body.document as { inputs: unknown }).inputs).toEqual({ name: "greet.name" });
    expect(body.mermaid).toContain("flowchart");
  });

  test("an agent's request schema has its messages in the ChatMessage wire shape", async () => {
    const body = (await (await app().request("/pipelines/weather", { headers: local })).json()) as {
      input_schema: {
        properties: { weather: { properties: Record<string, { items?: { properties?: object } }> } };
      };
    };
    const sockets = body.input_schema.properties.weather.properties;
    expect(Object.keys(sockets)).toContain("messages");
    expect(Object.keys(sockets)).toContain("tools"); // tool names: JSON
    expect(Object.keys(sockets)).not.toContain("streaming_callback"); // optional and not JSON: left out
    expect(Object.keys(sockets.messages?.items?.properties ?? {})).toEqual([
      "role",
      "content",
      "name",
      "meta",
    ]);
  });

  test("/openapi.json lists each pipeline's run and stream with its request schema", async () => {
    const doc = (await (await app().request("/openapi.json", { headers: local })).json()) as {
      openapi: string;
      paths: Record<
        string,
        { post?: { requestBody: { content: { "application/json": { schema: unknown } } } } }
      >;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/pipelines/greet/run",
        "/pipelines/greet/stream",
        "/v1/chat/completions",
        "/mcp",
      ]),
    );
    expect(doc.paths["/pipelines/greet/run"]?.post?.requestBody.content["application/json"].schema).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
  });

  test("a mandatory socket that cannot travel as JSON stops createApp, naming it", () => {
    const p = new Pipeline().addComponent("needs", new NeedsHandle());
    expect(() => createApp({ pipelines: { bad: p }, auth: {} })).toThrow(
      'the mandatory input socket "needs.handle" cannot be given by a remote caller',
    );
  });
});

describe("running", () => {
  test("POST /pipelines/{name}/run answers the declared outputs", async () => {
    const response = await app().fetch(post("/pipelines/greet/run", { name: "Ada" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ outputs: { greeting: "Hello, Ada!" }, never_ran: [] });
  });

  test("an agent runs over HTTP: messages in their wire shape, the reply as JSON", async () => {
    const response = await app().fetch(
      post("/pipelines/weather/run", {
        weather: { messages: [{ role: "user", content: [{ text: "Weather in Paris?" }] }] },
      }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      outputs: {
        weather: { last_message: { role: string; content: { text: string }[] }; exit_reason: string };
      };
    };
    expect(body.outputs.weather.last_message.role).toBe("assistant");
    expect(body.outputs.weather.last_message.content[0]?.text).toBe("It is sunny in Paris.");
    expect(body.outputs.weather.exit_reason).toBe("text");
  });

  test("bad JSON and invalid inputs are 400 with every issue, never a stack trace", async () => {
    const server = app();
    const bad = await server.fetch(post("/pipelines/greet/run", "{ name: "));
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { error: { type: string; message: string } };
    expect(badBody.error.type).toBe("InvalidJSON");
    expect(JSON.stringify(badBody)).not.toContain("    at ");

    const invalid = await server.fetch(post("/pipelines/greet/run", { name: 42, nmae: "x" }));
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as {
      error: { type: string; issues: { path: string[]; message: string }[] };
    };
    expect(body.error.type).toBe("PipelineValidationError");
    expect(body.error.issues.map((issue) => issue.path.join("."))).toEqual(["nmae"]);

    const typed = await server.fetch(post("/pipelines/greet/run", { name: 42 }));
    expect(typed.status).toBe(400);
    const typedBody = (await typed.json()) as { error: { issues: { path: string[] }[] } };
    expect(typedBody.error.issues.map((issue) => issue.path.join("."))).toEqual(["greet.name"]);

    const notJSON = await server.fetch(
      post("/pipelines/greet/run", "name=Ada", { "content-type": "text/plain" }),
    );
    expect(notJSON.status).toBe(415);
  });

  test("an error inside a run is a JSON error with its class and message, and the server keeps serving", async () => {
    const server = createApp({ pipelines: { check: new Fail() }, auth: {} });
    const failed = await server.fetch(post("/pipelines/check/run", { check: { text: "boom" } }));
    expect(failed.status).toBe(500);
    const body = (await failed.json()) as { error: Record<string, unknown> };
    expect(body.error.type).toBe("PipelineRuntimeError");
    expect(body.error.component).toBe("check");
    expect(body.error.message).toContain("the text was boom");
    expect(JSON.stringify(body)).not.toContain("    at ");
    const next = await server.fetch(post("/pipelines/check/run", { check: { text: "fine" } }));
    expect(await next.json()).toEqual({ outputs: { check: { text: "fine" } }, never_ran: [] });
  });

  test("answers carry bigints as strings, maps as objects and sets as lists, plain values unchanged", async () => {
    const Shapes = defineComponent({
      type: "serve_test.Shapes",
      inputs: { size: z.number() },
      outputs: { plain: z.unknown(), special: z.unknown() },
      run: ({ size }) => ({
        plain: { list: [1, "two", null, { three: true }], size },
        special: { big: 10n ** 20n, map: new Map([["a", 1]]), set: new Set([size]), when: new Date(0) },
      }),
    });
    const server = createApp({ pipelines: { shapes: new Shapes() }, auth: {} });
    const response = await server.fetch(post("/pipelines/shapes/run", { shapes: { size: 3 } }));
    expect(await response.json()).toEqual({
      outputs: {
        shapes: {
          plain: { list: [1, "two", null, { three: true }], size: 3 },
          special: {
            big: "100000000000000000000",
            map: { a: 1 },
            set: [3],
            when: "1970-01-01T00:00:00.000Z",
          },
        },
      },
      never_ran: [],
    });
  });

  test("a client that disconnects from /run aborts the run (over a real socket)", async () => {
    const { Wait, aborted, started } = gate();
    const server = await serve({ app: createApp({ pipelines: { slow: new Wait() }, auth: {} }), port: 0 });
    try {
      const body = JSON.stringify({ slow: { value: "v" } });
      const client = httpRequest(`${server.url}/pipelines/slow/run`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      });
      client.on("error", () => undefined);
      client.end(body);
      await started;
      client.destroy();
      // The gate's promise settles only when the run's signal aborts (node-server aborts the request's
      // signal when the connection closes before the answer).
      await expect(aborted).resolves.toBeDefined();
    } finally {
      await server.close();
    }
  });

  test("unknown pipelines and routes are 404 JSON", async () => {
    const response = await app().fetch(post("/pipelines/nope/run", {}));
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'there is no pipeline named "nope". Pipelines: "greet", "weather", "echo".',
    );
    expect((await app().request("/nothing", { headers: local })).status).toBe(404);
  });
});

describe("streaming over SSE", () => {
  test("one named event per pipeline event, run_end with the declared outputs", async () => {
    const response = await app().fetch(post("/pipelines/greet/stream", { name: "Ada" }));
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = await readEvents(response);
    expect(events.map((event) => event.event)).toEqual([
      "component_start",
      "component_end",
      "component_start",
      "component_end",
      "run_end",
    ]);
    expect(JSON.parse(events[0]?.data ?? "")).toEqual({
      component: "greet",
      type: "serve_test.Greet",
      visit: 1,
      inputs: { name: "Ada", punctuation: "!" },
    });
    expect(JSON.parse(events[4]?.data ?? "")).toEqual({
      outputs: { greeting: "Hello, Ada!" },
      never_ran: [],
    });
  });

  test("an agent's streamed chunks arrive as chunk events", async () => {
    const response = await app().fetch(
      post("/pipelines/weather/stream", { weather: { messages: [{ role: "user", content: "Weather?" }] } }),
    );
    const events = await readEvents(response);
    const text = events
      .filter((event) => event.event === "chunk")
      .map((event) => (JSON.parse(event.data) as { chunk: { content: string } }).chunk.content)
      .join("");
    expect(text).toBe("It is sunny in Paris.");
    expect(events.at(-1)?.event).toBe("run_end");
  });

  test("an error in a streamed run is an error event with its class", async () => {
    const server = createApp({ pipelines: { check: new Fail() }, auth: {} });
    const events = await readEvents(
      await server.fetch(post("/pipelines/check/stream", { check: { text: "boom" } })),
    );
    expect(events.at(-1)?.event).toBe("error");
    expect((JSON.parse(events.at(-1)?.data ?? "") as { error: { type: string } }).error.type).toBe(
      "PipelineRuntimeError",
    );
  });

  test("an invalid request is answered 400 before any stream starts", async () => {
    const response = await app().fetch(post("/pipelines/greet/stream", { nobody: 1 }));
    expect(response.status).toBe(400);
  });

  test("heartbeats keep an idle stream open while a component works", async () => {
    const { Wait, release } = gate();
    const server = createApp({ pipelines: { slow: new Wait() }, auth: {}, heartbeatMs: 1 });
    const response = await server.fetch(post("/pipelines/slow/stream", { slow: { value: "v" } }));
    const events = await readEvents(response, (seen) => {
      if (seen.some((event) => event.event === ":")) release();
      return false;
    });
    expect(events.some((event) => event.event === ":" && event.data === "heartbeat")).toBe(true);
    expect(events.at(-1)?.event).toBe("run_end");
  });

  test("a client that disconnects aborts the run", async () => {
    const { Wait, aborted } = gate();
    const server = createApp({ pipelines: { slow: new Wait() }, auth: {} });
    const response = await server.fetch(post("/pipelines/slow/stream", { slow: { value: "v" } }));
    await readEvents(response, (seen) => seen.some((event) => event.event === "component_start"));
    const reason = await aborted;
    expect((reason as Error).name).toBe("AbortError");
  });
});
