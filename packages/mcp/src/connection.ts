import type { Logger } from "@junction/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool as MCPToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import { MCPError } from "./errors.js";
import { type MCPServerInfo, resolveValues } from "./server-info.js";

export type { MCPToolDefinition };

/** What a connection needs besides the server description. */
export interface ConnectionOptions {
  /** Time allowed to connect and list tools, in milliseconds. */
  readonly connectTimeout: number;
  /** Called with the new tool list when the server says its tools changed. */
  readonly onToolsChanged: (tools: readonly MCPToolDefinition[]) => void;
  readonly logger: Logger;
}

const STDERR_TAIL = 2000;

function describe(info: MCPServerInfo): string {
  if (info.transport === "stdio") return `stdio server "${[info.command, ...(info.args ?? [])].join(" ")}"`;
  if (info.transport === "http") return `HTTP server ${info.url}`;
  return `server${info.name === undefined ? "" : ` "${info.name}"`} (custom transport)`;
}

/**
 * One MCP client session with one server: connects lazily, remembers the server's name and tools, and
 * reconnects on the next use after the session closed (a crashed stdio server, a dropped HTTP session).
 */
export class MCPConnection {
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #stderr = "";
  /** The name the server reported at initialization. */
  serverName: string | undefined;

  constructor(
    readonly info: MCPServerInfo,
    readonly options: ConnectionOptions,
  ) {}

  /** A readable description of the server, for messages. */
  get label(): string {
    return describe(this.info);
  }

  /** The last lines the stdio server wrote to stderr (for error messages). */
  get stderrTail(): string {
    return this.#stderr.trim();
  }

  #transport(): Transport {
    const info = this.info;
    if (info.transport === "custom") return info.createTransport();
    if (info.transport === "http") {
      const headers = resolveValues(info.headers);
      const token = info.token?.resolve();
      if (token !== undefined) headers.Authorization = `Bearer ${token}`;
      return new StreamableHTTPClientTransport(new URL(info.url), { requestInit: { headers } });
    }
    const transport = new StdioClientTransport({
      command: info.command,
      args: [...(info.args ?? [])],
      env: { ...getDefaultEnvironment(), ...resolveValues(info.env) },
      ...(info.cwd === undefined ? {} : { cwd: info.cwd }),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (data: Buffer) => {
      this.#stderr = (this.#stderr + data.toString()).slice(-STDERR_TAIL);
    });
    return transport;
  }

  async #connect(signal: AbortSignal | undefined): Promise<Client> {
    const client = new Client(
      { name: "junction", version: "0.1.0" },
      {
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error !== null) {
                this.options.logger.warn(`MCPToolset: could not refresh the tools of the ${this.label}.`, {
                  error: error.message,
                });
              } else if (tools !== null) this.options.onToolsChanged(tools);
            },
          },
        },
      },
    );
    this.#stderr = "";
    const transport = this.#transport();
    client.onclose = () => {
      if (this.#client === client) this.#client = undefined;
    };
    const timeout = AbortSignal.timeout(this.options.connectTimeout);
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    try {
      await client.connect(transport, { signal: combined, timeout: this.options.connectTimeout });
    } catch (error) {
      await client.close().catch(() => {});
      if (signal?.aborted) throw signal.reason;
      const stderr = this.stderrTail === "" ? "" : `\nThe server's stderr:\n${this.stderrTail}`;
      throw new MCPError(
        `MCPToolset: could not connect to the ${this.label}${timeout.aborted ? ` within ${this.options.connectTimeout} ms` : ""}: ${error instanceof Error ? error.message : String(error)}. Check that the server starts and speaks MCP; raise connectTimeout if it starts slowly.${stderr}`,
        { cause: error },
      );
    }
    this.serverName = client.getServerVersion()?.name;
    return client;
  }

  /** The connected client, connecting first when needed (concurrent callers share one attempt). */
  async client(signal?: AbortSignal): Promise<Client> {
    if (this.#client !== undefined) return this.#client;
    this.#connecting ??= this.#connect(signal).then(
      (client) => {
        this.#client = client;
        this.#connecting = undefined;
        return client;
      },
      (error: unknown) => {
        this.#connecting = undefined;
        throw error;
      },
    );
    return this.#connecting;
  }

  /** Lists every tool of the server (following pagination). */
  async listTools(signal?: AbortSignal): Promise<MCPToolDefinition[]> {
    const client = await this.client(signal);
    const tools: MCPToolDefinition[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: this.options.connectTimeout,
        ...(signal === undefined ? {} : { signal }),
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls one tool. */
  async callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: { readonly signal: AbortSignal | undefined; readonly timeout: number },
  ): Promise<CallToolResult> {
    const client = await this.client(options.signal);
    return (await client.callTool({ name, arguments: { ...args } }, undefined, {
      timeout: options.timeout,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })) as CallToolResult;
  }

  /** Closes the session (and stops a stdio server). */
  async close(): Promise<void> {
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    await client?.close();
  }
}
