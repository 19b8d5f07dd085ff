import { randomUUID } from "node:crypto";
import { canonicalJSON } from "../json/canonical-json.js";
import { RunConflictError, RunInterruptedError, RunResumeError } from "../run/errors.js";
import type { Decisions, Interrupt } from "../run/interrupt.js";
import {
  checkDurability,
  type Durability,
  type DurableRunOptions,
  type ResumeOptions,
} from "../run/options.js";
import { RunSnapshot } from "../run/run-snapshot.js";
import type { RunStore } from "../run/run-store.js";
import { runIdPattern } from "../run/snapshot-schema.js";
import {
  defaultLeaseMs,
  heldBy,
  type JournalEntry,
  newLease,
  readDeltas,
  StoreJournal,
} from "./store-journal.js";

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

/** Writes one run's chain of snapshots: the start (durability "steps"), the interrupt, the resume, the end. */
export class RunRecorder {
  readonly runId: string;
  #head: RunSnapshot | undefined;
  #durability: Durability = "interrupts";
  #leaseMs = defaultLeaseMs;
  readonly #owner = randomUUID();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #writes: Promise<void> = Promise.resolve();
  #writeError: unknown;

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

  /** How the run is written from now on (the run's options); checks `leaseMs`. */
  configure(options: DurableRunOptions): this {
    this.#durability = options.durability ?? "interrupts";
    const ms = options.leaseMs ?? defaultLeaseMs;
    if (!Number.isInteger(ms) || ms < 100) {
      throw new TypeError(`${this.where}: leaseMs must be an integer of at least 100 (got ${String(ms)}).`);
    }
    this.#leaseMs = ms;
    return this;
  }

  get durability(): Durability {
    return this.#durability;
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
      ...(this.#durability === "steps" ? { durability: "steps" as const } : {}),
      ...fields,
    };
  }

  /** The fields of a `running` snapshot: who runs it, and how it is written. */
  #runningFields(): Pick<RunSnapshot, "lease"> {
    return { lease: newLease(this.#leaseMs, this.#owner) };
  }

  async #save(snapshot: RunSnapshot): Promise<void> {
    await this.store?.save(snapshot, this.#head?.seq ?? null);
    this.#head = snapshot;
  }

  /**
   * Appends a delta after the head snapshot. Writes are made one at a time, in call order; the first
   * failure fails this and every later write (a journal with a hole would replay wrongly).
   */
  append(delta: unknown): Promise<void> {
    const store = this.store;
    const seq = this.#head?.seq;
    if (store === undefined || seq === undefined) return Promise.resolve();
    const write = this.#writes.then(() => {
      if (this.#writeError !== undefined) throw this.#writeError;
      return store.appendDelta(this.runId, seq, delta).catch((error: unknown) => {
        this.#writeError = error;
        throw error;
      });
    });
    this.#writes = write.catch(() => {});
    return write;
  }

  /** The journal of a `"steps"` run from its head: `entries` are replayed, new steps are appended. */
  journal(entries: readonly JournalEntry[] = []): StoreJournal {
    return new StoreJournal((delta) => this.append(delta), entries, this.runId);
  }

  /** Keeps the lease of a `running` head alive: a heartbeat delta every third of the lease. */
  #beat(): void {
    this.#stopBeat();
    if (this.store === undefined) return;
    const timer = setInterval(
      () => {
        this.append({ heartbeat: Date.now() }).catch(() => {});
      },
      Math.max(50, Math.floor(this.#leaseMs / 3)),
    );
    timer.unref();
    this.#heartbeat = timer;
  }

  #stopBeat(): void {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }

  /** Before the next snapshot: no more heartbeats, every pending delta written. */
  async #settle(): Promise<void> {
    this.#stopBeat();
    await this.#writes;
  }

  /** A `"steps"` run's first snapshot, written before anything runs: `running`, with its inputs. */
  async started(fields: Partial<RunSnapshot> = {}): Promise<void> {
    await this.#save(this.#next({ status: "running", ...fields, ...this.#runningFields() }));
    this.#beat();
  }

  /** Saves the paused run, then throws the {@link RunInterruptedError} (persist first, then announce). */
  async interrupted(
    interrupts: readonly Interrupt[],
    section: RunSection,
    resumeHint: string,
  ): Promise<never> {
    await this.#settle();
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

  #claimed(error: unknown, what: string): never {
    if (!(error instanceof RunConflictError)) throw error;
    throw new RunResumeError(
      "RUN_ALREADY_RESUMED",
      `${this.where}: run "${this.runId}" was already ${what} by someone else (its snapshot ${this.#head?.seq ?? "head"} is no longer the head). Load it again to see its state.`,
      { cause: error },
    );
  }

