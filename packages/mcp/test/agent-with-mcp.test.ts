import { Agent } from "@junction/agents";
import { createRegistry, Pipeline } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { MCPToolset } from "@junction/mcp";
import { afterEach, describe, expect, it } from "vitest";
import { stdioFixture } from "./support.js";

const open: MCPToolset[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

describe("an Agent with MCP tools", { timeout: 30_000 }, () => {
  it("runs MCP tools end to end; a server crash mid-call is a tool error, not a hung run", async () => {
    const tools = new MCPToolset({
      server: { transport: "stdio", command: process.execPath, args: [stdioFixture, "calc"] },
      toolNames: ["add", "crash"],
    });
    open.push(tools);
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        script: [
          // One call per turn: a crash kills the server process, so a call running beside it in the
          // same batch could fail too, depending on timing.
          { toolCalls: [{ toolName: "add", arguments: { a: 2, b: 3 }, id: "c1" }] },
          { toolCalls: [{ toolName: "crash", arguments: {}, id: "c2" }] },
          { toolCalls: [{ toolName: "add", arguments: { a: 5, b: 5 }, id: "c3" }] },
          "2 + 3 is 5, and 5 + 5 is 10; the other tool crashed.",
        ],
      }),
      tools: [tools],
    });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Add, then crash.")] });

    expect(result.exit_reason).toBe("text");
    const results = (result.messages ?? []).flatMap((message) => message.toolCallResults);
    expect(results.map((r) => [r.origin.id, r.error])).toEqual([
      ["c1", false],
      ["c2", true],
      ["c3", false],
    ]);
    expect(results[0]?.result).toBe("5");
    expect(String(results[1]?.result)).toMatch(/MCP tool "crash" failed/);
    // After the crash the server was started again for the next step.
    expect(results[2]?.result).toBe("10");
    expect(result.tool_call_counts).toEqual({ add: 2, crash: 1 });
  });

  it("saves and loads an agent whose tools come from an MCP server", () => {
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({ script: ["hi"] }),
      tools: [
        new MCPToolset({ server: { transport: "http", url: "http://127.0.0.1:9/mcp" }, toolNames: ["add"] }),
      ],
    });
    const pipeline = new Pipeline().addComponent("agent", agent);
    const doc = pipeline.toJSON();
    const tools = (doc.components.agent!.init_parameters as { tools: unknown }).tools;
    expect(tools).toEqual([
      {
        type: "junction.MCPToolset",
        data: {
          servers: [{ transport: "http", url: "http://127.0.0.1:9/mcp" }],
          tool_names: ["add"],
          timeout: 60_000,
          connect_timeout: 30_000,
        },
      },
    ]);
    const loaded = Pipeline.fromJSON(doc, { registry: createRegistry() });
    expect(loaded.toJSON()).toEqual(doc);
  });
});
