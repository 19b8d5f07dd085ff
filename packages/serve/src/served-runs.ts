import { randomUUID } from "node:crypto";
import {
  type Decisions,
  decisionSchema,
  type Interrupt,
  type Issue,
  type PipelineEvent,
  RunInterruptedError,
  RunResumeError,
  RunSnapshot,
  type RunStore,
  type RunSummary,
  runIdPattern,
} from "@junction/core";
import { HttpError } from "./http-error.js";
import { type ServedRunOptions, toWireEvent, type WireEvent } from "./run-served.js";
import type { ServedPipeline } from "./served-pipeline.js";

/**
 * Runs kept in a `RunStore` as the server (and `junction runs`) shows them, and resuming them. One
 * module for the HTTP routes and the command line, so both answer alike.
 *
 * Why run ids carry the pipeline's name: a snapshot records its root's type and definition fingerprint,
 * not the name it was served under, so the server names the runs it starts `<pipeline>.<uuid>` and
 * reads the name back. Runs started elsewhere are matched by trying each served pipeline: a resume
 * checks the definition fingerprint before anything runs.
 */

const uuidSuffix = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new run id for a run of `pipeline`: `<pipeline>.<uuid>`. */
export function newRunId(pipeline: string): string {
  return `${pipeline}.${randomUUID()}`;
}

/** The pipeline name in a run id the server gave, or `undefined`. */
export function pipelineOfRun(runId: string): string | undefined {
  const match = uuidSuffix.exec(runId);
  return match === null || match.index === 0 ? undefined : runId.slice(0, match.index);
}

/** A run waiting for decisions, as answered by `/run`, `/resume` and the `interrupt` SSE event. */
export interface InterruptedAnswer {
  readonly status: "interrupted";
  readonly run_id: string;
  readonly pipeline: string | null;
  /** The pending interrupts (ids, tools and arguments); decide on each by its `id`. */
  readonly interrupts: readonly Interrupt[];
}

/** A resumed run that finished. */
export interface ResumedAnswer {
  readonly status: "completed";
  readonly run_id: string;
  readonly pipeline: string;
  /** The outputs, in the served shape (declared names, or `{ component: { socket } }`). */
  readonly outputs: Record<string, unknown>;
}

/** One run of `GET /runs` (an approval inbox when filtered on `status=interrupted`). */
export interface RunListEntry {
  readonly run_id: string;
  readonly pipeline: string | null;
  readonly status: RunSummary["status"];
  /** When the run's latest snapshot was written (the pause, for an interrupted run). */
  readonly updated_at: string;
  /** The snapshot number (1 for a run that paused once). */
  readonly seq: number;
  readonly interrupts: readonly Interrupt[];
}

/** `GET /runs/{id}`: the run's head and history, never the raw snapshot. */
export interface RunView extends RunListEntry {
  /** When the run's oldest kept snapshot was written. */
  readonly created_at: string;
  /** The run's original inputs (nested form, JSON). */
  readonly inputs: Record<string, unknown>;
  /** The decisions the last resume applied. */
  readonly decisions: Decisions;
  /** A completed run's outputs (nested form, JSON). */
  readonly outputs?: Record<string, unknown> | undefined;
  /** Why a failed run failed. */
  readonly error?: string | undefined;
  /** The kept snapshots, oldest first. */
  readonly history: readonly { readonly seq: number; readonly status: string; readonly at: string }[];
}

/** The wire form of an interrupt: the core shape, copied so nothing but JSON data leaves. */
function wireInterrupts(interrupts: readonly Interrupt[]): Interrupt[] {
  return interrupts.map((item) => structuredClone(item));
}

/** The answer for a run that stopped at interrupts. */
export function interruptedAnswer(runId: string, interrupts: readonly Interrupt[]): InterruptedAnswer {
  return {
    status: "interrupted",
    run_id: runId,
    pipeline: pipelineOfRun(runId) ?? null,
    interrupts: wireInterrupts(interrupts),
  };
}