  /** The parts of the head that a resume or a takeover carries over. */
  #carried(): Partial<RunSnapshot> {
    const previous = this.#head;
    return {
      interrupts: previous?.interrupts ?? [],
      ...(previous?.pipeline === undefined ? {} : { pipeline: previous.pipeline }),
      ...(previous?.component === undefined ? {} : { component: previous.component }),
      ...(previous?.includeOutputsFrom === undefined
        ? {}
        : { includeOutputsFrom: previous.includeOutputsFrom }),
    };
  }

  /** Claims the run for a resume (compare-and-swap on the head), recording the decisions. */
  async running(decisions: Decisions): Promise<void> {
    const snapshot = this.#next({
      status: "running",
      decisions: { ...decisions },
      ...this.#carried(),
      ...this.#runningFields(),
    });
    try {
      await this.#save(snapshot);
    } catch (error) {
      this.#claimed(error, "resumed");
    }
    this.#beat();
  }

  /**
   * Claims a `running` run whose process is gone (compare-and-swap on the head): the new head repeats
   * where the run started from and its decisions, and carries every step journaled so far.
   */
  async takeOver(entries: readonly JournalEntry[]): Promise<void> {
    const previous = this.#head;
    const snapshot = this.#next({
      status: "running",
      decisions: { ...(previous?.decisions ?? {}) },
      ...this.#carried(),
      ...this.#runningFields(),
      ...(entries.length === 0 ? {} : { journal: [...entries] }),
    });
    try {
      await this.#save(snapshot);
    } catch (error) {
      this.#claimed(error, "taken over");
    }
    this.#beat();
  }

  /** Records the end of a run that has snapshots (nothing is written for runs that never paused). */
  async finished(outputs: Record<string, unknown> | undefined, error: unknown): Promise<void> {
    await this.#settle();
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
  /**
   * Set when the run was `running` and its runner is gone: the steps it journaled (replayed, not run
   * again). The caller checks the decisions with {@link recoveryDecisions} and claims the run with
   * `recorder.takeOver(entries)`.
   */
  readonly recovery?: { readonly entries: readonly JournalEntry[] } | undefined;
}

/**
 * The decisions a taken-over run continues with: those it was resumed with. The caller passes `{}` (or
 * the same decisions again); anything else is refused, since the run may already have acted on them.
 */
export function recoveryDecisions(snapshot: RunSnapshot, decisions: Decisions, where: string): Decisions {
  const given = Object.keys(decisions ?? {}).length;
  if (given === 0 || canonicalJSON(decisions) === canonicalJSON(snapshot.decisions))
    return snapshot.decisions;
  throw new RunResumeError(
    "RESUME_INVALID_DECISION",
    `${where}: run "${snapshot.runId}" is running (its process is gone, so it is taken over), and it already has its decisions${Object.keys(snapshot.decisions).length === 0 ? " (none: it was not resumed from an interrupt)" : ""}; other decisions cannot be applied mid-run. Continue it with ${where}("${snapshot.runId}", {}, { store }).`,
  );
}

/**
 * Loads what a resume starts from and checks it fails closed: the snapshot (by run id from the store,
 * or given — then parsed as untrusted data), its status, and that it belongs to this definition.
 * Resuming a snapshot that is not the head of its run in the store starts a new branch (a new run id).
 * A `running` run (by id) is taken over when its runner is gone (see `heldBy`), else refused with
 * `RUN_IN_PROGRESS`.
 */
export async function openRun(
  target: string | RunSnapshot | unknown,
  options: ResumeOptions,
  root: RunRoot,
  where: string,
): Promise<OpenedRun> {
  checkDurability(options.durability, where, options);
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
  let recovery: OpenedRun["recovery"];
  if (snapshot.status === "running" && typeof target === "string" && store !== undefined) {
    const read = readDeltas(await store.deltas(snapshot.runId, snapshot.seq), where);
    const holder = heldBy(snapshot, read.lastWrite);
    if (holder !== undefined) {
      throw new RunResumeError(
        "RUN_IN_PROGRESS",
        `${where}: run "${snapshot.runId}" is running in ${holder}. Wait for it to finish; if that process is gone, resume it again after its lease ends to take it over.`,
      );
    }
    recovery = { entries: [...(snapshot.journal ?? []), ...read.entries] };
  } else if (snapshot.status !== "interrupted") {
    throw new RunResumeError(
      "RUN_NOT_RESUMABLE",
      snapshot.status === "running"
        ? `${where}: run "${snapshot.runId}" is running; a running run is taken over (after its process is gone) by its id with { store }, not from a snapshot.`
        : `${where}: run "${snapshot.runId}" is ${snapshot.status}, not interrupted; only an interrupted run can be resumed.`,
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
  // A run keeps its durability when resumed from its store, unless the resume says otherwise.
  const durability =
    recovery !== undefined
      ? (snapshot.durability ?? "interrupts")
      : (options.durability ?? (store === undefined ? undefined : snapshot.durability));
  const configured = { ...options, durability };
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
      ).configure(configured),
      recovery,
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
  ).configure(configured);
  await recorder.seed(snapshot);
  return { snapshot, recorder };
}
