import { JunctionError, type JunctionErrorFields } from "../errors/errors.js";
import type { Interrupt } from "./interrupt.js";
import type { RunSnapshot } from "./run-snapshot.js";

/** Fields of a {@link RunInterruptedError}. */
export interface RunInterruptedErrorFields extends JunctionErrorFields {
  readonly runId: string;
  readonly interrupts: readonly Interrupt[];
  readonly snapshot: RunSnapshot | undefined;
}

/**
 * A run stopped at one or more interrupts and waits for decisions. It is thrown only after the snapshot
 * was saved (when a store is used), so a resume can never arrive before the run is resumable.
 *
 * @example
 * ```ts
 * try { await agent.run(inputs, { store, runId }); } catch (error) {
 *   if (error instanceof RunInterruptedError) console.log(error.runId, error.interrupts.map((i) => i.id));
 * }
 * ```
 */
export class RunInterruptedError extends JunctionError {
  /** The run's id (the store key). */
  readonly runId: string;
  /** The interrupts waiting for a decision. */
  readonly interrupts: readonly Interrupt[];
  /** The snapshot to resume from when no store was used (`undefined` with a store: resume by `runId`). */
  readonly snapshot: RunSnapshot | undefined;

  /** @param message - what stopped and how to resume @param fields - run id, interrupts, snapshot */
  constructor(message: string, fields: RunInterruptedErrorFields) {
    super("RUN_INTERRUPTED", message, fields);
    this.runId = fields.runId;
    this.interrupts = fields.interrupts;
    this.snapshot = fields.snapshot;
  }
}

/** A store refused a save because the run's head moved (another writer or resumer won). */
export class RunConflictError extends JunctionError {
  /** The run concerned. */
  readonly runId: string;
  /** @param message - what conflicted @param runId - the run */
  constructor(message: string, runId: string) {
    super("RUN_CONFLICT", message);
    this.runId = runId;
  }
}

/** Why a resume was refused. */
export type RunResumeErrorCode =
  | "RESUME_INCOMPLETE"
  | "RESUME_UNKNOWN_INTERRUPT"
  | "RESUME_INVALID_DECISION"
  | "RESUME_ARGS_CHANGED"
  | "RESUME_DEFINITION_CHANGED"
  | "RUN_ALREADY_RESUMED"
  | "RUN_IN_PROGRESS"
  | "RUN_NOT_FOUND"
  | "RUN_NOT_RESUMABLE"
  | "SNAPSHOT_SIGNATURE_INVALID";

/**
 * A resume (or a snapshot check) failed closed: a missing or unknown decision, arguments that changed, a
 * changed definition, a run another resumer took, a bad signature. Nothing ran.
 */
export class RunResumeError extends JunctionError {
  /** @param code - why @param message - what and how to fix it @param fields - issues, cause */
  constructor(code: RunResumeErrorCode, message: string, fields: JunctionErrorFields = {}) {
    super(code, message, fields);
  }
}
