import { RunInterruptedError, type RunStore } from "@junction/core";
import { type Context, Hono } from "hono";
import { cors as corsMiddleware } from "hono/cors";
import { streamSSE } from "hono/streaming";
import { conversationHeader, withConversationId } from "./conversation-id.js";
import { errorAnswer, HttpError } from "./http-error.js";
import { mountMcp } from "./mcp.js";
import { mountOpenAI } from "./openai-chat.js";
import { openAIErrorAnswer } from "./openai-error.js";
import { openAPIDocument } from "./openapi.js";
import {
  opened,
  runServed,
  type ServedRunOptions,
  streamServed,
  stringifyWire,
  type WireEvent,
} from "./run-served.js";
import { mountRuns } from "./runs-routes.js";
import { type AuthOptions, accessCheck, guard, hostCheck, loopbackHosts, readJSON } from "./security.js";
import { preparePipeline, type Servable, type ServedPipeline } from "./served-pipeline.js";
import { interruptedAnswer } from "./served-runs.js";

/** Options of {@link createApp}. */
export interface CreateAppOptions {
  /** What to serve, by name: pipelines, or components such as an Agent (wrapped in a pipeline of their own). */
  readonly pipelines: Readonly<Record<string, Servable>>;
  /** Bearer token and/or a custom check. Default: the token in `JUNCTION_API_KEY`, when set. */
  readonly auth?: AuthOptions | undefined;
  /** Origins that may call from a browser (CORS); `"*"` for any. Default: none besides the allowed hosts. */
  readonly cors?: { readonly origins: readonly string[] | "*" } | undefined;
  /**
   * Host names (without port) the server answers to; `"*"` turns the check off (behind a proxy that
   * checks Host). Default: `localhost`, `127.0.0.1`, `[::1]`.
   */
  readonly allowedHosts?: readonly string[] | "*" | undefined;
  /** The largest request body in bytes (default 1 MiB). */
  readonly bodyLimit?: number | undefined;
  /** Milliseconds between SSE heartbeat comments (default 15 000). */
  readonly heartbeatMs?: number | undefined;
  /** Serve `/v1/models` and `/v1/chat/completions` (default true). */
  readonly openai?: boolean | undefined;
  /** Serve `/mcp` (default true). */
  readonly mcp?: boolean | undefined;
  /** Options for every run (concurrency, tracer, logger, `timeoutMs`: default 600 000, `0` for none). */
  readonly run?: ServedRunOptions | undefined;
  /**
   * Where runs that stop at interrupts (a tool call waiting for approval) are kept: a `FileRunStore`,
   * a `MemoryRunStore` or your own `RunStore`. With a store, such a run is answered with its id and
   * pending interrupts, and `GET /runs`, `GET /runs/{id}` and `POST /runs/{id}/resume` are served.
   */
  readonly store?: RunStore | undefined;
  /** The name and version `/info`, OpenAPI and MCP report. */
  readonly info?: { readonly name?: string | undefined; readonly version?: string | undefined } | undefined;
  /**
   * Adds routes after the built-in ones, behind the same guards (host, auth, body limit): a
   * playground's static files, extra endpoints.
   */
  readonly routes?: ((app: Hono, context: AppContext) => void) | undefined;
}

/** What `routes` and the built-in route groups see. */
export interface AppContext {
  /** The served pipelines by name. */
  readonly pipelines: ReadonlyMap<string, ServedPipeline>;
  /** The resolved options. */
  readonly bodyLimit: number;
  /** Milliseconds between SSE heartbeats. */
  readonly heartbeatMs: number;
  /** Options for every run (with the store, when there is one). */
  readonly run: ServedRunOptions;
  /** The run store, when the server keeps runs. */
  readonly store: RunStore | undefined;
  /** Name and version. */
  readonly info: { readonly name: string; readonly version: string };
  /** True when a bearer token or a verify hook guards the routes. */
  readonly authenticated: boolean;
  /** Finds a served pipeline or throws a 404. */
  pipeline(name: string): ServedPipeline;
}

const oneMiB = 1024 * 1024;
/** Ten minutes: an agent's longest turns fit; a run stuck on a model that never answers does not. */
const defaultRunTimeoutMs = 600_000;

