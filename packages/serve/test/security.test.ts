import { createApp } from "@junction/serve";
import { afterEach, describe, expect, test, vi } from "vitest";
import { greetPipeline } from "./fixtures.js";

function request(path: string, init: RequestInit & { host?: string } = {}): Request {
  const { host = "127.0.0.1:3700", ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set("host", host);
  return new Request(`http://${host}${path}`, { ...rest, headers });
}

const mcpInit = {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
  }),
};
const routes: [string, RequestInit][] = [
  ["/health", {}],
  ["/info", {}],
  ["/pipelines", {}],
  ["/pipelines/greet", {}],
  ["/openapi.json", {}],
  ["/v1/models", {}],
  [
    "/pipelines/greet/run",
    { method: "POST", body: '{"name":"Ada"}', headers: { "content-type": "application/json" } },
  ],
  [
    "/pipelines/greet/stream",
    { method: "POST", body: '{"name":"Ada"}', headers: { "content-type": "application/json" } },
  ],
  [
    "/v1/chat/completions",
    { method: "POST", body: '{"model":"x","messages":[]}', headers: { "content-type": "application/json" } },
  ],
  ["/mcp", mcpInit],
  ["/extra", {}],
];

describe("the bearer token", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("JUNCTION_API_KEY guards every route, including /mcp, the OpenAI routes and added routes", async () => {
    vi.stubEnv("JUNCTION_API_KEY", "s3cret");
    const app = createApp({
      pipelines: { greet: greetPipeline() },
      routes: (hono) => hono.get("/extra", (c) => c.text("extra")),
    });
    for (const [path, init] of routes) {
      const missing = await app.fetch(request(path, init));
      expect([path, missing.status]).toEqual([path, 401]);
      expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="junction"');
      const wrong = await app.fetch(
        request(path, { ...init, headers: { ...(init.headers as object), authorization: "Bearer nope" } }),
      );
      expect([path, wrong.status]).toEqual([path, 401]);
      const right = await app.fetch(
        request(path, { ...init, headers: { ...(init.headers as object), authorization: "Bearer s3cret" } }),
      );
      expect([path, right.status === 401]).toEqual([path, false]);
      await right.body?.cancel();
    }
  });

  test("an explicit token and a verify hook", async () => {
    const app = createApp({
      pipelines: { greet: greetPipeline() },
      auth: { token: "t0ken", verify: (req) => req.headers.get("x-team") === "blue" },
    });
    const ok = await app.fetch(
      request("/health", { headers: { authorization: "Bearer t0ken", "x-team": "blue" } }),
    );
    expect(ok.status).toBe(200);
    const refused = await app.fetch(request("/health", { headers: { authorization: "Bearer t0ken" } }));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "the request was refused by the server's auth check.",
    );
  });

  test("an async verify hook is awaited before the route, and the body limit still applies", async () => {
    let checked = 0;
    const app = createApp({
      pipelines: { greet: greetPipeline() },
      auth: {
        verify: async (req) => {
          checked += 1;
          await new Promise((resolve) => setTimeout(resolve, 1));
          return req.headers.get("x-team") === "blue";
        },
      },
      bodyLimit: 64,
    });
    const run = (headers: Record<string, string>, body = '{"name":"Ada"}') =>
      app.fetch(
        request("/pipelines/greet/run", {
          method: "POST",
          body,
          headers: { "content-type": "application/json", ...headers },
        }),
      );
    expect((await run({ "x-team": "red" })).status).toBe(401);
    const ok = await run({ "x-team": "blue" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ outputs: { greeting: "Hello, Ada!" }, never_ran: [] });
    expect((await run({ "x-team": "blue" }, JSON.stringify({ name: "x".repeat(100) }))).status).toBe(413);
    expect(checked).toBe(3);
  });
});

describe("Host and Origin checks (DNS rebinding)", () => {
  const app = createApp({ pipelines: { greet: greetPipeline() }, auth: {} });

  test("loopback names are served; any other Host is refused", async () => {
    for (const host of ["127.0.0.1:3700", "localhost:3700", "[::1]:3700", "localhost"]) {
      expect([host, (await app.fetch(request("/health", { host }))).status]).toEqual([host, 200]);
    }
    const refused = await app.fetch(request("/health", { host: "attacker.example:3700" }));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { type: string } }).error.type).toBe("HostNotAllowed");
  });

  test("a browser page from another origin is refused; the same host is fine", async () => {
    const foreign = await app.fetch(request("/health", { headers: { origin: "https://attacker.example" } }));
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { type: string } }).error.type).toBe("OriginNotAllowed");
    const same = await app.fetch(request("/health", { headers: { origin: "http://localhost:3700" } }));
    expect(same.status).toBe(200);
  });

  test("cors.origins lets a named site call, with CORS headers and preflight", async () => {
    const withCors = createApp({
      pipelines: { greet: greetPipeline() },
      auth: { token: "t" },
      cors: { origins: ["https://app.example"] },
    });
    const preflight = await withCors.fetch(
      request("/pipelines/greet/run", {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const call = await withCors.fetch(
      request("/health", { headers: { origin: "https://app.example", authorization: "Bearer t" } }),
    );
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-allow-origin")).toBe("https://app.example");
    // A refusal still carries the CORS headers, so the page can read why it was refused.
    const refused = await withCors.fetch(request("/health", { headers: { origin: "https://app.example" } }));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const foreign = await withCors.fetch(
      request("/health", { headers: { origin: "https://attacker.example", authorization: "Bearer t" } }),
    );
    expect(foreign.status).toBe(403);
  });

  test('allowedHosts names the hosts of a deployment; "*" leaves the check to a proxy', async () => {
    const named = createApp({
      pipelines: { greet: greetPipeline() },
      auth: {},
      allowedHosts: ["api.example"],
    });
    expect((await named.fetch(request("/health", { host: "api.example" }))).status).toBe(200);
    expect((await named.fetch(request("/health", { host: "localhost" }))).status).toBe(403);
    const any = createApp({ pipelines: { greet: greetPipeline() }, auth: {}, allowedHosts: "*" });
    expect((await any.fetch(request("/health", { host: "whatever.example" }))).status).toBe(200);
  });
});

describe("request bodies", () => {
  test("bodies over the limit are 413, from Content-Length or while reading", async () => {
    const app = createApp({ pipelines: { greet: greetPipeline() }, auth: {}, bodyLimit: 64 });
    const big = JSON.stringify({ name: "x".repeat(100) });
    const declared = await app.fetch(
      request("/pipelines/greet/run", {
        method: "POST",
        body: big,
        headers: { "content-type": "application/json" },
      }),
    );
    expect(declared.status).toBe(413);
    const streamed = await app.fetch(
      request("/pipelines/greet/run", {
        method: "POST",
        body: new Blob([big]).stream(),
        headers: { "content-type": "application/json" },
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { type: string } }).error.type).toBe("PayloadTooLarge");
  });

  test("nothing can be deployed over HTTP", async () => {
    const app = createApp({ pipelines: { greet: greetPipeline() }, auth: {} });
    for (const path of ["/pipelines", "/pipelines/new", "/deploy", "/pipelines/greet"]) {
      const response = await app.fetch(
        request(path, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
      );
      expect([path, response.status]).toEqual([path, 404]);
    }
  });
});
