import { defaultRegistry, getDefaultLogger, type Issue, type Logger } from "@junction/core";
import { type AnyTool, Tool, ToolDefinitionError, ToolInvocationError, Toolset } from "@junction/llm";
import { MCPConnection, type MCPToolDefinition } from "./connection.js";
import { MCPError } from "./errors.js";
import {
  type MCPServerInfo,
  type MCPServerInfoJSON,
  serverInfoFromJSON,
  serverInfoToJSON,
} from "./server-info.js";
import { offeredName } from "./tool-names.js";
import { resultToText } from "./tool-result.js";

const TYPE = "junction.MCPToolset";

/** What `new MCPToolset(...)` takes. */
export interface MCPToolsetOptions {
  /** The server (give `server` or `servers`). */
  readonly server?: MCPServerInfo | undefined;
  /** Several servers; a tool name two of them share is offered as `server__tool`. */
  readonly servers?: readonly MCPServerInfo[] | undefined;
  /** Offer only these tools (names as offered or as on the server); a name no server has is an error. */
  readonly toolNames?: readonly string[] | undefined;
  /** Time allowed for one tool call, in milliseconds (default 60 000). */
  readonly timeout?: number | undefined;
  /** Time allowed to connect and list tools, in milliseconds (default 30 000). */
  readonly connectTimeout?: number | undefined;
  /** Where warnings go (tool list refresh failures); default: the default logger. */
  readonly logger?: Logger | undefined;
}

/** The `data` of a saved MCPToolset. */
export interface MCPToolsetJSON {
  readonly servers: readonly MCPServerInfoJSON[];
  readonly tool_names: readonly string[] | null;
  readonly timeout: number;
  readonly connect_timeout: number;
}

/**
 * The tools of one or more MCP servers (stdio child processes or Streamable HTTP endpoints) as a dynamic
 * {@link Toolset} for agents and chat generators.
 *
 * - **Lazy**: nothing connects at construction. `warmUp()` (agents call it before every run) connects,
 *   lists the tools and applies `toolNames`; until then the toolset is empty.
 * - **Calls**: arguments are checked against the tool's JSON Schema, then sent with `callTool`, with the
 *   run's `signal` and `timeout`. A result with `isError`, a timeout, a transport failure or a crashed
 *   server becomes a `ToolInvocationError` — the agent sends it to the model as a tool error and the run
 *   goes on. A closed session is reopened on the next call.
 * - **Changes**: when a server sends `notifications/tools/list_changed`, its tools are listed again; the
 *   agent sees the new list on its next step.
 * - **Saving**: the server descriptions are JSON, with `Secret`s as env-var references.
 * - Call `close()` when done: it ends the sessions and stops stdio servers.
 *
 * @example
 * ```ts
 * const files = new MCPToolset({
 *   server: { transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
 *   toolNames: ["read_file", "list_directory"],
 * });
 * const agent = new Agent({ chatGenerator, tools: [files] });
 * try { await agent.run({ messages }); } finally { await files.close(); }
 * ```
 */
export class MCPToolset extends Toolset {
  /** The servers, as given. */
  readonly servers: readonly MCPServerInfo[];
  /** The tool-name filter, if any. */
  readonly toolNames: readonly string[] | undefined;
  /** Time allowed for one tool call (ms). */
  readonly timeout: number;
  /** Time allowed to connect and list tools (ms). */
  readonly connectTimeout: number;
  readonly #current: { tools: AnyTool[] };
  readonly #connections: MCPConnection[];
  readonly #definitions: (readonly MCPToolDefinition[] | undefined)[];
  readonly #logger: Logger;
  #loading: Promise<void> | undefined;
  #loaded = false;

