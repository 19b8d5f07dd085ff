import { MemoryLogger, Secret, SerializationError } from "@junction/core";
import { ToolInvocationError, toolsFromJSON, toolsToJSON } from "@junction/llm";
import { MCPError, MCPToolset } from "@junction/mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startHttpServer } from "./fixtures/http-server.js";
import { inProcessServer, stdioFixture } from "./support.js";

const open: MCPToolset[] = [];
function toolset(...args: ConstructorParameters<typeof MCPToolset>): MCPToolset {
  const created = new MCPToolset(...args);
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

describe("MCPToolset in process (linked transports)", () => {
  it("connects at warm-up, not before, and offers the server's tools with their JSON Schema", async () => {
    const tools = toolset({ server: inProcessServer() });
    expect(tools.tools()).toEqual([]);
    await tools.warmUp();
    expect(tools.tools().map((tool) => tool.name)).toEqual(["add", "echo", "fail", "slow", "crash", "learn"]);
    const add = tools.get("add")!;
    expect(add.description).toBe("Adds two numbers");
    expect(add.spec.parameters).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(await add.invoke({ a: 2, b: 3 })).toBe("5");
  });

  it("returns isError results and invalid arguments as tool errors", async () => {
    const tools = toolset({ server: inProcessServer() });
    await tools.warmUp();
    const failure = tools.get("fail")!.invoke({});
    await expect(failure).rejects.toThrow(ToolInvocationError);
    await expect(failure).rejects.toThrow('MCP tool "fail" returned an error: the database is read-only');
    await expect(tools.get("add")!.invoke({ a: "two", b: 3 })).rejects.toThrow(ToolInvocationError);
  });

  it("offers only toolNames, and names every missing tool with the available ones", async () => {
    const some = toolset({ server: inProcessServer(), toolNames: ["echo", "add"] });
    await some.warmUp();
    expect(some.tools().map((tool) => tool.name)).toEqual(["add", "echo"]);

    const wrong = toolset({ server: inProcessServer(), toolNames: ["add", "search", "fetch"] });
    const failure = wrong.warmUp();
    await expect(failure).rejects.toThrow(MCPError);
    await expect(failure).rejects.toThrow(
      'the tools "search", "fetch" are not offered by the server (custom transport). Available: "add", "echo", "fail", "slow", "crash", "learn".',
    );
  });

  it("prefixes tool names that two servers share with the server's name", async () => {
    const tools = toolset({
      servers: [inProcessServer({ name: "alpha" }), inProcessServer({ name: "beta" })],
      toolNames: ["alpha__add", "beta__add", "alpha__echo"],
    });
    await tools.warmUp();
    expect(tools.tools().map((tool) => tool.name)).toEqual(["alpha__add", "alpha__echo", "beta__add"]);
    expect(await tools.get("beta__add")!.invoke({ a: 1, b: 1 })).toBe("2");
  });

  it("lists the tools again when the server says they changed", async () => {
    const tools = toolset({ server: inProcessServer() });
    await tools.warmUp();
    expect(tools.has("hello")).toBe(false);
    expect(await tools.get("learn")!.invoke({ word: "hello" })).toBe("learned hello");
    await vi.waitFor(() => expect(tools.has("hello")).toBe(true));
    expect(await tools.get("hello")!.invoke({})).toBe("hello");
  });

  it("passes the run's signal to callTool: aborting rejects with the reason and cancels on the server", async () => {
    const onCancelled = vi.fn();
    const tools = toolset({ server: inProcessServer({ onCancelled }) });
    await tools.warmUp();
    const controller = new AbortController();
    const call = tools.get("slow")!.invoke({ ms: 60_000 }, { signal: controller.signal });
    const reason = new Error("user pressed stop");
    setTimeout(() => controller.abort(reason), 20);
    await expect(call).rejects.toBe(reason);
    await vi.waitFor(() => expect(onCancelled).toHaveBeenCalled());
  });

  it("turns a call that exceeds the timeout into a tool error", async () => {
    const tools = toolset({ server: inProcessServer(), timeout: 50 });
    await tools.warmUp();
    await expect(tools.get("slow")!.invoke({ ms: 60_000 })).rejects.toThrow(
      /MCP tool "slow" failed: .*timed out/i,
    );
  });

  it("saves server descriptions as JSON with secrets as env-var references, and loads them back", () => {
    const tools = new MCPToolset({
      server: {
        transport: "stdio",
        command: "node",
        args: ["server.mjs"],
        env: { API_KEY: Secret.fromEnvVar("DEMO_KEY"), MODE: "test" },
      },
      toolNames: ["add"],
      timeout: 5000,
    });
    const doc = toolsToJSON([tools]);
    expect(doc).toEqual([
      {
        type: "junction.MCPToolset",
        data: {
          servers: [
            {
              transport: "stdio",
              command: "node",
              args: ["server.mjs"],
              env: { API_KEY: { type: "env_var", env_vars: ["DEMO_KEY"], strict: true }, MODE: "test" },
            },
          ],
          tool_names: ["add"],
          timeout: 5000,
          connect_timeout: 30_000,
        },
      },
    ]);
    const loaded = toolsFromJSON(doc) as MCPToolset[];
    expect(loaded[0]).toBeInstanceOf(MCPToolset);
    expect(toolsToJSON(loaded)).toEqual(doc);
    expect(() => toolsToJSON([new MCPToolset({ server: inProcessServer() })])).toThrow(SerializationError);
    expect(() =>
      toolsToJSON([
        new MCPToolset({
          server: { transport: "http", url: "http://127.0.0.1:1/mcp", token: Secret.fromToken("t") },
        }),
      ]),
    ).toThrow(/cannot be serialized/);
  });
});

// Starting node child processes takes a while on a busy machine.
describe("MCPToolset over stdio (a child process)", { timeout: 30_000 }, () => {
  it("starts the server with secret env values, calls tools, and survives a crash mid-call", async () => {
    vi.stubEnv("DEMO_SECRET_FOR_TEST", "s3cret");
    const tools = toolset({
      server: {
        transport: "stdio",
        command: process.execPath,
        args: [stdioFixture, "demo-stdio"],
        env: { DEMO_REQUIRED_KEY: Secret.fromEnvVar("DEMO_SECRET_FOR_TEST") },
      },
    });
    await tools.warmUp();
    expect(await tools.get("echo")!.invoke({ text: "over stdio" })).toBe("over stdio");

    const crash = tools.get("crash")!.invoke({});
    await expect(crash).rejects.toThrow(ToolInvocationError);
    await expect(crash).rejects.toThrow(
      /MCP tool "crash" failed: the stdio server ".*" did not answer: .*fatal: out of memory/s,
    );
    // The next call starts the server again.
    expect(await tools.get("add")!.invoke({ a: 20, b: 22 })).toBe("42");
    vi.unstubAllEnvs();
  });

  it("reports a server that does not start, with its stderr", async () => {
    const tools = toolset({
      server: {
        transport: "stdio",
        command: process.execPath,
        args: ["-e", "console.error('no such module'); process.exit(2)"],
      },
      connectTimeout: 5000,
    });
    await expect(tools.warmUp()).rejects.toThrow(MCPError);
    await expect(tools.warmUp()).rejects.toThrow(/could not connect to the stdio server .*no such module/s);
  });
});

describe("MCPToolset over Streamable HTTP (127.0.0.1)", { timeout: 30_000 }, () => {
  it("sends the token and headers, lists and calls tools", async () => {
    const http = await startHttpServer();
    try {
      vi.stubEnv("DEMO_HTTP_TOKEN", "tok-123");
      const tools = toolset({
        server: {
          transport: "http",
          url: http.url,
          token: Secret.fromEnvVar("DEMO_HTTP_TOKEN"),
          headers: { "x-team": "search" },
        },
        toolNames: ["add", "fail"],
        logger: new MemoryLogger(),
      });
      await tools.warmUp();
      vi.unstubAllEnvs();
      expect(tools.tools().map((tool) => tool.name)).toEqual(["add", "fail"]);
      expect(await tools.get("add")!.invoke({ a: 1, b: 2 })).toBe("3");
      await expect(tools.get("fail")!.invoke({})).rejects.toThrow("the database is read-only");
      expect(http.headers[0]).toMatchObject({ authorization: "Bearer tok-123", "x-team": "search" });
    } finally {
      await Promise.all(open.splice(0).map((item) => item.close()));
      await http.close();
    }
  });
});
