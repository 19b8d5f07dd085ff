import { excerpt, type Span, type Tracer } from "@junction/core";

/**
 * What the playground remembers of recent runs: every event it streamed and every span the run
 * started, with times relative to the run's start, so a finished run can be shown as a timeline.
 */

/** One recorded span. */
export interface SpanRecord {
  /** 1-based, in start order within the run. */
  readonly id: number;
  /** The parent span's id, or `null` for the run's root spans. */
  readonly parent: number | null;
  /** The operation (`junction.component.run`, `junction.agent.tool`, …). */
  readonly name: string;
  /** Milliseconds from the run's start. */
  readonly start: number;
  /** Milliseconds from the run's start, once ended. */
  end: number | null;
  /** The tags (values as the run set them; large values are cut when sent). */
  readonly tags: Record<string, unknown>;
}

/** How a recorded run ended. */
export type RunStatus = "running" | "completed" | "failed" | "interrupted" | "cancelled";

/** One run the playground started. */
export interface RunRecord {
  /** The playground's id of the run. */
  readonly id: string;
  /** The served pipeline's name. */
  readonly pipeline: string;
  /** ISO time it started. */
  readonly startedAt: string;
  /** How it ended (or `running`). */
  status: RunStatus;
  /** Milliseconds it took, once ended. */
  durationMs: number | null;
  /** The request it ran with. */
  readonly request: unknown;
  /** Every event streamed to the page, in order (`event` name and JSON `data`). */
  readonly events: { readonly event: string; readonly data: unknown }[];
  /** Every span, in start order. */
  readonly spans: SpanRecord[];
  /** The run's id in the server's store, once it stopped for decisions (its status is read there after). */
  storeRunId?: string | undefined;
}

/** Called for each span that starts or ends. */
export type SpanListener = (kind: "span_start" | "span_end", span: SpanRecord) => void;

/** The largest string a tag keeps (the page shows tags, it does not need whole documents). */
const tagTextLimit = 2_000;

function shrink(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return excerpt(value, tagTextLimit);
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? String(value) : value;
  if (depth > 6) return "…";
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => shrink(item, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    try {
      return shrink((value as { toJSON: () => unknown }).toJSON(), depth + 1);
    } catch {
      return "(unserializable)";
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, 100)) out[key] = shrink(item, depth + 1);
  return out;
}

class RecordingSpan implements Span {
  constructor(
    readonly record: SpanRecord,
    readonly forwarded: Span | undefined,
    private readonly started: number,
    private readonly listener: SpanListener,
  ) {}

  setTag(key: string, value: unknown): void {
    this.record.tags[key] = shrink(value);
    this.forwarded?.setTag(key, value);
  }

  end(): void {
    if (this.record.end !== null) return;
    this.record.end = performance.now() - this.started;
    this.forwarded?.end();
    this.listener("span_end", this.record);
  }
}

/**
 * A tracer for one run: records spans into the run's record and tells the listener as they start and
 * end; forwards to the server's own tracer too, when there is one (with the same parent links).
 *
 * @param record - the run's record (its `spans` grow)
 * @param listener - told of each start and end
 * @param forward - the server's tracer, if any
 */
export function recordingTracer(record: RunRecord, listener: SpanListener, forward?: Tracer): Tracer {
  const started = performance.now();
  return {
    startSpan(operationName, tags = {}, parent) {
      const parentSpan = parent instanceof RecordingSpan ? parent : undefined;
      const span: SpanRecord = {
        id: record.spans.length + 1,
        parent: parentSpan?.record.id ?? null,
        name: operationName,
        start: performance.now() - started,
        end: null,
        tags: shrink(tags) as Record<string, unknown>,
      };
      record.spans.push(span);
      const forwarded = forward?.startSpan(operationName, tags, parentSpan?.forwarded);
      listener("span_start", span);
      return new RecordingSpan(span, forwarded, started, listener);
    },
  };
}

/** The last `limit` runs, newest last. */
export class RunLog {
  readonly #runs: RunRecord[] = [];
  #next = 1;

  /** @param limit - how many runs to keep (default 50) */
  constructor(private readonly limit = 50) {}

  /** Starts a record. */
  start(pipeline: string, request: unknown): RunRecord {
    const record: RunRecord = {
      id: `run-${this.#next++}`,
      pipeline,
      startedAt: new Date().toISOString(),
      status: "running",
      durationMs: null,
      request,
      events: [],
      spans: [],
    };
    this.#runs.push(record);
    if (this.#runs.length > this.limit) this.#runs.shift();
    return record;
  }

  /** The run with this id. */
  get(id: string): RunRecord | undefined {
    return this.#runs.find((run) => run.id === id);
  }

  /** Every kept run, newest first. */
  list(): readonly RunRecord[] {
    return [...this.#runs].reverse();
  }
}
