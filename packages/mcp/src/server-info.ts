import { type Issue, Secret, type SecretJSON, SerializationError } from "@junction/core";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** A value that is either plain text or a {@link Secret} (resolved when connecting, never written out). */
export type SecretOrString = string | Secret;

/** An MCP server started as a child process speaking MCP over stdin/stdout. */
export interface StdioServerInfo {
  readonly transport: "stdio";
  /** A name for the server (used to prefix colliding tool names); default: the name the server reports. */
  readonly name?: string | undefined;
  /** The executable, e.g. `"npx"` or `"node"`. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[] | undefined;
  /** Extra environment variables (values may be `Secret`s); added to a minimal default environment. */
  readonly env?: Readonly<Record<string, SecretOrString>> | undefined;
  /** The working directory. */
  readonly cwd?: string | undefined;
}

/** An MCP server reached over Streamable HTTP. */
export interface HttpServerInfo {
  readonly transport: "http";
  /** A name for the server (used to prefix colliding tool names); default: the name the server reports. */
  readonly name?: string | undefined;
  /** The endpoint, e.g. `"http://127.0.0.1:3000/mcp"`. */
  readonly url: string;
  /** Extra request headers (values may be `Secret`s). */
  readonly headers?: Readonly<Record<string, SecretOrString>> | undefined;
  /** A bearer token, sent as `Authorization: Bearer <token>`. */
  readonly token?: Secret | undefined;
}

/**
 * A server reached through a transport you create (an in-process server in tests, a custom transport).
 * Not serializable: saving a toolset with one fails.
 */
export interface TransportServerInfo {
  readonly transport: "custom";
  /** A name for the server; default: the name the server reports. */
  readonly name?: string | undefined;
  /** Creates a fresh, unconnected transport (called on every (re)connect). */
  readonly createTransport: () => Transport;
}

/** Where an MCP server is: stdio, Streamable HTTP, or a transport you create. */
export type MCPServerInfo = StdioServerInfo | HttpServerInfo | TransportServerInfo;

/** The JSON form of a server description (secrets as env-var references). */
export type MCPServerInfoJSON =
  | {
      readonly transport: "stdio";
      readonly name?: string;
      readonly command: string;
      readonly args?: readonly string[];
      readonly env?: Readonly<Record<string, string | SecretJSON>>;
      readonly cwd?: string;
    }
  | {
      readonly transport: "http";
      readonly name?: string;
      readonly url: string;
      readonly headers?: Readonly<Record<string, string | SecretJSON>>;
      readonly token?: SecretJSON;
    };

function writeValues(values: Readonly<Record<string, SecretOrString>> | undefined) {
  if (values === undefined) return undefined;
  const out: Record<string, string | SecretJSON> = {};
  for (const [key, value] of Object.entries(values))
    out[key] = typeof value === "string" ? value : value.toJSON();
  return out;
}

function readValues(value: unknown, path: readonly (string | number)[], issues: Issue[]) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    issues.push({ path, message: "must be an object of strings or secret references." });
    return undefined;
  }
  const out: Record<string, SecretOrString> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === "string") out[key] = entry;
    else
      try {
        out[key] = Secret.fromJSON(entry);
      } catch (error) {
        issues.push({ path: [...path, key], message: (error as Error).message });
      }
  }
  return out;
}

/**
 * The JSON form of a server description. Secrets are written as env-var references; a token secret
 * refuses to be written (as everywhere in Junction).
 *
 * @throws SerializationError for a `custom` transport or a token secret
 */
export function serverInfoToJSON(info: MCPServerInfo): MCPServerInfoJSON {
  const name = info.name === undefined ? {} : { name: info.name };
  if (info.transport === "stdio") {
    const env = writeValues(info.env);
    return {
      transport: "stdio",
      ...name,
      command: info.command,
      ...(info.args === undefined ? {} : { args: [...info.args] }),
      ...(env === undefined ? {} : { env }),
      ...(info.cwd === undefined ? {} : { cwd: info.cwd }),
    };
  }
  if (info.transport === "http") {
    const headers = writeValues(info.headers);
    return {
      transport: "http",
      ...name,
      url: info.url,
      ...(headers === undefined ? {} : { headers }),
      ...(info.token === undefined ? {} : { token: info.token.toJSON() }),
    };
  }
  throw new SerializationError(
    `MCPToolset: the server${info.name === undefined ? "" : ` "${info.name}"`} uses a custom transport, which is code and cannot be saved. Describe it as { transport: "stdio", command, args, env } or { transport: "http", url, headers, token }.`,
  );
}

/**
 * Reads a server description written by {@link serverInfoToJSON}, collecting every problem.
 *
 * @param value - the JSON
 * @param path - where it is, for messages
 * @param issues - receives the problems
 */
export function serverInfoFromJSON(
  value: unknown,
  path: readonly (string | number)[],
  issues: Issue[],
): MCPServerInfo | undefined {
  const doc = value as Record<string, unknown> | null;
  if (typeof doc !== "object" || doc === null) {
    issues.push({ path, message: 'must be { "transport": "stdio" | "http", ... }.' });
    return undefined;
  }
  const before = issues.length;
  const name = typeof doc.name === "string" ? { name: doc.name } : {};
  if (doc.transport === "stdio") {
    if (typeof doc.command !== "string" || doc.command === "")
      issues.push({ path: [...path, "command"], message: "must be a non-empty string." });
    if (
      doc.args !== undefined &&
      (!Array.isArray(doc.args) || doc.args.some((arg) => typeof arg !== "string"))
    )
      issues.push({ path: [...path, "args"], message: "must be a list of strings." });
    const env = readValues(doc.env, [...path, "env"], issues);
    if (issues.length > before) return undefined;
    return {
      transport: "stdio",
      ...name,
      command: doc.command as string,
      ...(doc.args === undefined ? {} : { args: doc.args as string[] }),
      ...(env === undefined ? {} : { env }),
      ...(typeof doc.cwd === "string" ? { cwd: doc.cwd } : {}),
    };
  }
  if (doc.transport === "http") {
    if (typeof doc.url !== "string" || !URL.canParse(doc.url))
      issues.push({ path: [...path, "url"], message: "must be a URL." });
    const headers = readValues(doc.headers, [...path, "headers"], issues);
    let token: Secret | undefined;
    if (doc.token !== undefined && doc.token !== null)
      try {
        token = Secret.fromJSON(doc.token);
      } catch (error) {
        issues.push({ path: [...path, "token"], message: (error as Error).message });
      }
    if (issues.length > before) return undefined;
    return {
      transport: "http",
      ...name,
      url: doc.url as string,
      ...(headers === undefined ? {} : { headers }),
      ...(token === undefined ? {} : { token }),
    };
  }
  issues.push({
    path: [...path, "transport"],
    message: `must be "stdio" or "http" (got ${JSON.stringify(doc.transport)}).`,
  });
  return undefined;
}

/** Resolves string-or-secret values (secrets from the environment, now). */
export function resolveValues(
  values: Readonly<Record<string, SecretOrString>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    const resolved = typeof value === "string" ? value : value.resolve();
    if (resolved !== undefined) out[key] = resolved;
  }
  return out;
}
