import type { Logger } from "../logger.js";
import type { Durable } from "../run/durable.js";
import type { NeverRanReport } from "../run/events.js";
import type { DurableRunOptions, ResumeOptions } from "../run/options.js";
import type { Span, Tracer } from "../tracing.js";
import type { InputsFormat } from "./run-inputs.js";

/** Options of `new Pipeline(...)`. */
export interface PipelineOptions {
  /** How often one component may run in one run (default 100); the next attempt raises `PipelineMaxComponentRuns`. */
  readonly maxRunsPerComponent?: number | undefined;
  /** Free-form metadata, kept with the pipeline and written out by serialization. */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  /** Check socket types when connecting (default true). */
  readonly connectionTypeValidation?: boolean | undefined;
  /** Where warnings go (default: the process-wide default logger). */
  readonly logger?: Logger | undefined;
  /** The tracer for runs that do not pass one (default: no tracing). */
  readonly tracer?: Tracer | undefined;
}

/** Options of `Pipeline.run` and `Pipeline.stream` (`store`, `runId`, `durability`: see docs/interrupts.md). */
export interface PipelineRunOptions extends DurableRunOptions {
  /** Components whose every output is reported, even outputs connected to other components. */
  readonly includeOutputsFrom?: readonly string[] | ReadonlySet<string> | undefined;
  /** How many components may run at the same time (default: unbounded). Results do not depend on it. */
  readonly concurrency?: number | undefined;
  /** Cancels the run: every running component sees it, and the run rejects with `signal.reason`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * `"inputs"` (default) validates the run inputs against the socket schemas; `"all"` also validates
   * every component's outputs against its output schemas.
   */
  readonly validate?: "inputs" | "all" | undefined;
  /** Forces how the inputs are read instead of detecting it from the keys. */
  readonly inputsFormat?: InputsFormat | undefined;
  /** The tracer of this run (default: the pipeline's). */
  readonly tracer?: Tracer | undefined;
  /** The logger of this run (default: the pipeline's). */
  readonly logger?: Logger | undefined;
  /** A parent for the run's `junction.pipeline.run` span (to nest the run in your own trace). */
  readonly span?: Span | undefined;
  /**
   * `run` only: receives the components that never ran, with the reasons, when the run completes —
   * the list `stream` puts on its `run_end` event — so a caller can report it without streaming.
   */
  readonly onNeverRan?: ((reports: readonly NeverRanReport[]) => void) | undefined;
  /**
   * Runs each component run as a named durable step (see {@link Durable}); `@junction/restate` passes
   * one that journals them in a Restate workflow. Default: in-process, nothing journaled. Components
   * of one wave then start in wave order, and one that records its own steps runs on its own.
   */
  readonly durable?: Durable | undefined;
}

/** Options of `Pipeline.resume`: the run options (except `includeOutputsFrom`, kept from the run) and resume checks. */
export interface PipelineResumeOptions
  extends Omit<PipelineRunOptions, "includeOutputsFrom" | "inputsFormat">,
    ResumeOptions {}
