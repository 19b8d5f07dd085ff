import { randomUUID } from "node:crypto";
import { RunConflictError, RunInterruptedError, RunResumeError } from "./errors.js";
import type { Decisions, Interrupt } from "./interrupt.js";
import { RunSnapshot } from "./run-snapshot.js";
import type { RunStore } from "./run-store.js";
import { runIdPattern } from "./snapshot-schema.js";

/**
 * How much of a run is written to its store. Only `"interrupts"` exists: a snapshot is written when the
 * run stops at an interrupt (and at its resume and end). Writing a delta after every step
 * (`"steps"`, for resuming a crashed process mid-run) is planned, not implemented, and refused at run
 * time, so nobody relies on a protection that is not there; for crash recovery of every step, run on
 * Restate (`@junction/restate`).
 */
export type Durability = "interrupts";

/**
 * Refuses a `durability` other than `"interrupts"` (a JavaScript caller, or a document, may pass
 * `"steps"`): failing loudly beats an option that silently does nothing.
 */
export function checkDurability(durability: unknown, where: string): void {
  if (durability === undefined || durability === "interrupts") return;
  throw new TypeError(
    durability === "steps"
      ? `${where}: durability "steps" is not implemented: a run is written to its store only when it stops at an interrupt, so a process that crashes mid-run cannot be resumed from its last step. Remove the option (the default is "interrupts"), or run on Restate (@junction/restate, see docs/restate.md), which journals every step.`
      : `${where}: durability must be "interrupts" (got ${JSON.stringify(durability)}).`,
  );
}

/** Run options shared by pipelines and components: where and how a run is kept. */
export interface DurableRunOptions {
  /** Where snapshots go. Without a store, an interrupt's snapshot rides on the {@link RunInterruptedError}. */
  readonly store?: RunStore | undefined;
  /** The run's id (default: a new `run_<uuid>`). */
  readonly runId?: string | undefined;
  /**
   * `"interrupts"` (the default and only mode): write a snapshot only when the run stops at an interrupt
   * (nothing otherwise). See {@link Durability}: `"steps"` is refused.
   */
  readonly durability?: Durability | undefined;
}

/** Options of `pipeline.resume` / `component.resume` besides the run options. */
export interface ResumeOptions extends DurableRunOptions {
  /** Resume even though the pipeline's or component's definition changed since the snapshot (default false). */
  readonly allowDefinitionChange?: boolean | undefined;
}

/** What a snapshot's `root` records. */
export interface RunRoot {
  readonly kind: "pipeline" | "component";
  readonly type: string;
  readonly fingerprint: string;
}

/** The parts of a snapshot that describe where the run stands. */
export type RunSection = Pick<RunSnapshot, "pipeline" | "component">;

/** A new run id. */
export function newRunId(): string {
  return `run_${randomUUID()}`;
}

function checkRunId(runId: string, where: string): string {
  if (typeof runId !== "string" || !runIdPattern.test(runId)) {
    throw new TypeError(
      `${where}: runId ${JSON.stringify(runId)} is not valid (letters, digits, "_", "-", "." up to 128 characters, no leading dot).`,
    );
  }
  return runId;
}

function describeInterrupts(interrupts: readonly Interrupt[]): string {
  return interrupts
    .map((item) => `"${item.id}"${item.tool === undefined ? "" : ` (tool "${item.tool}")`}`)
    .join(", ");
}

/** Writes one run's chain of snapshots: the interrupt, the resume, the end. */
export class RunRecorder {
  readonly runId: string;
  #head: RunSnapshot | undefined;

  constructor(
    readonly store: RunStore | undefined,
    runId: string | undefined,
    readonly root: RunRoot,
    readonly inputs: Record<string, unknown>,
    head?: RunSnapshot,
    readonly branchOf?: { readonly runId: string; readonly seq: number },
    readonly where = "run",
  ) {
    this.runId = checkRunId(runId ?? newRunId(), where);
    this.#head = head;
  }

  /** The last snapshot written (or resumed from). */
  get head(): RunSnapshot | undefined {
    return this.#head;
  }

