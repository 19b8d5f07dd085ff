import { readFile } from "node:fs/promises";
import type { RunStore } from "@junction/core";
import { type AppContext, HttpError, streamServed, stringifyWire } from "@junction/serve";
import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { describeGraph } from "./graph.js";
import { RunLog, type RunRecord, type RunStatus, recordingTracer } from "./run-log.js";

/**
 * The playground's routes, mounted into `createApp({ routes })`: the page itself under `/playground/`
 * and a small API under `/playground/api/` (graph, recorded runs, a run stream that carries spans).
 * The page talks to this server only: its Content-Security-Policy forbids every other origin.
 */

/** Options of {@link playgroundRoutes}. */
export interface PlaygroundOptions {
  /** How many finished runs to keep for the timeline (default 50). */
  readonly keepRuns?: number | undefined;
}

const staticFiles: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};

/** Nothing but this server: no fonts, scripts, images or connections from anywhere else. */
const contentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const staticDirectory = new URL("../static/", import.meta.url);

async function staticFile(c: Context, name: string): Promise<Response> {
  const type = staticFiles[name];
  if (type === undefined) throw new HttpError(404, "NotFound", `the playground has no file "${name}".`);
  const body = await readFile(new URL(name, staticDirectory));
  return c.body(body, 200, {
    "Content-Type": type,
    "Content-Security-Policy": contentSecurityPolicy,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
  });
}

function errorBody(error: unknown): { type: string; message: string } {
  if (error instanceof Error) return { type: error.name, message: error.message };
  return { type: "Error", message: String(error) };
}

/** Reads what an interrupted run left, whichever shape the interrupt error has. */
function interruptOf(error: unknown): { run_id: unknown; interrupts: unknown } | undefined {
  if (!(error instanceof Error) || error.name !== "RunInterruptedError") return undefined;
  const fields = error as Error & { runId?: unknown; interrupts?: unknown };
  return { run_id: fields.runId ?? null, interrupts: fields.interrupts ?? [] };
}

function summary(run: RunRecord) {
  return {
    id: run.id,
    pipeline: run.pipeline,
    started_at: run.startedAt,
    status: run.status,
    duration_ms: run.durationMs,
  };
}

function streamRun(c: Context, context: AppContext, log: RunLog, name: string, request: unknown): Response {
  const served = context.pipeline(name);
  // Invalid requests are answered with 400 before the stream starts.
  served.io.toRunInputs(request);
  return streamSSE(c, async (stream) => {
    const record = log.start(name, request);
    const started = performance.now();
    let writes = Promise.resolve();
    const send = (event: string, data: unknown): void => {
      record.events.push({ event, data });
      const text = stringifyWire(data, () => ({ unserializable: true }));
      writes = writes.then(() => stream.writeSSE({ event, data: text })).catch(() => undefined);
    };
    const finish = (status: RunStatus): void => {
      record.status = status;
      record.durationMs = performance.now() - started;
    };
    const controller = new AbortController();
    stream.onAbort(() => controller.abort(new DOMException("The page disconnected.", "AbortError")));
    send("run_start", { run: record.id, pipeline: name });
    const tracer = recordingTracer(record, (kind, span) => send(kind, span), context.run.tracer);
    try {
      let paused = false;
      for await (const event of streamServed(served, request, {
        ...context.run,
        tracer,
        signal: controller.signal,
      })) {
        // With a store, a run that stops for decisions ends with `interrupt` and `run_end` events.
        if (event.event === "interrupt") {
          paused = true;
          const runId = (event.data as { run_id?: unknown }).run_id;
          if (typeof runId === "string") record.storeRunId = runId;
        }
        send(event.event, event.data);
      }
      finish(paused ? "interrupted" : "completed");
    } catch (error) {
      const interrupted = interruptOf(error);
      if (interrupted !== undefined) {
        finish("interrupted");
        send("interrupt", interrupted);
      } else {
        finish(controller.signal.aborted ? "cancelled" : "failed");
        send("error", errorBody(error));
      }
    }
    send("run_summary", summary(record));
    await writes;
  });
}

/**
 * Runs recorded as interrupted may have been decided since (in the inbox, with `junction runs resume`,
 * over HTTP): their status is read again from the store, so "Recent runs" shows how they ended.
 */
async function refreshInterrupted(runs: readonly RunRecord[], store: RunStore | undefined): Promise<void> {
  if (store === undefined) return;
  for (const run of runs) {
    if (run.status !== "interrupted" || run.storeRunId === undefined) continue;
    const head = await store.load(run.storeRunId).catch(() => undefined);
    if (head?.status === "completed" || head?.status === "failed") run.status = head.status;
  }
}

/**
 * The playground's routes for `createApp({ routes })`.
 *
 * @param options - how many runs to keep
 * @returns the `routes` function
 * @example
 * ```ts
 * const app = createApp({ pipelines: { tips: agent }, routes: playgroundRoutes() });
 * ```
 */
export function playgroundRoutes(options: PlaygroundOptions = {}): (app: Hono, context: AppContext) => void {
  return (app, context) => {
    const log = new RunLog(options.keepRuns ?? 50);
    app.get("/", (c) => c.redirect("/playground/"));
    app.get("/playground", (c) => c.redirect("/playground/"));
    app.get("/playground/", (c) => staticFile(c, "index.html"));
    app.get("/playground/:file{[a-z]+\\.(?:js|css)}", (c) => staticFile(c, c.req.param("file")));
    app.get("/playground/api/pipelines/:name/graph", (c) =>
      c.json(describeGraph(context.pipeline(c.req.param("name")).pipeline)),
    );
    app.post("/playground/api/pipelines/:name/stream", async (c) => {
      let request: unknown;
      try {
        request = await c.req.json();
      } catch {
        throw new HttpError(400, "BadRequest", "the request body is not valid JSON.");
      }
      return streamRun(c, context, log, c.req.param("name"), request);
    });
    app.get("/playground/api/runs", async (c) => {
      const runs = log.list();
      await refreshInterrupted(runs, context.store);
      return c.json({ runs: runs.map(summary) });
    });
    app.get("/playground/api/runs/:id", (c) => {
      const run = log.get(c.req.param("id"));
      if (run === undefined)
        throw new HttpError(404, "NotFound", `the playground has no run "${c.req.param("id")}".`);
      return c.body(
        stringifyWire({ ...summary(run), request: run.request, events: run.events, spans: run.spans }),
        200,
        {
          "Content-Type": "application/json",
        },
      );
    });
  };
}