/**
 * Builds the HTTP app (Hono) that serves pipelines and agents: `/health`, `/info`, `/pipelines`,
 * `/pipelines/{name}`, `POST /pipelines/{name}/run` and `/stream` (SSE), `/openapi.json`, the
 * OpenAI-compatible `/v1/models` and `/v1/chat/completions`, `/mcp`, and with a `store` the run
 * routes (`/runs`, `/runs/{id}`, `/runs/{id}/resume`: an approval inbox).
 *
 * Safe by default: only loopback Host names, the `JUNCTION_API_KEY` bearer token when set, a 1 MiB
 * body limit, and no way to deploy code or documents over HTTP. Every pipeline is checked here, so a
 * mandatory input that cannot travel as JSON fails now, naming the socket.
 *
 * @param options - the pipelines and the server's settings
 * @returns the Hono app: `app.fetch` for any runtime, `app.request()` in tests, {@link serve} for Node
 * @example
 * ```ts
 * const app = createApp({ pipelines: { chat: agent, rag: ragPipeline } });
 * const server = await serve({ app, port: 3700 });
 * ```
 */
export function createApp(options: CreateAppOptions): Hono {
  const served = new Map<string, ServedPipeline>();
  for (const [name, servable] of Object.entries(options.pipelines)) {
    served.set(name, preparePipeline(name, servable));
  }
  const auth = options.auth ?? { token: process.env.JUNCTION_API_KEY };
  const context: AppContext = {
    pipelines: served,
    bodyLimit: options.bodyLimit ?? oneMiB,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    run: {
      ...options.run,
      timeoutMs: options.run?.timeoutMs ?? defaultRunTimeoutMs,
      ...(options.store === undefined ? {} : { store: options.store }),
    },
    store: options.store,
    info: { name: options.info?.name ?? "junction", version: options.info?.version ?? "0.1.0" },
    authenticated: (auth.token !== undefined && auth.token !== "") || auth.verify !== undefined,
    pipeline(name) {
      const found = served.get(name);
      if (found === undefined) {
        throw new HttpError(
          404,
          "NotFound",
          `there is no pipeline named "${name}". Pipelines: ${[...served.keys()].map((known) => `"${known}"`).join(", ") || "none"}.`,
        );
      }
      return found;
    },
  };

  // The run options of one request: the server's, and the request's signal, which aborts when the client
  // disconnects (written out, not spread: it is built for every request).
  const runOptions = (c: Context) => ({
    concurrency: context.run.concurrency,
    tracer: context.run.tracer,
    logger: context.run.logger,
    store: context.run.store,
    timeoutMs: context.run.timeoutMs,
    signal: c.req.raw.signal,
  });

  const app = new Hono();
  // Errors on the OpenAI-compatible routes (`/v1/*`) take the OpenAI API's shape, so its clients branch
  // on `type`, `code` and `param` as they do against OpenAI.
  app.onError((error, c) => {
    const { status, body } = isOpenAIPath(c.req.path) ? openAIErrorAnswer(error) : errorAnswer(error);
    if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="junction"');
    return c.body(stringifyWire(body), status as 400, { "Content-Type": "application/json" });
  });
  app.notFound((c) => {
    const message = `no route ${c.req.method} ${c.req.path}.`;
    return isOpenAIPath(c.req.path)
      ? c.json({ error: { message, type: "invalid_request_error", code: "unknown_url", param: null } }, 404)
      : c.json({ error: { type: "NotFound", message } }, 404);
  });

  // The guards of every route: Host/Origin, then (after CORS, whose preflight answers need no token)
  // the bearer token, the verify hook and the body limit. Without CORS they are one synchronous check.
  // `checkAccess` itself lets preflights through.
  const corsOrigins = options.cors?.origins ?? [];
  const checkHost = hostCheck(options.allowedHosts ?? loopbackHosts, corsOrigins);
  const checkAccess = accessCheck(auth, context.bodyLimit);
  if (options.cors === undefined) app.use(guard(checkHost, checkAccess));
  else {
    // The CORS middleware answers every OPTIONS request itself: one that is not a preflight (no
    // Access-Control-Request-Method) is checked before it, like any other request.
    app.use(guard(checkHost, (c) => (c.req.method === "OPTIONS" ? checkAccess(c) : undefined)));
    app.use(
      corsMiddleware({
        origin: corsOrigins === "*" ? "*" : [...corsOrigins],
        allowHeaders: [
          "Authorization",
          "Content-Type",
          "Mcp-Session-Id",
          "Mcp-Protocol-Version",
          "Last-Event-ID",
          conversationHeader,
        ],
        allowMethods: ["GET", "POST", "OPTIONS"],
      }),
    );
    app.use(guard(checkAccess));
  }

  app.get("/health", (c) => c.json({ status: "ok" }));
  app.get("/info", (c) =>
    c.json({
      name: context.info.name,
      version: context.info.version,
      pipelines: [...served.keys()],
      openai: options.openai !== false,
      mcp: options.mcp !== false,
      runs: options.store !== undefined,
      auth: context.authenticated,
    }),
  );
  app.get("/pipelines", (c) =>
    c.json({
      pipelines: [...served.values()].map((pipeline) => ({
        name: pipeline.name,
        description: pipeline.description,
        chat: pipeline.chat !== undefined,
        declared_inputs: pipeline.io.declaredInputs,
        declared_outputs: pipeline.io.declaredOutputs,
      })),
    }),
  );
  app.get("/pipelines/:name", (c) => {
    const pipeline = context.pipeline(c.req.param("name"));
    return c.json({
      name: pipeline.name,
      description: pipeline.description,
      input_schema: pipeline.io.inputSchema,
      output_schema: pipeline.io.outputSchema,
      document: pipeline.document,
      mermaid: pipeline.mermaid,
      chat: pipeline.chat !== undefined,
    });
  });
  app.post("/pipelines/:name/run", async (c) => {
    const pipeline = context.pipeline(c.req.param("name"));
    const body = await readJSON(c.req.raw, context.bodyLimit);
    const request = withConversationId(
      pipeline,
      body,
      c.req.raw.headers.get(conversationHeader) ?? undefined,
    );
    try {
      const answer = await runServed(pipeline, request, runOptions(c));
      return c.body(stringifyWire(answer), 200, { "Content-Type": "application/json" });
    } catch (error) {
      // Kept in the store: answer its id and what waits for a decision (202: accepted, not finished).
      if (!(error instanceof RunInterruptedError) || context.store === undefined) throw error;
      return c.body(stringifyWire(interruptedAnswer(error.runId, error.interrupts)), 202, {
        "Content-Type": "application/json",
      });
    }
  });
  app.post("/pipelines/:name/stream", async (c) => {
    const pipeline = context.pipeline(c.req.param("name"));
    const body = await readJSON(c.req.raw, context.bodyLimit);
    const request = withConversationId(pipeline, body, c.req.header(conversationHeader));
    // Invalid requests (an unknown input, a value of the wrong type) are answered with 400 before the
    // stream starts: the run's first event is awaited before the response is sent.
    const controller = new AbortController();
    const events = await opened(
      streamServed(pipeline, request, { ...context.run, signal: controller.signal }),
    );
    return sseEvents(c, context, () => events, { abort: controller });
  });
  if (context.store !== undefined) mountRuns(app, context, context.store);
  const openapi = openAPIDocument(context, { openai: options.openai !== false, mcp: options.mcp !== false });
  app.get("/openapi.json", (c) => c.json(openapi));

  if (options.openai !== false) mountOpenAI(app, context);
  if (options.mcp !== false) mountMcp(app, context);
  options.routes?.(app, context);
  return app;
}

