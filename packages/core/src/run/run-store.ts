import { RunConflictError } from "./errors.js";
import type { Interrupt } from "./interrupt.js";
import type { RunSnapshot } from "./run-snapshot.js";
import type { RunStatus } from "./snapshot-schema.js";

/** One entry of a run's history. */
export interface SnapshotInfo {
  readonly runId: string;
  readonly seq: number;
  readonly parent: number | null;
  readonly status: RunStatus;
  readonly createdAt: string;
}

/** A run as listed by {@link RunStore.list}: its head snapshot's summary. */
export interface RunSummary extends SnapshotInfo {
  /** The root pipeline's or component's type. */
  readonly rootType: string;
  /** The interrupts waiting for decisions (empty unless `status` is `"interrupted"`). */
  readonly interrupts: readonly Interrupt[];
}

/** What {@link RunStore.list} filters on. */
export interface RunListQuery {
  /** Only runs whose head has this status. */
  readonly status?: RunStatus | undefined;
  /** At most this many runs. */
  readonly limit?: number | undefined;
  /**
   * Called for a run whose head snapshot cannot be read (a damaged or hostile file); the run is skipped
   * and the listing goes on. Default: a warning on the default logger.
   */
  readonly onUnreadable?: ((runId: string, error: unknown) => void) | undefined;
}

/**
 * Where runs are kept between an interrupt and its resume. Each save names the sequence number it
 * expects the head to have, so of two writers (two resumers of one run) exactly one wins; the other gets
 * a {@link RunConflictError}.
 */
export interface RunStore {
  /**
   * Saves `snapshot` as the run's new head. `snapshot.seq` must be `expectedSeq + 1` (`1` for a new run).
   *
   * @param expectedSeq - the head the writer read (`null`: the run must not exist yet)
   * @throws RunConflictError when the head is not `expectedSeq`
   */
  save(snapshot: RunSnapshot, expectedSeq: number | null): Promise<void>;
  /** The run's head, or the snapshot `seq` of its history; `undefined` when there is none. */
  load(runId: string, seq?: number): Promise<RunSnapshot | undefined>;
  /** The run's kept snapshots, oldest first. */
  history(runId: string): AsyncIterable<SnapshotInfo>;
  /** Runs, most recently written first. */
  list(query?: RunListQuery): AsyncIterable<RunSummary>;
  /**
   * Appends a step delta after snapshot `seq`. Reserved for a per-step durability mode (not implemented;
   * runs do not call it today); stores implement it so deltas are durable once that mode exists.
   */
  appendDelta(runId: string, seq: number, delta: unknown): Promise<void>;
  /** The deltas written after snapshot `seq`, in order. */
  deltas(runId: string, seq: number): Promise<unknown[]>;
  /** Deletes the run and its history. */
  delete(runId: string): Promise<void>;
}

/** The summary of a snapshot. */
export function summarize(snapshot: RunSnapshot): RunSummary {
  return {
    runId: snapshot.runId,
    seq: snapshot.seq,
    parent: snapshot.parent,
    status: snapshot.status,
    createdAt: snapshot.createdAt,
    rootType: snapshot.root.type,
    interrupts: snapshot.status === "interrupted" ? snapshot.interrupts : [],
  };
}

/** Checks that `snapshot` may follow a head at `head` given `expectedSeq`. */
export function checkSave(snapshot: RunSnapshot, expectedSeq: number | null, head: number | null): void {
  const where = `RunStore.save("${snapshot.runId}")`;
  if (snapshot.seq !== (expectedSeq ?? 0) + 1) {
    throw new TypeError(`${where}: seq ${snapshot.seq} must be expectedSeq + 1 (${(expectedSeq ?? 0) + 1}).`);
  }
  if (head !== expectedSeq) {
    throw new RunConflictError(
      head === null
        ? `${where}: the run does not exist (expected head ${expectedSeq}).`
        : `${where}: the run's head is ${head}, not ${expectedSeq ?? "empty"}; another writer got there first. Load the run again.`,
      snapshot.runId,
    );
  }
}

/**
 * A {@link RunStore} in memory, for tests and single-process use. Snapshots are deep-copied in and out.
 *
 * @example
 * ```ts
 * const store = new MemoryRunStore();
 * await agent.run(inputs, { store, runId: "r1" }).catch(() => {});
 * for await (const run of store.list({ status: "interrupted" })) console.log(run.runId);
 * ```
 */
export class MemoryRunStore implements RunStore {
  readonly #runs = new Map<string, RunSnapshot[]>();
  readonly #deltas = new Map<string, unknown[]>();
  readonly #keep: number;

  /** @param options - `keep`: snapshots kept per run (default: all) */
  constructor(options: { keep?: number | undefined } = {}) {
    this.#keep = options.keep ?? Number.POSITIVE_INFINITY;
  }

  async save(snapshot: RunSnapshot, expectedSeq: number | null): Promise<void> {
    const list = this.#runs.get(snapshot.runId);
    checkSave(snapshot, expectedSeq, list?.at(-1)?.seq ?? null);
    const copy = structuredClone(snapshot);
    if (list === undefined) this.#runs.set(snapshot.runId, [copy]);
    else {
      list.push(copy);
      while (list.length > this.#keep) {
        const dropped = list.shift()!;
        this.#deltas.delete(`${dropped.runId}/${dropped.seq}`);
      }
    }
    // Most recently written first in list(): move the run to the end of the map.
    const runs = this.#runs.get(snapshot.runId)!;
    this.#runs.delete(snapshot.runId);
    this.#runs.set(snapshot.runId, runs);
  }

  async load(runId: string, seq?: number): Promise<RunSnapshot | undefined> {
    const list = this.#runs.get(runId);
    const found = seq === undefined ? list?.at(-1) : list?.find((item) => item.seq === seq);
    return found === undefined ? undefined : structuredClone(found);
  }

  async *history(runId: string): AsyncIterable<SnapshotInfo> {
    for (const snapshot of this.#runs.get(runId) ?? []) {
      const { runId: id, seq, parent, status, createdAt } = snapshot;
      yield { runId: id, seq, parent, status, createdAt };
    }
  }

  async *list(query: RunListQuery = {}): AsyncIterable<RunSummary> {
    let count = 0;
    for (const list of [...this.#runs.values()].reverse()) {
      if (count >= (query.limit ?? Number.POSITIVE_INFINITY)) return;
      const head = list.at(-1)!;
      if (query.status !== undefined && head.status !== query.status) continue;
      count++;
      yield summarize(structuredClone(head));
    }
  }

  async appendDelta(runId: string, seq: number, delta: unknown): Promise<void> {
    const key = `${runId}/${seq}`;
    const list = this.#deltas.get(key);
    const copy = structuredClone(delta);
    if (list === undefined) this.#deltas.set(key, [copy]);
    else list.push(copy);
  }

  async deltas(runId: string, seq: number): Promise<unknown[]> {
    return structuredClone(this.#deltas.get(`${runId}/${seq}`) ?? []);
  }

  async delete(runId: string): Promise<void> {
    for (const snapshot of this.#runs.get(runId) ?? []) this.#deltas.delete(`${runId}/${snapshot.seq}`);
    this.#runs.delete(runId);
  }
}
