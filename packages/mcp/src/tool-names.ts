import { createHash } from "node:crypto";

const MAX = 64;

function sanitize(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "server";
}

/**
 * The name a tool is offered under: its own, or `server__tool` when another server of the toolset has a
 * tool of the same name. Names keep to what providers accept (`[A-Za-z0-9_-]`, at most 64 characters;
 * a longer one is cut and ends in a short hash, so it stays unique).
 *
 * @param toolName - the tool's name on its server
 * @param serverName - the server's name
 * @param collides - whether another server offers the same name
 */
export function offeredName(toolName: string, serverName: string, collides: boolean): string {
  const name = collides ? `${sanitize(serverName)}__${toolName}` : toolName;
  if (name.length <= MAX) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX - 9)}_${hash}`;
}
