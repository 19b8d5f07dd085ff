import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * What the model reads from an MCP tool result: the text parts joined by newlines; images, audio and
 * resources as short placeholders (`[image image/png]`, the resource's text when embedded); the
 * structured content as JSON when there is no text.
 *
 * @param result - the server's `CallToolResult`
 */
export function resultToText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const part of result.content ?? []) {
    if (part.type === "text") parts.push(part.text);
    else if (part.type === "image" || part.type === "audio") parts.push(`[${part.type} ${part.mimeType}]`);
    else if (part.type === "resource")
      parts.push("text" in part.resource ? String(part.resource.text) : `[resource ${part.resource.uri}]`);
    else if (part.type === "resource_link") parts.push(`[resource ${part.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent);
  return parts.join("\n");
}
