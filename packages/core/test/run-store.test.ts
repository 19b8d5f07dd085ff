import { execFile, spawn } from "node:child_process";
import { mkdir, readdir, readFile, truncate, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  appendDurable,
  DeserializationError,
  FileRunStore,
  MemoryRunStore,
  RunConflictError,
  type RunSnapshot,
  type RunStore,
  readDurableLines,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { useTempDirs } from "../../../test/support/temp-dirs.js";

const tempDir = useTempDirs("store");

function snapshot(runId: string, seq: number, status: RunSnapshot["status"] = "interrupted"): RunSnapshot {
  return {
    format: "junction.run-snapshot",
    version: 1,
    runId,
    seq,
    parent: seq === 1 ? null : seq - 1,
    status,
    createdAt: new Date(2026, 0, 1, 0, 0, seq).toISOString(),
    root: { kind: "component", type: "test.Thing", fingerprint: "sha256:0" },
    inputs: { value: seq },
    interrupts: [],
    decisions: {},
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const stores: [string, () => Promise<RunStore>][] = [
  ["MemoryRunStore", async () => new MemoryRunStore({ keep: 3 })],
  ["FileRunStore", async () => new FileRunStore(await tempDir(), { keep: 3 })],
];

describe.each(stores)("%s", (_name, make) => {
  test("saves, loads the head or an older snapshot, and compare-and-swaps on seq", async () => {
    const store = await make();
    await store.save(snapshot("r1", 1), null);
    await store.save(snapshot("r1", 2, "running"), 1);
    expect((await store.load("r1"))?.seq).toBe(2);
    expect((await store.load("r1", 1))?.status).toBe("interrupted");
    await expect(store.save(snapshot("r1", 2), 1)).rejects.toBeInstanceOf(RunConflictError);
    await expect(store.save(snapshot("r1", 1), null)).rejects.toBeInstanceOf(RunConflictError);
    expect(await store.load("nope")).toBeUndefined();
  });

  test("keeps the last N snapshots, lists runs by status, deletes", async () => {
    const store = await make();
    for (let seq = 1; seq <= 5; seq++)
      await store.save(snapshot("r1", seq, seq === 5 ? "completed" : "running"), seq === 1 ? null : seq - 1);
    await store.save(snapshot("r2", 1), null);
    expect((await collect(store.history("r1"))).map((info) => info.seq)).toEqual([3, 4, 5]);
    expect((await collect(store.list({ status: "interrupted" }))).map((run) => run.runId)).toEqual(["r2"]);
    expect((await collect(store.list())).map((run) => run.runId).sort()).toEqual(["r1", "r2"]);
    await store.delete("r1");
    expect(await store.load("r1")).toBeUndefined();
  });

  test("deltas are appended in order after a snapshot", async () => {
    const store = await make();
    await store.save(snapshot("r1", 1, "running"), null);
    await store.appendDelta("r1", 1, { step: 1 });
    await store.appendDelta("r1", 1, { step: 2 });
    expect(await store.deltas("r1", 1)).toEqual([{ step: 1 }, { step: 2 }]);
    expect(await store.deltas("r1", 2)).toEqual([]);
  });
});

describe("FileRunStore", () => {
  test("a damaged snapshot file is named when loaded and skipped (and reported) when listing", async () => {
    const dir = await tempDir();
    const store = new FileRunStore(dir);
    await store.save(snapshot("good", 1), null);
    await store.save(snapshot("bad", 1), null);
    await writeFile(join(dir, "bad", "0000000001.json"), '{"format": "junction.run-snapshot", "runId": ');
    await expect(store.load("bad")).rejects.toThrow(
      /bad[/\\]0000000001\.json is not a readable run snapshot \(invalid JSON/,
    );
    const unreadable: string[] = [];
    const listed: string[] = [];
    for await (const run of store.list({ onUnreadable: (runId) => unreadable.push(runId) }))
      listed.push(run.runId);
    expect(listed).toEqual(["good"]);
    expect(unreadable).toEqual(["bad"]);
  });

  test("refuses run ids that are not plain names", async () => {
    const store = new FileRunStore(await tempDir());
    await expect(store.load("../etc")).rejects.toThrow(/not a valid run id/);
  });

  test("a torn last delta line (a crash mid-append) is ignored", async () => {
    const dir = await tempDir();
    const file = join(dir, "deltas.jsonl");
    await appendDurable(file, '{"a":1}');
    await writeFile(file, '{"a":1}\n{"a":', { flag: "w" });
    expect(await readDurableLines(file)).toEqual(['{"a":1}']);
  });

  test("of several saves racing for the same seq, exactly one wins", async () => {
    const store = new FileRunStore(await tempDir());
    await store.save(snapshot("race", 1), null);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, index) => store.save({ ...snapshot("race", 2), inputs: { index } }, 1)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(
      results
        .filter((result) => result.status === "rejected")
        .map((result) => (result as PromiseRejectedResult).reason.code),
    ).toEqual(["RUN_CONFLICT", "RUN_CONFLICT", "RUN_CONFLICT", "RUN_CONFLICT"]);
  });

  test("of several processes racing to create one file, exactly one wins and the file is complete", async () => {
    const dir = await tempDir();
    const target = join(dir, "0000000002.json");
    const module = join(import.meta.dirname, "..", "src", "durable", "durable-files.ts");
    const script = `
      import { createFileExclusive } from ${JSON.stringify(module)};
      const body = JSON.stringify({ pid: process.pid, pad: "x".repeat(200000) });
      console.log((await createFileExclusive(${JSON.stringify(target)}, body)) ? "won" : "lost");
    `;
    const run = promisify(execFile);
    const outcomes = await Promise.all(
      Array.from({ length: 3 }, () =>
        run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]).then((result) =>
          result.stdout.trim(),
        ),
      ),
    );
    expect(outcomes.sort()).toEqual(["lost", "lost", "won"]);
    const written = JSON.parse(await readFile(target, "utf8")) as { pad: string };
    expect(written.pad).toHaveLength(200000);
    expect((await readdir(dir)).filter((name) => name.startsWith(".tmp"))).toEqual([]);
  }, 60_000);

  test("a crash mid-save leaves a torn temporary file: the run still loads, lists and takes the next save", async () => {
    const dir = await tempDir();
    const store = new FileRunStore(dir);
    await store.save(snapshot("torn", 1), null);
    // What a process killed while writing snapshot 2 leaves: half a temporary file, never linked.
    await writeFile(
      join(dir, "torn", ".tmp-99999-0123456789ab"),
      JSON.stringify(snapshot("torn", 2)).slice(0, 40),
    );
    expect((await store.load("torn"))?.seq).toBe(1);
    expect((await collect(store.list())).map((run) => run.runId)).toEqual(["torn"]);
    await store.save(snapshot("torn", 2, "completed"), 1);
    expect((await collect(store.history("torn"))).map((info) => [info.seq, info.status])).toEqual([
      [1, "interrupted"],
      [2, "completed"],
    ]);
    // A later save removes it once it is old enough that no write can still be using it.
    expect(await readdir(join(dir, "torn"))).toContain(".tmp-99999-0123456789ab");
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, "torn", ".tmp-99999-0123456789ab"), hourAgo, hourAgo);
    await store.save(snapshot("torn", 3, "completed"), 2);
    expect((await readdir(join(dir, "torn"))).filter((name) => name.startsWith(".tmp"))).toEqual([]);
  });

  test("a truncated snapshot file is a DeserializationError naming the file; older snapshots still load", async () => {
    const dir = await tempDir();
    const store = new FileRunStore(dir);
    await store.save(snapshot("cut", 1), null);
    await store.save(snapshot("cut", 2), 1);
    const file = join(dir, "cut", "0000000002.json");
    await truncate(file, 25);
    const error = await store.load("cut").then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DeserializationError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/invalid JSON.*Restore it from a backup or delete the run/);
    expect((await store.load("cut", 1))?.seq).toBe(1);
  });

  test("a process killed while saving snapshots never leaves a torn snapshot behind", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "killed"), { recursive: true });
    const module = join(import.meta.dirname, "..", "src", "durable", "file-run-store.ts");
    const base = snapshot("killed", 1, "running");
    const script = `
      import { FileRunStore } from ${JSON.stringify(module)};
      const store = new FileRunStore(${JSON.stringify(dir)}, { keep: 1000 });
      const base = ${JSON.stringify(base)};
      const pad = "x".repeat(4_000_000);
      for (let seq = 1; ; seq++) {
        await store.save({ ...base, seq, parent: seq === 1 ? null : seq - 1, inputs: { pad } }, seq === 1 ? null : seq - 1);
        console.log("saved " + seq);
      }
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        // Kill it in the middle of its next writes, without warning (SIGKILL: no cleanup runs).
        if (output.includes("saved 3")) setTimeout(resolve, 7);
      });
      child.on("exit", () => reject(new Error(`the writer exited early: ${errors}`)));
    });
    child.kill("SIGKILL");
    await exited;
    const store = new FileRunStore(dir);
    const head = await store.load("killed");
    if (head === undefined) throw new Error("the killed writer's run did not load");
    expect(head.seq).toBeGreaterThanOrEqual(3);
    expect((head.inputs as { pad: string }).pad).toHaveLength(4_000_000);
    const seqs = (await collect(store.history("killed"))).map((info) => info.seq);
    expect(seqs).toEqual(Array.from({ length: head.seq }, (_, index) => index + 1));
    await store.save(snapshot("killed", head.seq + 1, "completed"), head.seq);
    expect((await store.load("killed"))?.status).toBe("completed");
  }, 60_000);
});