  /**
   * @param options - `server` or `servers`, `toolNames`, `timeout`, `connectTimeout`
   * @throws ToolDefinitionError when no server is given or a timeout is not positive
   */
  constructor(options: MCPToolsetOptions) {
    const current: { tools: AnyTool[] } = { tools: [] };
    super(() => current.tools);
    this.#current = current;
    const servers = [...(options.servers ?? []), ...(options.server === undefined ? [] : [options.server])];
    if (servers.length === 0)
      throw new ToolDefinitionError(
        'new MCPToolset: give a server: { server: { transport: "stdio", command, args } } or { server: { transport: "http", url } }.',
      );
    for (const [key, value] of [
      ["timeout", options.timeout],
      ["connectTimeout", options.connectTimeout],
    ] as const)
      if (value !== undefined && !(typeof value === "number" && value > 0))
        throw new ToolDefinitionError(`new MCPToolset: ${key} must be a positive number of milliseconds.`);
    this.servers = Object.freeze(servers);
    this.toolNames = options.toolNames === undefined ? undefined : Object.freeze([...options.toolNames]);
    this.timeout = options.timeout ?? 60_000;
    this.connectTimeout = options.connectTimeout ?? 30_000;
    this.#logger = options.logger ?? getDefaultLogger();
    this.#definitions = servers.map(() => undefined);
    this.#connections = servers.map(
      (info, index) =>
        new MCPConnection(info, {
          connectTimeout: this.connectTimeout,
          logger: this.#logger,
          onToolsChanged: (tools) => {
            this.#definitions[index] = tools;
            if (this.#loaded) this.#rebuild(false);
          },
        }),
    );
  }

  /**
   * Connects to every server (concurrently), lists their tools and applies `toolNames`. Idempotent;
   * concurrent callers share one attempt, and a failed attempt is retried on the next call.
   *
   * @throws MCPError when a server cannot be reached in time, or a name in `toolNames` is offered by no server
   */
  override async warmUp(): Promise<void> {
    if (this.#loaded) return;
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    const lists = await Promise.all(this.#connections.map((connection) => connection.listTools()));
    lists.forEach((tools, index) => {
      this.#definitions[index] = tools;
    });
    this.#rebuild(true);
    this.#loaded = true;
  }

  #serverName(index: number): string {
    const connection = this.#connections[index]!;
    return connection.info.name ?? connection.serverName ?? `server${index}`;
  }

  #rebuild(strict: boolean): void {
    const counts = new Map<string, number>();
    for (const tools of this.#definitions)
      for (const tool of tools ?? []) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
    const offered: { name: string; original: string; build: () => AnyTool }[] = [];
    this.#definitions.forEach((tools, index) => {
      for (const definition of tools ?? []) {
        const name = offeredName(
          definition.name,
          this.#serverName(index),
          (counts.get(definition.name) ?? 0) > 1,
        );
        offered.push({ name, original: definition.name, build: () => this.#tool(name, definition, index) });
      }
    });
    let selected = offered;
    if (this.toolNames !== undefined) {
      const wanted = new Set(this.toolNames);
      const missing = this.toolNames.filter(
        (name) => !offered.some((t) => t.name === name || t.original === name),
      );
      if (missing.length > 0) {
        const message = `MCPToolset: ${missing.length === 1 ? "the tool" : "the tools"} ${missing.map((name) => `"${name}"`).join(", ")} ${missing.length === 1 ? "is" : "are"} not offered by ${this.servers.length === 1 ? `the ${this.#connections[0]!.label}` : "any of the servers"}. Available: ${offered.map((t) => `"${t.name}"`).join(", ") || "none"}. Fix toolNames.`;
        if (strict) throw new MCPError(message);
        this.#logger.warn(message, { missing });
      }
      selected = offered.filter((t) => wanted.has(t.name) || wanted.has(t.original));
    }
    this.#current.tools = selected.map((t) => t.build());
  }

  #tool(name: string, definition: MCPToolDefinition, index: number): AnyTool {
    const connection = this.#connections[index]!;
    const timeout = this.timeout;
    const init = {
      name,
      description: definition.description ?? definition.title ?? "",
      function: async (args: Record<string, unknown>, context: { signal: AbortSignal | undefined }) => {
        let result: Awaited<ReturnType<MCPConnection["callTool"]>>;
        try {
          result = await connection.callTool(definition.name, args, { signal: context.signal, timeout });
        } catch (error) {
          if (context.signal?.aborted) throw context.signal.reason;
          const stderr =
            connection.stderrTail === "" ? "" : ` (server stderr: ${connection.stderrTail.slice(-300)})`;
          throw new ToolInvocationError(
            `MCP tool "${name}" failed: the ${connection.label} did not answer: ${error instanceof Error ? error.message : String(error)}${stderr}.`,
            { toolName: name, arguments: args, cause: error },
          );
        }
        if (result.isError === true)
          throw new ToolInvocationError(`MCP tool "${name}" returned an error: ${resultToText(result)}`, {
            toolName: name,
            arguments: args,
          });
        return resultToText(result);
      },
    };
    try {
      return new Tool({ ...init, parameters: definition.inputSchema as never });
    } catch (error) {
      // A schema the validator cannot read: offer the tool anyway and let the server check the arguments.
      this.#logger.warn(
        `MCPToolset: the input schema of tool "${name}" could not be read (${(error as Error).message}); its arguments are checked by the server only.`,
        { toolName: name },
      );
      return new Tool({
        ...init,
        parameters: { type: "object", properties: {}, additionalProperties: true },
      });
    }
  }