/** A list entry for a store summary. */
export function listEntry(summary: RunSummary): RunListEntry {
  return {
    run_id: summary.runId,
    pipeline: pipelineOfRun(summary.runId) ?? null,
    status: summary.status,
    updated_at: summary.createdAt,
    seq: summary.seq,
    interrupts: wireInterrupts(summary.interrupts),
  };
}

/**
 * Loads a run's head from the store as untrusted data: whatever the store returns is read again with
 * `RunSnapshot.parse` (a store shared with other writers, or a hand-edited file, cannot smuggle
 * anything but snapshot data through).
 *
 * @throws RunResumeError `RUN_NOT_FOUND`
 */
export async function loadRun(store: RunStore, runId: string): Promise<RunSnapshot> {
  // An id no snapshot can have (`../x`, `.hidden`, over 128 characters) names no run; a store such as
  // FileRunStore would refuse to read it with a TypeError.
  const found = runIdPattern.test(runId) ? await store.load(runId) : undefined;
  if (found === undefined) {
    throw new RunResumeError("RUN_NOT_FOUND", `there is no run "${runId}" in the server's store.`);
  }
  return RunSnapshot.parse(found);
}

/** The view of one run (its head and history). */
export async function describeRun(store: RunStore, runId: string): Promise<RunView> {
  const head = await loadRun(store, runId);
  const history: { seq: number; status: string; at: string }[] = [];
  for await (const info of store.history(runId)) {
    history.push({ seq: info.seq, status: info.status, at: info.createdAt });
  }
  return {
    run_id: head.runId,
    pipeline: pipelineOfRun(head.runId) ?? null,
    status: head.status,
    updated_at: head.createdAt,
    created_at: history[0]?.at ?? head.createdAt,
    seq: head.seq,
    interrupts: head.status === "interrupted" ? wireInterrupts(head.interrupts) : [],
    inputs: head.inputs,
    decisions: head.decisions,
    ...(head.outputs === undefined ? {} : { outputs: head.outputs }),
    ...(head.error === undefined ? {} : { error: head.error }),
    history,
  };
}

/** Runs in the store, most recent first. */
export async function listRuns(
  store: RunStore,
  query: { readonly status?: RunSummary["status"] | undefined; readonly limit: number },
): Promise<RunListEntry[]> {
  const runs: RunListEntry[] = [];
  for await (const summary of store.list(query)) runs.push(listEntry(summary));
  return runs;
}

const statuses = ["running", "interrupted", "completed", "failed"] as const;

/**
 * Checks a `status` filter.
 *
 * @throws HttpError 400 for an unknown status
 */
export function readStatus(value: string | undefined): RunSummary["status"] | undefined {
  if (value === undefined || value === "") return undefined;
  if ((statuses as readonly string[]).includes(value)) return value as RunSummary["status"];
  throw new HttpError(400, "InvalidQuery", `status must be one of ${statuses.join(", ")}; got "${value}".`);
}

/**
 * Reads a resume request `{ decisions: { [interruptId]: decision } }`, listing every problem with its
 * path (`["decisions", id, "action"]`). Whether the ids match the pending interrupts is checked by the
 * resume itself, before anything runs.
 *
 * @throws RunResumeError `RESUME_INVALID_DECISION` with the issues
 */
