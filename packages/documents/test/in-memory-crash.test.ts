import { type ChildProcess, spawn } from "node:child_process";
import { readdir, stat, truncate, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../../../test/support/temp-dirs.js";
import { type Document, InMemoryDocumentStore, StoreFileError } from "../src/index.js";
import { crashDocuments } from "./support/crash-batches.js";

const tempDir = useTempDirs("in-memory-crash");
const writer = join(import.meta.dirname, "support", "store-writer.ts");

/** A writer process and the last batch it reported saved (`-1` before the first). */
interface Writer {
  readonly child: ChildProcess;
  /** Resolves once the writer has reported batch `batch` saved. */
  saved(batch: number): Promise<void>;
  /** Resolves with the last batch reported saved once the process is gone. */
  readonly exited: Promise<number>;
}

function startWriter(path: string, first: number, mode?: string): Writer {
  const args = ["--import", "tsx", "--conditions=@junction/source", writer, path, String(first)];
  const child = spawn(process.execPath, mode === undefined ? args : [...args, mode], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let last = first - 1;
  let errors = "";
  const waiting: { batch: number; resolve: () => void }[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    for (const match of chunk.toString().matchAll(/wrote (\d+)/g)) last = Number(match[1]);
    for (const wait of waiting.filter((entry) => entry.batch <= last)) wait.resolve();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  // "close", not "exit": every line the writer printed before it died has been read.
  const exited = new Promise<number>((resolve) => child.on("close", () => resolve(last)));
  return {
    child,
    exited,
    saved: (batch) =>
      new Promise<void>((resolve, reject) => {
        if (last >= batch) return resolve();
        waiting.push({ batch, resolve });
        void exited.then(() => reject(new Error(`the writer exited before batch ${batch}: ${errors}`)));
      }),
  };
}

/** The batches the documents form, each checked whole: every field as written. */
function wholeBatches(documents: readonly Document[]): number[] {
  const { batches: found, problems } = crashDocuments.check(documents);
  expect(problems).toEqual([]);
  return found;
}

const temporaries = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith(".tmp"));

describe("InMemoryDocumentStore with a path: a process killed with SIGKILL mid-write", () => {
  it("leaves a file that loads and holds a prefix of the writes, each batch whole, in every trial", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    const path = join(dir, "kb.json");
    let batches = 0;
    // Four writers in turn on one file, each killed at a random moment after two saved batches;
    // each continues where the file says the last one stopped.
    for (let trial = 0; trial < 4; trial++) {
      const writer = startWriter(path, batches);
      await writer.saved(batches + 1);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
      writer.child.kill("SIGKILL");
      const reported = await writer.exited;
      const loaded = await InMemoryDocumentStore.load(path);
      const found = wholeBatches(await loaded.filterDocuments());
      // A prefix of the writes: batches 0…k-1 with nothing missing, and every reported save is there.
      expect(found).toEqual(Array.from({ length: found.length }, (_, batch) => batch));
      expect(found.length).toBeGreaterThanOrEqual(reported + 1);
      expect(found.length).toBeLessThanOrEqual(reported + 2);
      batches = found.length;
    }
  });

  it("killed between writing its temporary file and renaming it: the old file loads, and the stray temporary file breaks neither the next save nor load", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    const path = join(dir, "kb.json");
    const seed = new InMemoryDocumentStore({ path });
    await seed.writeDocuments(crashDocuments.documents(0));

    const dying = startWriter(path, 1, "die-in-rename");
    expect(await dying.exited).toBe(0);
    expect(dying.child.signalCode).toBe("SIGKILL");
    const [stray] = await temporaries(dir);
    expect(stray).toMatch(/^\.kb\.json\.\d+\.\d+\.tmp$/);
    // The whole new file was written: only the rename was missing.
    expect((await stat(join(dir, stray ?? ""))).size).toBeGreaterThan((await stat(path)).size);
    expect(wholeBatches(await (await InMemoryDocumentStore.load(path)).filterDocuments())).toEqual([0]);

    // The next process loads the old file and goes on writing beside the stray file.
    const next = new InMemoryDocumentStore({ path });
    await next.writeDocuments(crashDocuments.documents(1));
    expect(wholeBatches(await (await InMemoryDocumentStore.load(path)).filterDocuments())).toEqual([0, 1]);
    // A fresh temporary file may be another process's save in progress: it is left alone…
    expect(await temporaries(dir)).toEqual([stray]);
    // …and removed by a later save once it is old enough that no save can still be using it.
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, stray ?? ""), hourAgo, hourAgo);
    const later = new InMemoryDocumentStore({ path });
    await later.writeDocuments(crashDocuments.documents(2));
    expect(await temporaries(dir)).toEqual([]);
    expect(wholeBatches(await (await InMemoryDocumentStore.load(path)).filterDocuments())).toEqual([0, 1, 2]);
  });
});

describe("InMemoryDocumentStore: a torn or foreign store file", () => {
  const refusals = [
    ["cut short", async (path: string) => truncate(path, 5000)],
    ["empty", async (path: string) => truncate(path, 0)],
    ["garbage", async (path: string) => writeFile(path, Buffer.from([0xff, 0x00, 0x13, 0x37, 0x7b]))],
  ] as const;

  it.each(refusals)(
    "a %s file is refused with a StoreFileError naming the file and saying what to do",
    async (_, damage) => {
      const path = join(await tempDir(), "kb.json");
      await new InMemoryDocumentStore({ path }).writeDocuments(crashDocuments.documents(0));
      await damage(path);
      for (const open of [
        () => InMemoryDocumentStore.load(path),
        async () => new InMemoryDocumentStore({ path }),
      ]) {
        const error = await open().then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(error).toBeInstanceOf(StoreFileError);
        expect(error).not.toBeInstanceOf(SyntaxError);
        expect((error as StoreFileError).path).toBe(path);
        expect((error as Error).message).toContain(`"${path}"`);
        expect((error as Error).message).toMatch(/Restore it from a backup, or delete it/);
      }
    },
  );
});
