// A tiny MCP server over stdio, for examples/mcp-tools.ts: a notebook with `add_note` and `list_notes`.
// Any MCP server works the same way (npx -y @modelcontextprotocol/server-filesystem ., ...).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const notes = [];
const server = new McpServer({ name: "notebook", version: "1.0.0" });
server.registerTool(
  "add_note",
  { description: "Saves a note", inputSchema: { text: z.string().min(1) } },
  async ({ text }) => {
    notes.push(text);
    return { content: [{ type: "text", text: `saved note ${notes.length}` }] };
  },
);
server.registerTool("list_notes", { description: "Lists every note", inputSchema: {} }, async () => ({
  content: [
    { type: "text", text: notes.map((note, index) => `${index + 1}. ${note}`).join("\n") || "no notes" },
  ],
}));
server.registerTool("delete_all", { description: "Deletes every note", inputSchema: {} }, async () => {
  notes.length = 0;
  return { content: [{ type: "text", text: "deleted" }] };
});
await server.connect(new StdioServerTransport());
