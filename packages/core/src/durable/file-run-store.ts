import { promises as fs } from "node:fs";
import { join } from "node:path";
import { DeserializationError } from "../errors/errors.js";
import { getDefaultLogger } from "../logger.js";
import { RunConflictError } from "../run/errors.js";
import { RunSnapshot } from "../run/run-snapshot.js";
import {
  checkSave,
  type RunListQuery,
  type RunStore,
  type RunSummary,
  type SnapshotInfo,
  summarize,
} from "../run/run-store.js";
import { runIdPattern } from "../run/snapshot-schema.js";
import {
  appendDurable,
  createFileExclusive,
  listNewestFirst,
  readDurableLines,
  removeStaleTemps,
} from "./durable-files.js";

/** Options of {@link FileRunStore}. */
export interface FileRunStoreOptions {
  /** Snapshots kept per run (older ones and their deltas are deleted). Default 10. */
  readonly keep?: number | undefined;
}

const snapshotFile = /^(\d{10})\.json$/;

function seqName(seq: number): string {
  return String(seq).padStart(10, "0");
}

/**
 * The embedded {@link RunStore}: one directory per run, one JSON file per snapshot
 * (`<dir>/<runId>/<seq>.json`), step deltas in `<seq>.deltas.jsonl`. No dependencies, no server.
 *
 * Every snapshot is written to a temporary file, fsynced, then hard-linked to its final name, which fails
 * when the name exists: that is the compare-and-swap, and it holds across processes sharing the
 * directory. Deltas are appended and fsynced line by line; a torn last line (a crash mid-write) is ignored.
 * A process killed mid-save leaves at most a temporary file, which readers ignore and a later save
 * removes (once it is ten minutes old).
 *
 * @example
 * ```ts
 * const store = new FileRunStore(".junction/runs");
 * await pipeline.run(inputs, { store, runId: "order-42" });
 * ```
 */
export class FileRunStore implements RunStore {
  /** The store's directory. */
  readonly directory: string;
  readonly #keep: number;

  /** @param directory - where runs are kept (created on first write) @param options - retention */
  constructor(directory: string, options: FileRunStoreOptions = {}) {
    this.directory = directory;
    const keep = options.keep ?? 10;
    if (!Number.isInteger(keep) || keep < 1)
      throw new TypeError("FileRunStore: keep must be a positive integer.");
    this.#keep = keep;
  }

  #runDir(runId: string): string {
    if (!runIdPattern.test(runId)) {
      throw new TypeError(
        `FileRunStore: ${JSON.stringify(runId)} is not a valid run id (letters, digits, "_", "-", "." up to 128, no leading dot).`,
      );
    }
    return join(this.directory, runId);
  }

  async #seqs(runId: string): Promise<number[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.#runDir(runId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const seqs: number[] = [];
    for (const name of names) {
      const match = snapshotFile.exec(name);
      if (match !== null) seqs.push(Number(match[1]));
    }
    return seqs.sort((a, b) => a - b);
  }

  async save(snapshot: RunSnapshot, expectedSeq: number | null): Promise<void> {
    const dir = this.#runDir(snapshot.runId);
    const seqs = await this.#seqs(snapshot.runId);
    checkSave(snapshot, expectedSeq, seqs.at(-1) ?? null);
    await fs.mkdir(dir, { recursive: true });
    const created = await createFileExclusive(
      join(dir, `${seqName(snapshot.seq)}.json`),
      JSON.stringify(snapshot),
    );
    if (!created) {
      throw new RunConflictError(
        `RunStore.save("${snapshot.runId}"): snapshot ${snapshot.seq} was written by another writer first. Load the run again.`,
        snapshot.runId,
      );
    }
    const stale = [...seqs, snapshot.seq].slice(0, -this.#keep);
    for (const seq of stale) {
      await fs.rm(join(dir, `${seqName(seq)}.json`), { force: true });
      await fs.rm(join(dir, `${seqName(seq)}.deltas.jsonl`), { force: true });
    }
    await removeStaleTemps(dir);
  }

  async load(runId: string, seq?: number): Promise<RunSnapshot | undefined> {
    const target = seq ?? (await this.#seqs(runId)).at(-1);
    if (target === undefined) return undefined;
    const file = join(this.#runDir(runId), `${seqName(target)}.json`);
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return RunSnapshot.parse(JSON.parse(text));
    } catch (error) {
      const issues = error instanceof DeserializationError ? error.issues : undefined;
      throw new DeserializationError(
        `FileRunStore: ${file} is not a readable run snapshot (${error instanceof SyntaxError ? `invalid JSON: ${error.message}` : (error as Error).message}). Restore it from a backup or delete the run.`,
        issues === undefined ? { cause: error } : { issues, cause: error },
      );
    }
  }

  async *history(runId: string): AsyncIterable<SnapshotInfo> {
    for (const seq of await this.#seqs(runId)) {
      const snapshot = await this.load(runId, seq);
      if (snapshot === undefined) continue;
      const { parent, status, createdAt } = snapshot;
      yield { runId, seq, parent, status, createdAt };
    }
  }

  async *list(query: RunListQuery = {}): AsyncIterable<RunSummary> {
    // Each run by its head snapshot's file.
    const heads = await listNewestFirst(this.directory, async (runId) => {
      const seq = (await this.#seqs(runId)).at(-1);
      return seq === undefined
        ? undefined
        : { file: join(this.directory, runId, `${seqName(seq)}.json`), value: seq };
    });
    let count = 0;
    for (const { name: runId, value: seq } of heads) {
      if (count >= (query.limit ?? Number.POSITIVE_INFINITY)) return;
      let snapshot: RunSnapshot | undefined;
      try {
        snapshot = await this.load(runId, seq);
      } catch (error) {
        // One damaged file must not hide every other run (an approval inbox lists them all).
        if (query.onUnreadable !== undefined) query.onUnreadable(runId, error);
        else getDefaultLogger().warn(`FileRunStore.list: skipped run "${runId}": ${String(error)}`);
        continue;
      }
      if (snapshot === undefined || (query.status !== undefined && snapshot.status !== query.status))
        continue;
      count++;
      yield summarize(snapshot);
    }
  }

  async appendDelta(runId: string, seq: number, delta: unknown): Promise<void> {
    await appendDurable(join(this.#runDir(runId), `${seqName(seq)}.deltas.jsonl`), JSON.stringify(delta));
  }

  async deltas(runId: string, seq: number): Promise<unknown[]> {
    const file = join(this.#runDir(runId), `${seqName(seq)}.deltas.jsonl`);
    const lines = await readDurableLines(file);
    return lines.map((line, index) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new DeserializationError(
          `FileRunStore.deltas: line ${index + 1} of "${file}" is not JSON; the file was changed or damaged.`,
          { cause: error },
        );
      }
    });
  }

  async delete(runId: string): Promise<void> {
    await fs.rm(this.#runDir(runId), { recursive: true, force: true });
  }
}
