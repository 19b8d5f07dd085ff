import { RunResumeError, type RunStore } from "@junction/core";
import type { Hono } from "hono";
import { type AppContext, sseEvents } from "./create-app.js";
import { stringifyWire, type WireEvent } from "./run-served.js";
import { readJSON } from "./security.js";
import {
  describeRun,
  listRuns,
  readDecisions,
  readStatus,
  resumeServed,
  resumeStreamServed,
} from "./served-runs.js";

/**
 * The run routes, backed by the `RunStore` given to `createApp({ store })`:
 *
 * - `GET /runs?status=interrupted&limit=50` — runs, most recent first (the approval inbox);
 * - `GET /runs/{id}` — one run: status, pending interrupts, decisions, outputs, history;
 * - `POST /runs/{id}/resume` `{ decisions }` — 200 with the outputs, or 202 when it stops again; with
 *   `Accept: text/event-stream`, the resumed run's events as SSE (the events of `/stream`), after the
 *   same refusals as JSON.
 *
 * Refusals: 400 with the issues for bad decisions, 404 for an unknown run, 409 for a run that is not
 * waiting (already resumed, completed, or claimed by a concurrent resume: exactly one resume wins).
 */

const maxLimit = 1000;

function readLimit(value: string | undefined): number {
  if (value === undefined || value === "") return 100;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) return 100;
  return Math.min(limit, maxLimit);
}

/**
 * Mounts the run routes.
 *
 * @param app - the Hono app (behind the server's guards)
 * @param context - the served pipelines and run options
 * @param store - where runs are kept
 */
export function mountRuns(app: Hono, context: AppContext, store: RunStore): void {
  // Resumes in flight in this process: a second one is refused at once. Across processes sharing the
  // store, the store's compare-and-swap on the snapshot's seq picks the winner.
  const resuming = new Set<string>();

  app.get("/runs", async (c) => {
    const status = readStatus(c.req.query("status"));
    const runs = await listRuns(store, { status, limit: readLimit(c.req.query("limit")) });
    return c.body(stringifyWire({ runs }), 200, { "Content-Type": "application/json" });
  });

  app.get("/runs/:id", async (c) => {
    const view = await describeRun(store, c.req.param("id"));
    return c.body(stringifyWire(view), 200, { "Content-Type": "application/json" });
  });

  app.post("/runs/:id/resume", async (c) => {
    const runId = c.req.param("id");
    const decisions = readDecisions(await readJSON(c.req.raw, context.bodyLimit));
    if (resuming.has(runId)) {
      throw new RunResumeError(
        "RUN_ALREADY_RESUMED",
        `run "${runId}" is being resumed by another request; load it again to see its state.`,
      );
    }
    if (wantsEvents(c.req.header("accept"))) {
      resuming.add(runId);
      let events: AsyncIterable<WireEvent>;
      try {
        // Refusals (unknown run, bad or missing decisions, already resumed) are answered before the stream.
        events = await resumeStreamServed([...context.pipelines.values()], runId, decisions, {
          ...context.run,
          store,
        });
      } catch (error) {
        resuming.delete(runId);
        throw error;
      }
      return sseEvents(
        c,
        context,
        () =>
          (async function* () {
            try {
              yield* events;
            } finally {
              resuming.delete(runId);
            }
          })(),
        // Decisions, once made, are carried out: a client that leaves stops receiving, the run goes on.
        { abort: undefined },
      );
    }
    resuming.add(runId);
    try {
      const answer = await resumeServed([...context.pipelines.values()], runId, decisions, {
        ...context.run,
        store,
      });
      return c.body(stringifyWire(answer), answer.status === "interrupted" ? 202 : 200, {
        "Content-Type": "application/json",
      });
    } finally {
      resuming.delete(runId);
    }
  });
}

/** True when the client asks for SSE (`Accept: text/event-stream`). */
function wantsEvents(accept: string | undefined): boolean {
  return accept?.toLowerCase().includes("text/event-stream") === true;
}
