import { hostname } from "node:os";
import { z } from "zod";
import { DeserializationError, type Issue, SerializationError } from "../errors/errors.js";
import { copyUntrusted } from "../json/untrusted-json.js";
import type { Durable } from "../run/durable.js";
import { snapshotLimits } from "../run/run-snapshot.js";
import type { journalEntrySchema, RunSnapshot } from "../run/snapshot-schema.js";
import { fromDurableJSON, toDurableJSON } from "./durable-json.js";

/**
 * `durability: "steps"` on a {@link RunStore}: every step's result is appended as a delta after the
 * run's `running` snapshot, and a run taken over after a crash replays those results by step name.
 */

/** One journaled step: its name and its result as `toDurableJSON` wrote it. */
export type JournalEntry = z.output<typeof journalEntrySchema>;

/** A delta line: a step's result (`at`: when it was written), or a heartbeat of the run's process. */
const deltaSchema = z.union([
  z.strictObject({ step: z.string().max(4000), value: z.unknown(), at: z.number() }),
  z.strictObject({ heartbeat: z.number() }),
]);

/** What a run's deltas say: the steps they journal, and when its process last wrote. */
export interface ReadDeltas {
  readonly entries: JournalEntry[];
  readonly lastWrite: number | undefined;
}

/** Reads a run's deltas (untrusted store data): every line must be a step result or a heartbeat. */
export function readDeltas(deltas: readonly unknown[], where: string): ReadDeltas {
  const entries: JournalEntry[] = [];
  let lastWrite: number | undefined;
  deltas.forEach((delta, index) => {
    // As untrusted as a snapshot: copied within the same size and depth bounds, then checked.
    const issues: Issue[] = [];
    const copy = copyUntrusted(delta, [index], issues, snapshotLimits);
    const parsed = issues.length === 0 ? deltaSchema.safeParse(copy) : undefined;
    if (parsed?.success !== true) {
      throw new DeserializationError(
        `${where}: delta ${index + 1} of the run is not a step result or a heartbeat${issues.length === 0 ? "" : ` (${issues[0]!.message})`}; the store's files were changed or damaged. Nothing was claimed.`,
        { issues },
      );
    }
    const data = parsed.data;
    if ("heartbeat" in data) lastWrite = Math.max(lastWrite ?? 0, data.heartbeat);
    else {
      entries.push({ step: data.step, value: data.value });
      lastWrite = Math.max(lastWrite ?? 0, data.at);
    }
  });
  return { entries, lastWrite };
}

/**
 * The {@link Durable} of a run with `durability: "steps"`: a step that finished before (in `entries`)
 * returns its recorded result without running; any other step runs, and its result is appended
 * through `append` before the step returns. Results come back through their JSON form either way, so
 * a first run and a replay see the same values.
 */
export class StoreJournal implements Durable {
  readonly #replay: Map<string, unknown>;
  readonly #append: (delta: unknown) => Promise<void>;
  readonly #key: string;
  #clock = 0;
  /** Steps answered from the journal. */
  replayed = 0;
  /** Steps run and written. */
  written = 0;

  /**
   * @param append - writes one delta durably (the run recorder's, which serializes writes)
   * @param entries - the steps that finished before
   * @param runId - names the idempotency keys
   */
  constructor(append: (delta: unknown) => Promise<void>, entries: readonly JournalEntry[], runId: string) {
    this.#append = append;
    this.#replay = new Map(entries.map((entry) => [entry.step, entry.value]));
    this.#key = runId;
  }

  async step<T>(name: string, run: () => Promise<T>): Promise<T> {
    if (this.#replay.has(name)) {
      this.replayed++;
      return fromDurableJSON(this.#replay.get(name)) as T;
    }
    const result = await run();
    let value: unknown;
    try {
      value = toDurableJSON(result);
    } catch (error) {
      throw new SerializationError(
        `durability "steps": the result of step "${name}" cannot be journaled: ${error instanceof Error ? error.message : String(error)} (Or run without durability "steps".)`,
        { cause: error },
      );
    }
    await this.#append({ step: name, value, at: Date.now() });
    this.written++;
    return fromDurableJSON(value) as T;
  }

  all<T>(steps: readonly Promise<T>[]): Promise<T[]> {
    return Promise.all(steps);
  }

  now(): Promise<number> {
    return this.step(`now#${this.#clock++}`, () => Promise.resolve(Date.now()));
  }

  idempotencyKey(name: string): string {
    return `${this.#key}/${name}`;
  }
}

/** Who runs a `running` run (see `RunSnapshot.lease`). */
export type Lease = NonNullable<RunSnapshot["lease"]>;

/** A lease for this process. */
export function newLease(ms: number, owner: string): Lease {
  return {
    owner,
    host: hostname(),
    pid: process.pid,
    ms,
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The default lease of a `running` snapshot written without one. */
export const defaultLeaseMs = 60_000;

/**
 * Whether another process may take over a `running` run: `undefined` when it may (its runner's process
 * on this host is gone, or the runner has not written for longer than its lease), else who holds it and
 * until when.
 */
export function heldBy(
  head: RunSnapshot,
  lastWrite: number | undefined,
  now = Date.now(),
): string | undefined {
  const lease = head.lease;
  if (
    lease !== undefined &&
    lease.host === hostname() &&
    lease.pid !== process.pid &&
    !processAlive(lease.pid)
  )
    return undefined;
  const ms = lease?.ms ?? defaultLeaseMs;
  const written = Math.max(Date.parse(head.createdAt) || 0, lastWrite ?? 0);
  if (written + ms <= now) return undefined;
  const who =
    lease === undefined
      ? "another process"
      : lease.host === hostname()
        ? `process ${lease.pid} on this host`
        : `process ${lease.pid} on host "${lease.host}"`;
  return `${who} (its lease runs until ${new Date(written + ms).toISOString()} unless it writes again)`;
}
