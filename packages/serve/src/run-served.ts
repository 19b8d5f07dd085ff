import {
  type Interrupt,
  type Logger,
  type NeverRanReport,
  type PipelineEvent,
  type PipelineOutputs,
  type PipelineRunOptions,
  RunInterruptedError,
  type RunStore,
  type Tracer,
} from "@junction/core";
import type { ServedPipeline } from "./served-pipeline.js";
import { interruptedAnswer, newRunId } from "./served-runs.js";

/**
 * Runs a served pipeline from a JSON request: the one path behind `/run`, `/stream`, the
 * OpenAI-compatible routes, MCP tools and the CLI, so they behave alike.
 */

/** Run options the server passes to every run. */
export interface ServedRunOptions {
  /** The most components running at once in one run (default: unbounded). */
  readonly concurrency?: number | undefined;
  /** A tracer for every run. */
  readonly tracer?: Tracer | undefined;
  /** A logger for every run. */
  readonly logger?: Logger | undefined;
  /**
   * Where runs that stop at interrupts are kept (set by `createApp({ store })`); each run gets the id
   * `<pipeline>.<uuid>`. Without a store, a run that needs a decision cannot be resumed and fails.
   */
  readonly store?: RunStore | undefined;
  /**
   * The longest a run started over HTTP or MCP may take, in milliseconds; then it is aborted and
   * answered 504 (`TimeoutError`). `createApp` defaults it to 600 000 (10 minutes); `0` or `Infinity`
   * turns it off.
   */
  readonly timeoutMs?: number | undefined;
}

/** The signal of one run: the caller's, aborted too when the run's time is up. */
function runTimer(
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
): { readonly signal: AbortSignal | undefined; clear(): void } {
  if (timeoutMs === undefined || timeoutMs <= 0 || !Number.isFinite(timeoutMs)) {
    return { signal, clear: () => undefined };
  }
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal?.reason);
  if (signal?.aborted === true) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  const timer = setTimeout(() => {
    controller.abort(
      new DOMException(
        `the run took longer than the server's run timeout (${timeoutMs} ms) and was stopped.`,
        "TimeoutError",
      ),
    );
  }, timeoutMs);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", forward);
    },
  };
}

/** What a finished run answers: `{ outputs, never_ran }`. */
export interface RunAnswer {
  /** The outputs (declared names, or `{ component: { socket: value } }`). */
  readonly outputs: Record<string, unknown>;
  /** Components that never ran, with the reason (un-taken branches). */
  readonly never_ran: readonly { readonly component: string; readonly reason: string }[];
}

/** One event of a streamed run, as sent over SSE (`event:` name and JSON `data:`). */
export interface WireEvent {
  /** `component_start`, `component_end`, `chunk`, `interrupt` or `run_end`. */
  readonly event: PipelineEvent["type"];
  /** The event's JSON payload. */
  readonly data: Record<string, unknown>;
}

function runOptions(
  served: ServedPipeline,
  options: ServedRunOptions,
  signal: AbortSignal | undefined,
  onNeverRan?: (reports: readonly NeverRanReport[]) => void,
): PipelineRunOptions {
  // Written out (no spreads): built once per request.
  return {
    includeOutputsFrom: served.io.includeOutputsFrom,
    inputsFormat: "nested",
    concurrency: options.concurrency,
    tracer: options.tracer,
    logger: options.logger,
    store: options.store,
    runId: options.store === undefined ? undefined : newRunId(served.name),
    signal,
    onNeverRan,
  };
}

/**
 * Streams a run as wire events; the last one is `run_end` with the answer.
 *
 * @throws PipelineValidationError for an invalid request (before anything is yielded), and whatever
 *   the run throws
 */
export async function* streamServed(
  served: ServedPipeline,
  request: unknown,
  options: ServedRunOptions & { readonly signal?: AbortSignal | undefined } = {},
): AsyncGenerator<WireEvent> {
  const inputs = served.io.toRunInputs(request);
  const timer = runTimer(options.timeoutMs, options.signal);
  try {
    for await (const event of served.pipeline.stream(inputs, runOptions(served, options, timer.signal))) {
      yield toWireEvent(served, event);
    }
  } finally {
    timer.clear();
  }
}

/**
 * Runs to the end and returns the answer. It reads the pipeline's events directly and converts only
 * the last one (or the interrupt): the component events a stream would send are not built here.
 */
