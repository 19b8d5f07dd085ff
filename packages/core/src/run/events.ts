import type { Interrupt } from "./interrupt.js";
import type { RunSnapshot } from "./run-snapshot.js";

/**
 * The events `Pipeline.stream` yields, in the order things happen.
 */

/** A component is about to run. */
export interface ComponentStartEvent {
  readonly type: "component_start";
  /** The component's name in the pipeline. */
  readonly componentName: string;
  /** Its registered type. */
  readonly componentType: string;
  /** Which run of this component this is in the current pipeline run (1-based). */
  readonly visit: number;
  /** The inputs it runs with (every socket, defaults filled). */
  readonly inputs: Readonly<Record<string, unknown>>;
}

/** A component finished. */
export interface ComponentEndEvent {
  readonly type: "component_end";
  /** The component's name in the pipeline. */
  readonly componentName: string;
  /** Its registered type. */
  readonly componentType: string;
  /** Which run of this component this was (1-based). */
  readonly visit: number;
  /** Everything it returned. */
  readonly outputs: Readonly<Record<string, unknown>>;
}

/** A component passed something to `context.emit` (for example a streaming chunk). */
export interface ChunkEvent {
  readonly type: "chunk";
  /** The emitting component. */
  readonly componentName: string;
  /** What it emitted. */
  readonly chunk: unknown;
}

/** Why a component did not run in a finished run. */
export interface NeverRanReport {
  /** The component's name. */
  readonly componentName: string;
  /** A sentence saying what it was waiting for. */
  readonly reason: string;
}

/** The run stopped at interrupts (after its snapshot was saved); `run_end` with status `"interrupted"` follows. */
export interface InterruptEvent {
  readonly type: "interrupt";
  /** The run's id (resume it with `pipeline.resume(runId, decisions, { store })`). */
  readonly runId: string;
  /** The interrupts waiting for decisions. */
  readonly interrupts: readonly Interrupt[];
  /** The snapshot to resume from when no store was used. */
  readonly snapshot: RunSnapshot | undefined;
}

/** The run finished or paused; the last event. */
export interface RunEndEvent {
  readonly type: "run_end";
  /** `"completed"`, or `"interrupted"` when the run paused at interrupts (see the `interrupt` event). */
  readonly status: "completed" | "interrupted";
  /** The same object `Pipeline.run` resolves to (the outputs so far when interrupted). */
  readonly outputs: PipelineOutputs;
  /** The components that never ran, with reasons (un-taken branches, missing inputs); empty when interrupted. */
  readonly neverRan: readonly NeverRanReport[];
  /** The run's id when it was interrupted or kept in a store. */
  readonly runId?: string | undefined;
}

/** Any event of `Pipeline.stream`. */
export type PipelineEvent =
  | ComponentStartEvent
  | ComponentEndEvent
  | ChunkEvent
  | InterruptEvent
  | RunEndEvent;

/**
 * What a run returns: `{ component: { socket: value } }`; components with nothing to report are left
 * out (so an entry may be `undefined`).
 */
export type PipelineOutputs = Record<string, Record<string, unknown> | undefined>;