/**
 * Answers with the wire events of a run as SSE (one named event each, heartbeats, an `error` event when
 * the run fails). A client that disconnects aborts the run (through `abort`, the controller of the
 * run's signal), or — for a resume, whose decisions are carried out once made, `abort` undefined — the
 * run goes on and its events are no longer sent.
 */
export function sseEvents(
  c: Context,
  context: AppContext,
  events: () => AsyncIterable<WireEvent>,
  options: { readonly abort: AbortController | undefined },
): Response {
  return streamSSE(c, async (stream) => {
    const controller = options.abort;
    stream.onAbort(() => controller?.abort(new DOMException("The client disconnected.", "AbortError")));
    const heartbeat = setInterval(() => {
      stream.write(": heartbeat\n\n").catch(() => undefined);
    }, context.heartbeatMs);
    try {
      for await (const event of events()) {
        if (stream.aborted) {
          if (controller !== undefined) break;
          continue;
        }
        await stream.writeSSE({
          event: event.event,
          data: stringifyWire(event.data, () => ({
            ...event.data,
            inputs: undefined,
            outputs: undefined,
            chunk: undefined,
            unserializable: true,
          })),
        });
      }
    } catch (error) {
      if (!stream.aborted) {
        await stream.writeSSE({ event: "error", data: stringifyWire(errorAnswer(error).body) });
      }
    } finally {
      clearInterval(heartbeat);
    }
  });
}

function isOpenAIPath(path: string): boolean {
  return path.startsWith("/v1/");
}