  /** Ends every session and stops stdio servers; a later `warmUp()` connects again. */
  async close(): Promise<void> {
    this.#loaded = false;
    this.#current.tools = [];
    await Promise.all(this.#connections.map((connection) => connection.close()));
  }

  /** The saved form: `{ type: "junction.MCPToolset", data: {@link MCPToolsetJSON} }`. */
  override toDocument(): { readonly type: string; readonly data: Readonly<Record<string, unknown>> } {
    const data: MCPToolsetJSON = {
      servers: this.servers.map(serverInfoToJSON),
      tool_names: this.toolNames ?? null,
      timeout: this.timeout,
      connect_timeout: this.connectTimeout,
    };
    return { type: TYPE, data: data as unknown as Readonly<Record<string, unknown>> };
  }

  /**
   * Reads the `data` of a saved toolset (registered as `"junction.MCPToolset"`, so agents and generators
   * that hold one load it).
   *
   * @throws ToolDefinitionError listing every problem with its path
   */
  static fromDocument(
    data: unknown,
    options: { readonly path?: readonly (string | number)[] } = {},
  ): MCPToolset {
    const path = [...(options.path ?? []), "data"];
    const issues: Issue[] = [];
    const doc = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
    const servers: MCPServerInfo[] = [];
    if (!Array.isArray(doc.servers)) issues.push({ path: [...path, "servers"], message: "must be a list." });
    else
      doc.servers.forEach((server, index) => {
        const info = serverInfoFromJSON(server, [...path, "servers", index], issues);
        if (info !== undefined) servers.push(info);
      });
    const toolNames = doc.tool_names;
    if (
      toolNames != null &&
      (!Array.isArray(toolNames) || toolNames.some((name) => typeof name !== "string"))
    )
      issues.push({ path: [...path, "tool_names"], message: "must be a list of tool names or null." });
    if (issues.length > 0)
      throw new ToolDefinitionError(
        `MCPToolset: cannot load:\n${issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`).join("\n")}`,
        { issues },
      );
    return new MCPToolset({
      servers,
      toolNames: toolNames == null ? undefined : (toolNames as string[]),
      timeout: typeof doc.timeout === "number" ? doc.timeout : undefined,
      connectTimeout: typeof doc.connect_timeout === "number" ? doc.connect_timeout : undefined,
    });
  }
}

defaultRegistry.registerFunction(TYPE, MCPToolset.fromDocument);
