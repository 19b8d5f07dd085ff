import { createApp } from "@junction/serve";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, test } from "vitest";
import { greetPipeline, weatherAgent } from "./fixtures.js";

/** An MCP client talking to the app without a socket (the transport's fetch goes to app.fetch). */
async function connect(app: ReturnType<typeof createApp>, token?: string): Promise<Client> {
  const client = new Client({ name: "junction-test", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3700/mcp"), {
    fetch: async (url, init) => app.fetch(new Request(url, init)),
    ...(token !== undefined ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  });
  await client.connect(transport);
  return client;
}

let open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.map((client) => client.close()));
  open = [];
});

describe("pipelines as MCP tools (stateless Streamable HTTP at /mcp)", () => {
  const app = createApp({
    pipelines: { greet: greetPipeline(), weather: weatherAgent() },
    auth: { token: "k" },
  });

  test("each pipeline is a tool with its request and response schemas", async () => {
    const client = await connect(app, "k");
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["greet", "weather"]);
    const greet = tools[0];
    expect(greet?.description).toBe("Greets someone by name.");
    expect(greet?.inputSchema).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
    expect(greet?.outputSchema).toEqual({ type: "object", properties: { greeting: { type: "string" } } });
  });

  test("calling a tool runs the pipeline: structured content and a text rendering", async () => {
    const client = await connect(app, "k");
    open.push(client);
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ greeting: "Hello, Ada!" });
    expect(result.content).toEqual([{ type: "text", text: '{"greeting":"Hello, Ada!"}' }]);
  });

  test("an agent as a tool: messages in their wire shape", async () => {
    const client = await connect(app, "k");
    open.push(client);
    const result = await client.callTool({
      name: "weather",
      arguments: { weather: { messages: [{ role: "user", content: [{ text: "Weather?" }] }] } },
    });
    const outputs = result.structuredContent as {
      weather: { last_message: { content: { text: string }[] } };
    };
    expect(outputs.weather.last_message.content[0]?.text).toBe("It is sunny in Paris.");
  });

  test("invalid arguments come back as a tool error naming the problem, not an exception", async () => {
    const client = await connect(app, "k");
    open.push(client);
    const result = await client.callTool({ name: "greet", arguments: { name: 7 } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(
      /^PipelineValidationError: .*greet\.name/s,
    );
  });

  test("the bearer token guards /mcp", async () => {
    await expect(connect(app)).rejects.toThrow(/Unauthorized/);
  });
});