export async function runServed(
  served: ServedPipeline,
  request: unknown,
  options: ServedRunOptions & { readonly signal?: AbortSignal | undefined } = {},
): Promise<RunAnswer> {
  const inputs = served.io.toRunInputs(request);
  // `run`, not `stream`: nothing listens to the events, and the never-ran report comes by callback.
  let neverRan: readonly NeverRanReport[] = [];
  let outputs: PipelineOutputs;
  const timer = runTimer(options.timeoutMs, options.signal);
  try {
    outputs = await served.pipeline.run(
      inputs,
      runOptions(served, options, timer.signal, (reports) => {
        neverRan = reports;
      }),
    );
  } catch (error) {
    if (error instanceof RunInterruptedError) throw interruptedError(error.runId, error.interrupts, options);
    throw error;
  } finally {
    timer.clear();
  }
  return { outputs: served.io.fromRunOutputs(outputs), never_ran: wireNeverRan(neverRan) };
}

function wireNeverRan(reports: readonly NeverRanReport[]): RunAnswer["never_ran"] {
  const list: { component: string; reason: string }[] = [];
  for (const report of reports) list.push({ component: report.componentName, reason: report.reason });
  return list;
}

/** The error for a run that stopped at interrupts, saying how to resume it over HTTP (or that it cannot be). */
function interruptedError(
  runId: string,
  interrupts: readonly Interrupt[],
  options: ServedRunOptions,
): RunInterruptedError {
  const ids = interrupts.map((item) => `"${item.id}"`).join(", ");
  const how =
    options.store === undefined
      ? "This server keeps no runs (createApp({ store }) / --store), so it cannot be resumed."
      : `Decide with POST /runs/${runId}/resume { "decisions": { ${interrupts[0] === undefined ? "" : `"${interrupts[0].id}": { "action": "approve" }`} } }.`;
  return new RunInterruptedError(`run "${runId}" is waiting for decisions on ${ids}. ${how}`, {
    runId,
    interrupts,
    snapshot: undefined,
  });
}

/** The wire form of one pipeline event (snake_case keys, outputs in the served shape). */
export function toWireEvent(served: ServedPipeline, event: PipelineEvent): WireEvent {
  switch (event.type) {
    case "component_start":
      return {
        event: event.type,
        data: {
          component: event.componentName,
          type: event.componentType,
          visit: event.visit,
          inputs: event.inputs,
        },
      };
    case "component_end":
      return {
        event: event.type,
        data: {
          component: event.componentName,
          type: event.componentType,
          visit: event.visit,
          outputs: event.outputs,
        },
      };
    case "chunk":
      return { event: event.type, data: { component: event.componentName, chunk: event.chunk } };
    case "interrupt":
      // Never the snapshot: runs are resumed by id from the server's store.
      return {
        event: event.type,
        data: interruptedAnswer(event.runId, event.interrupts) as unknown as Record<string, unknown>,
      };
    case "run_end":
      return {
        event: event.type,
        data: {
          ...(event.status === "interrupted" ? { status: event.status, run_id: event.runId } : {}),
          outputs: served.io.fromRunOutputs(event.outputs),
          never_ran: wireNeverRan(event.neverRan),
        },
      };
  }
}

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return value;
}

/**
 * True when `JSON.stringify` alone writes the value as {@link stringifyWire} does: plain objects,
 * arrays and primitives without bigints. Class instances (maps, sets, dates, values with `toJSON`) and
 * deep values take the replacer's path, which also reports cycles.
 */
function plainJSON(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "bigint";
  if (depth > 32) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      if (!plainJSON(value[index], depth + 1)) return false;
    }
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) {
    if (!plainJSON((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/**
 * `JSON.stringify` for answers: bigints as strings, maps as objects, sets as lists. When a value still
 * cannot be written (a cycle), the `fallback` is written instead.
 */
export function stringifyWire(value: unknown, fallback?: () => unknown): string {
  try {
    // Without a replacer V8 writes JSON several times faster; the check costs less than the difference.
    if (plainJSON(value, 0)) return JSON.stringify(value) ?? "null";
    return JSON.stringify(value, replacer) ?? "null";
  } catch (error) {
    if (fallback === undefined) throw error;
    return JSON.stringify(fallback(), replacer) ?? "null";
  }
}

/** The JSON value a value is written as (for MCP's `structuredContent`). */
export function toWireJSON(value: unknown): unknown {
  return JSON.parse(stringifyWire(value));
}

/**
 * Starts a stream of events and waits for its first one, so a refusal (invalid inputs: the run's own
 * validation, which checks every socket's type) is thrown here and answered with its status before a
 * `200 text/event-stream` is sent. The returned iterable yields that first event, then the rest.
 *
 * @param events - the events of a run
 * @returns the same events, the first already received
 * @throws whatever the run throws before its first event (a `PipelineValidationError` for bad inputs)
 */
export async function opened<T>(events: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    [Symbol.asyncIterator]: async function* () {
      try {
        if (first.done === true) return;
        yield first.value;
        for (;;) {
          const next = await iterator.next();
          if (next.done === true) return;
          yield next.value;
        }
      } finally {
        await iterator.return?.();
      }
    },
  };
}
