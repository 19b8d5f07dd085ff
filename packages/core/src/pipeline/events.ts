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

/** The run finished; the last event. */
export interface RunEndEvent {
  readonly type: "run_end";
  /** The same object `Pipeline.run` resolves to. */
  readonly outputs: PipelineOutputs;
  /** The components that never ran, with reasons (un-taken branches, missing inputs). */
  readonly neverRan: readonly NeverRanReport[];
}

/** Any event of `Pipeline.stream`. */
export type PipelineEvent = ComponentStartEvent | ComponentEndEvent | ChunkEvent | RunEndEvent;

/**
 * What a run returns: `{ component: { socket: value } }`; components with nothing to report are left
 * out (so an entry may be `undefined`).
 */
export type PipelineOutputs = Record<string, Record<string, unknown> | undefined>;