  #next(fields: Partial<RunSnapshot> & Pick<RunSnapshot, "status">): RunSnapshot {
    const head = this.#head;
    return {
      format: RunSnapshot.format,
      version: RunSnapshot.version,
      runId: this.runId,
      seq: (head?.seq ?? 0) + 1,
      parent: head?.seq ?? null,
      ...(this.branchOf === undefined ? {} : { branchOf: this.branchOf }),
      createdAt: new Date().toISOString(),
      root: this.root,
      inputs: this.inputs,
      interrupts: [],
      decisions: {},
      ...fields,
    };
  }

  async #save(snapshot: RunSnapshot): Promise<void> {
    await this.store?.save(snapshot, this.#head?.seq ?? null);
    this.#head = snapshot;
  }

  /** Saves the paused run, then throws the {@link RunInterruptedError} (persist first, then announce). */
  async interrupted(
    interrupts: readonly Interrupt[],
    section: RunSection,
    resumeHint: string,
  ): Promise<never> {
    const snapshot = this.#next({
      status: "interrupted",
      interrupts: [...interrupts] as RunSnapshot["interrupts"],
      ...section,
    });
    await this.#save(snapshot);
    const count = interrupts.length;
    throw new RunInterruptedError(
      `Run "${this.runId}" is waiting for ${count} decision${count === 1 ? "" : "s"}: ${describeInterrupts(interrupts)}. Resume with ${resumeHint}(${this.store === undefined ? "error.snapshot" : `"${this.runId}"`}, { "${interrupts[0]?.id}": { action: "approve" } }${this.store === undefined ? "" : ", { store }"}).`,
      { runId: this.runId, interrupts, snapshot: this.store === undefined ? snapshot : undefined },
    );
  }

  /** Starts a branch: a copy of an interrupted snapshot of another run becomes this run's first snapshot. */
  async seed(snapshot: RunSnapshot): Promise<void> {
    const { pipeline, component, interrupts } = snapshot;
    await this.#save(
      this.#next({
        status: "interrupted",
        interrupts,
        ...(pipeline === undefined ? {} : { pipeline }),
        ...(component === undefined ? {} : { component }),
      }),
    );
  }

  /** Claims the run for a resume (compare-and-swap on the head), recording the decisions. */
  async running(decisions: Decisions): Promise<void> {
    const previous = this.#head;
    const snapshot = this.#next({
      status: "running",
      decisions: { ...decisions },
      interrupts: previous?.interrupts ?? [],
      ...(previous?.pipeline === undefined ? {} : { pipeline: previous.pipeline }),
      ...(previous?.component === undefined ? {} : { component: previous.component }),
    });
    try {
      await this.#save(snapshot);
    } catch (error) {
      if (!(error instanceof RunConflictError)) throw error;
      throw new RunResumeError(
        "RUN_ALREADY_RESUMED",
        `${this.where}: run "${this.runId}" was already resumed by someone else (its snapshot ${previous?.seq ?? "head"} is no longer the head). Load it again to see its state.`,
        { cause: error },
      );
    }
  }

  /** Records the end of a run that has snapshots (nothing is written for runs that never paused). */
  async finished(outputs: Record<string, unknown> | undefined, error: unknown): Promise<void> {
    if (this.store === undefined || this.#head === undefined) return;
    const fields: Partial<RunSnapshot> & Pick<RunSnapshot, "status"> =
      error === undefined
        ? { status: "completed", ...(outputs === undefined ? {} : { outputs }) }
        : {
            status: "failed",
            error: (error instanceof Error ? error.message : String(error)).slice(0, 20_000),
          };
    await this.#save(this.#next(fields));
  }
}

/** Where a resume starts: the snapshot and how the run continues (same run, or a branch). */
export interface OpenedRun {
  readonly snapshot: RunSnapshot;
  readonly recorder: RunRecorder;
}

/**
 * Loads what a resume starts from and checks it fails closed: the snapshot (by run id from the store,
 * or given — then parsed as untrusted data), its status, and that it belongs to this definition.
 * Resuming a snapshot that is not the head of its run in the store starts a new branch (a new run id).
 */
export async function openRun(
  target: string | RunSnapshot | unknown,
  options: ResumeOptions,
  root: RunRoot,
  where: string,
): Promise<OpenedRun> {
  checkDurability(options.durability, where);
  const store = options.store;
  let snapshot: RunSnapshot | undefined;
  let branch = false;
  if (typeof target === "string") {
    if (store === undefined) {
      throw new RunResumeError(
        "RUN_NOT_FOUND",
        `${where}: resuming by run id needs { store }; or pass the snapshot itself.`,
      );
    }
    snapshot = await store.load(target);
    if (snapshot === undefined) {
      throw new RunResumeError("RUN_NOT_FOUND", `${where}: the store has no run "${target}".`);
    }
  } else {
    snapshot = RunSnapshot.parse(target);
    if (store !== undefined) branch = (await store.load(snapshot.runId))?.seq !== snapshot.seq;
  }
  if (snapshot.status !== "interrupted") {
    throw new RunResumeError(
      "RUN_NOT_RESUMABLE",
      `${where}: run "${snapshot.runId}" is ${snapshot.status}, not interrupted; only an interrupted run can be resumed.`,
    );
  }
  if (snapshot.root.kind !== root.kind || snapshot.root.type !== root.type) {
    throw new RunResumeError(
      "RESUME_DEFINITION_CHANGED",
      `${where}: run "${snapshot.runId}" belongs to ${snapshot.root.kind} "${snapshot.root.type}", not to ${root.kind} "${root.type}".`,
    );
  }
  if (snapshot.root.fingerprint !== root.fingerprint && options.allowDefinitionChange !== true) {
    throw new RunResumeError(
      "RESUME_DEFINITION_CHANGED",
      `${where}: the ${root.kind} changed since run "${snapshot.runId}" was paused (its definition fingerprint differs), so its snapshot may not fit. Resume with the same definition, or pass { allowDefinitionChange: true } if the change is safe.`,
    );
  }
  if (!branch) {
    return {
      snapshot,
      recorder: new RunRecorder(
        store,
        snapshot.runId,
        root,
        snapshot.inputs,
        snapshot,
        snapshot.branchOf,
        where,
      ),
    };
  }
  const branchOf = { runId: snapshot.runId, seq: snapshot.seq };
  const recorder = new RunRecorder(
    store,
    options.runId ?? newRunId(),
    root,
    snapshot.inputs,
    undefined,
    branchOf,
    where,
  );
  await recorder.seed(snapshot);
  return { snapshot, recorder };
}
