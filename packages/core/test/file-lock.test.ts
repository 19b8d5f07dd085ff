import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { JunctionError, withFileLock } from "@junction/core";
import { afterEach, beforeEach, expect, test } from "vitest";

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "junction-lock-"));
  lock = join(dir, ".append.lock");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process of this host that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

const fast = { timeoutMs: 300 };

test("the lock file names its holder, and is gone after the work", async () => {
  const seen = await withFileLock(lock, async () => readFile(lock, "utf8"));
  expect(seen).toMatch(
    new RegExp(`^${process.pid} \\d+ ${hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
  );
  await expect(readFile(lock, "utf8")).rejects.toThrow(/ENOENT/);
});

test("a lock left by a process of this host that died is taken over at once", async () => {
  await writeFile(lock, `${deadPid()} ${Date.now()} ${hostname()}`);
  await expect(withFileLock(lock, async () => "ran", fast)).resolves.toBe("ran");
});

test("a lock held by a live process is waited for, then refused with FILE_LOCK_TIMEOUT naming it", async () => {
  await writeFile(lock, `${process.ppid} ${Date.now()} ${hostname()}`);
  const error = await withFileLock(lock, async () => "ran", fast).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(JunctionError);
  expect((error as JunctionError).code).toBe("FILE_LOCK_TIMEOUT");
  expect((error as Error).message).toMatch(new RegExp(`held by pid ${process.ppid}.*staleMs`));
  expect(await readFile(lock, "utf8")).toMatch(new RegExp(`^${process.ppid} `));
});

test("another host's lock is not judged by pid: it waits for staleMs", async () => {
  await writeFile(lock, `${deadPid()} ${Date.now()} another-host.example`);
  await expect(withFileLock(lock, async () => "ran", fast)).rejects.toThrow(/could not lock/);
  const old = new Date(Date.now() - 60_000);
  await utimes(lock, old, old);
  await expect(withFileLock(lock, async () => "ran", fast)).resolves.toBe("ran");
});

test("an empty lock (its writer died between creating and filling it) is taken over once a few seconds old", async () => {
  await writeFile(lock, "");
  await expect(withFileLock(lock, async () => "ran", fast)).rejects.toThrow(/names no holder/);
  const old = new Date(Date.now() - 6_000);
  await utimes(lock, old, old);
  await expect(withFileLock(lock, async () => "ran", fast)).resolves.toBe("ran");
});
