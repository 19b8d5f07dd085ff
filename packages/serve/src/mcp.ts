import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Hono } from "hono";
import type { AppContext } from "./create-app.js";
import { errorAnswer, HttpError } from "./http-error.js";
import { checkDepth } from "./json-depth.js";
import { runServed, type ServedRunOptions, toWireJSON } from "./run-served.js";
import { preparePipeline, type Servable, type ServedPipeline } from "./served-pipeline.js";

/**
 * Served pipelines as MCP tools — one tool per pipeline, with the pipeline's request and response
 * JSON Schemas — over stateless Streamable HTTP (`/mcp`) or stdio (`junction mcp`). Every MCP import
 * of Junction's server side lives in this file.
 */

/** Builds an MCP server whose tools run the pipelines. */
function createMcpServer(
  pipelines: ReadonlyMap<string, ServedPipeline>,
  info: { readonly name: string; readonly version: string },
  run: ServedRunOptions,
): Server {
  const server = new Server({ name: info.name, version: info.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...pipelines.values()].map((pipeline) => ({
      name: pipeline.name,
      description: pipeline.description,
      inputSchema: pipeline.io.inputSchema as { type: "object" },
      outputSchema: pipeline.io.outputSchema as { type: "object" },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const pipeline = pipelines.get(request.params.name);
    if (pipeline === undefined) {
      return {
        isError: true,
        content: [{ type: "text" as const, text: `Unknown tool "${request.params.name}".` }],
      };
    }
    try {
      checkDepth(request.params.arguments, "the tool's arguments");
      const answer = await runServed(pipeline, request.params.arguments ?? {}, {
        ...run,
        signal: extra.signal,
      });
      const outputs = toWireJSON(answer.outputs) as Record<string, unknown>;
      return {
        content: [{ type: "text" as const, text: JSON.stringify(outputs) }],
        structuredContent: outputs,
      };
    } catch (error) {
      const { body } = errorAnswer(error);
      return {
        isError: true,
        content: [{ type: "text" as const, text: `${body.error.type}: ${body.error.message}` }],
      };
    }
  });
  return server;
}

/** Mounts stateless Streamable HTTP MCP at `/mcp` (a new server and transport per request). */
export function mountMcp(app: Hono, context: AppContext): void {
  app.post("/mcp", async (c) => {
    const server = createMcpServer(context.pipelines, context.info, context.run);
    // No sessionIdGenerator: stateless mode.
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: context.bodyLimit,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  const notAllowed = () => {
    throw new HttpError(
      405,
      "MethodNotAllowed",
      "this MCP endpoint is stateless: POST JSON-RPC requests to /mcp.",
    );
  };
  app.get("/mcp", notAllowed);
  app.delete("/mcp", notAllowed);
}

/** Options of {@link serveMcpStdio}. */
export interface ServeMcpStdioOptions {
  /** The name and version the server reports. */
  readonly info?: { readonly name?: string | undefined; readonly version?: string | undefined } | undefined;
  /** Options for every run. */
  readonly run?: ServedRunOptions | undefined;
  /** Where requests come from (default `process.stdin`). */
  readonly stdin?: Readable | undefined;
  /** Where answers go (default `process.stdout`). */
  readonly stdout?: Writable | undefined;
}

/**
 * Serves pipelines as MCP tools over stdio, for desktop clients that start the server as a child
 * process (what `junction mcp` runs). Nothing else may write to stdout while it runs.
 *
 * @param pipelines - what to serve, by name (pipelines or components)
 * @param options - info, run options, streams
 * @returns a function that closes the server
 * @example
 * ```ts
 * const close = await serveMcpStdio({ weather: weatherAgent });
 * ```
 */
export async function serveMcpStdio(
  pipelines: Readonly<Record<string, Servable>>,
  options: ServeMcpStdioOptions = {},
): Promise<() => Promise<void>> {
  const served = new Map<string, ServedPipeline>();
  for (const [name, servable] of Object.entries(pipelines)) served.set(name, preparePipeline(name, servable));
  const server = createMcpServer(
    served,
    { name: options.info?.name ?? "junction", version: options.info?.version ?? "0.1.0" },
    options.run ?? {},
  );
  await server.connect(new StdioServerTransport(options.stdin, options.stdout));
  return () => server.close();
}