export function readDecisions(body: unknown): Decisions {
  const issues: Issue[] = [];
  const decisions = (body as { decisions?: unknown } | null)?.decisions;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    issues.push({ path: [], message: "send a JSON object: { decisions: { [interruptId]: decision } }." });
  } else {
    for (const key of Object.keys(body)) {
      if (key !== "decisions") issues.push({ path: [key], message: "unknown field." });
    }
    if (typeof decisions !== "object" || decisions === null || Array.isArray(decisions)) {
      issues.push({
        path: ["decisions"],
        message:
          'must be an object keyed by interrupt id, e.g. { "agent#1/s1/call_1": { "action": "approve" } }.',
      });
    }
  }
  const parsed: Record<string, Decisions[string]> = {};
  if (issues.length === 0) {
    for (const [id, value] of Object.entries(decisions as Record<string, unknown>)) {
      const result = decisionSchema.safeParse(value);
      if (result.success) parsed[id] = result.data;
      else {
        for (const issue of result.error.issues) {
          issues.push({ path: ["decisions", id, ...issue.path.map(String)], message: issue.message });
        }
      }
    }
  }
  if (issues.length > 0) {
    throw new RunResumeError(
      "RESUME_INVALID_DECISION",
      `the resume request is not valid: ${issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`).join("; ")}`,
      { issues },
    );
  }
  return parsed;
}

/** Options of {@link resumeServed}. */
export interface ResumeServedOptions extends ServedRunOptions {
  /** The store the run is in. */
  readonly store: RunStore;
  /** Stops the resumed run (not tied to the HTTP request: decisions, once made, are carried out). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Resumes a stored run with decisions. The pipeline is the one named in the run id; for a run started
 * elsewhere each candidate is tried in turn (a resume refuses a run of another definition before
 * anything runs).
 *
 * @returns the outputs when the run finishes, or the interrupts when it stops again
 * @throws RunResumeError (not found, not resumable, already resumed, invalid or missing decisions,
 *   changed arguments or definition), and whatever the run throws
 */
export async function resumeServed(
  candidates: readonly ServedPipeline[],
  runId: string,
  decisions: Decisions,
  options: ResumeServedOptions,
): Promise<ResumedAnswer | InterruptedAnswer> {
  const head = await loadRun(options.store, runId);
  const { order, named } = candidatesOf(candidates, runId);
  let last: unknown;
  for (const served of order) {
    try {
      const outputs = await served.pipeline.resume(head.runId, decisions, {
        store: options.store,
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.tracer !== undefined ? { tracer: options.tracer } : {}),
        ...(options.logger !== undefined ? { logger: options.logger } : {}),
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      });
      return {
        status: "completed",
        run_id: head.runId,
        pipeline: served.name,
        outputs: served.io.fromRunOutputs(outputs),
      };
    } catch (error) {
      if (error instanceof RunInterruptedError) return interruptedAnswer(error.runId, error.interrupts);
      if (!wrongPipeline(error, named)) throw error;
      last = error;
    }
  }
  throw last;
}

/** The served pipelines a run may belong to: the one its id names, else every one (tried in turn). */
function candidatesOf(
  candidates: readonly ServedPipeline[],
  runId: string,
): { order: readonly ServedPipeline[]; named: string | undefined } {
  const named = pipelineOfRun(runId);
  const order = candidates.filter((served) => named === undefined || served.name === named);
  if (order.length === 0) {
    throw new RunResumeError(
      "RESUME_DEFINITION_CHANGED",
      `run "${runId}" belongs to the pipeline "${named}", which this server does not serve.`,
    );
  }
  return { order, named };
}

/** A resume refused because the run belongs to another served pipeline (try the next one). */
function wrongPipeline(error: unknown, named: string | undefined): boolean {
  return error instanceof RunResumeError && error.code === "RESUME_DEFINITION_CHANGED" && named === undefined;
}

/**
 * {@link resumeServed}, streamed: the resumed run's wire events (`component_start`, `chunk`,
 * `component_end`, …, then `run_end`, or `interrupt` and `run_end` when it stops again). A refused
 * resume throws before the first event, so the route can still answer it with its HTTP status.
 */
export async function resumeStreamServed(
  candidates: readonly ServedPipeline[],
  runId: string,
  decisions: Decisions,
  options: ResumeServedOptions,
): Promise<AsyncIterable<WireEvent>> {
  const head = await loadRun(options.store, runId);
  const { order, named } = candidatesOf(candidates, runId);
  let last: unknown;
  for (const served of order) {
    const iterator = served.pipeline
      .resumeStream(head.runId, decisions, {
        store: options.store,
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.tracer !== undefined ? { tracer: options.tracer } : {}),
        ...(options.logger !== undefined ? { logger: options.logger } : {}),
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      })
      [Symbol.asyncIterator]();
    let first: IteratorResult<PipelineEvent>;
    try {
      first = await iterator.next();
    } catch (error) {
      if (!wrongPipeline(error, named)) throw error;
      last = error;
      continue;
    }
    return (async function* () {
      for (let next = first; next.done !== true; next = await iterator.next()) {
        yield toWireEvent(served, next.value);
      }
    })();
  }
  throw last;
}
