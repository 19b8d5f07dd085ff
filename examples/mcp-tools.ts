/**
 * The tools of an MCP server as an agent's tools: the server runs as a child process over stdio,
 * `toolNames` keeps the dangerous tool away from the model, and a crash or an error result would come
 * back to the model as a tool error.
 *
 * The model is scripted so the example runs offline; swap in any chat generator.
 *
 * Run: npx tsx --conditions=@junction/source examples/mcp-tools.ts
 */
import { fileURLToPath } from "node:url";
import { Agent } from "@junction/agents";
import { ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { MCPToolset } from "@junction/mcp";
import { type ExampleIO, runIfMain } from "./io.js";

/** Runs the agent against the notebook server; returns the tool names offered and the final answer. */
export async function main(io: ExampleIO): Promise<{ offered: string[]; answer: string | undefined }> {
  const notebook = new MCPToolset({
    server: {
      transport: "stdio",
      command: process.execPath,
      args: [fileURLToPath(new URL("./mcp-server.mjs", import.meta.url))],
    },
    toolNames: ["add_note", "list_notes"], // not "delete_all"
  });
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({
      script: [
        {
          toolCalls: [
            { toolName: "add_note", arguments: { text: "buy milk" } },
            { toolName: "add_note", arguments: { text: "" } },
          ],
        },
        { toolCalls: [{ toolName: "list_notes", arguments: {} }] },
        "Your notebook has one note: buy milk.",
      ],
    }),
    tools: [notebook],
  });
  try {
    const result = await agent.run({
      messages: [ChatMessage.fromUser("Note: buy milk. What is in my notebook?")],
    });
    const offered = notebook.tools().map((tool) => tool.name);
    io.write(`tools offered: ${offered.join(", ")}\n`);
    for (const message of result.messages ?? []) {
      const toolResult = message.toolCallResult;
      if (toolResult === undefined) continue;
      const args = JSON.stringify(toolResult.origin.arguments);
      const text = String(toolResult.result).split("\n")[0];
      io.write(`${toolResult.origin.toolName}(${args}) → ${toolResult.error ? "error: " : ""}${text}\n`);
    }
    io.write(`answer: ${result.last_message?.text}\n`);
    return { offered, answer: result.last_message?.text };
  } finally {
    await notebook.close();
  }
}

runIfMain(import.meta.url, main);
