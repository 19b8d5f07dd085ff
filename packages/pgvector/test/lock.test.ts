import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Document } from "@junction/documents";
import { afterAll, expect, it, vi } from "vitest";
import { type LockHolder, takeOverStaleLock } from "../src/driver/data-dir-lock.js";
import { PgvectorDocumentStore } from "../src/index.js";

vi.setConfig({ testTimeout: 180_000 });

const root = mkdtempSync(join(tmpdir(), "junction-pgvector-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("persists in dataDir, and a second store on the same directory gets an error naming the holder", async () => {
  const dataDir = join(root, "db");
  const first = new PgvectorDocumentStore({ dataDir, embeddingDimension: 3 });
  await first.writeDocuments([new Document({ content: "kept", embedding: [1, 2, 3] })]);
  const holder = JSON.parse(readFileSync(`${dataDir}.lock`, "utf8")) as { pid: number; host: string };
  expect(holder).toMatchObject({ pid: process.pid, host: hostname() });

  const second = new PgvectorDocumentStore({ dataDir, embeddingDimension: 3 });
  const error = await second.countDocuments().catch((caught: unknown) => caught);
  expect(error).toMatchObject({ code: "PGVECTOR_STORE_LOCKED" });
  expect(String((error as Error).message)).toContain(`process ${process.pid} on host "${hostname()}"`);

  await first.close();
  const reopened = new PgvectorDocumentStore({ dataDir, embeddingDimension: 3 });
  expect((await reopened.filterDocuments()).map((d) => [d.content, d.embedding])).toEqual([
    ["kept", [1, 2, 3]],
  ]);
  await reopened.close();
});

it("takes over a lock left by a dead process on this host, but not one held on another host", async () => {
  const dataDir = join(root, "stale");
  writeFileSync(
    `${dataDir}.lock`,
    JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), since: "yesterday" }),
  );
  const store = new PgvectorDocumentStore({ dataDir, embeddingDimension: 3 });
  expect(await store.countDocuments()).toBe(0);
  await store.close();

  const remote = join(root, "remote");
  writeFileSync(`${remote}.lock`, JSON.stringify({ pid: 1, host: "other-machine", since: "now" }));
  const error = await new PgvectorDocumentStore({ dataDir: remote })
    .countDocuments()
    .catch((caught: unknown) => caught);
  expect(String((error as Error).message)).toContain('process 1 on host "other-machine"');
});

it("of several processes taking over one stale lock at the same moment, exactly one gets the directory", async () => {
  const racer = join(import.meta.dirname, "support", "lock-racer.ts");
  const run = promisify(execFile);
  for (let round = 0; round < 1; round++) {
    const dataDir = join(root, `race-${round}`);
    writeFileSync(
      `${dataDir}.lock`,
      JSON.stringify({ pid: 2 ** 22 + 54321, host: hostname(), since: "before the crash" }),
    );
    // Node and tsx take a second or more to start on a loaded machine: start together later.
    const startAt = Date.now() + 4_000;
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, [
          "--import",
          "tsx",
          "--conditions=@junction/source",
          racer,
          dataDir,
          String(startAt),
          "3000",
        ]).then((result) => result.stdout.trim()),
      ),
    );
    expect(outcomes.sort()).toEqual([
      "locked PGVECTOR_STORE_LOCKED",
      "locked PGVECTOR_STORE_LOCKED",
      "locked PGVECTOR_STORE_LOCKED",
      "won",
    ]);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    expect(readdirSync(root).filter((name) => name.startsWith(`race-${round}.lock.`))).toEqual([]);
  }
});

it("taking over a stale lock that another process has just taken over leaves that process's lock in place", () => {
  const path = join(root, "overtaken.lock");
  const dead: LockHolder = { pid: 2 ** 22 + 999, host: hostname(), since: "before the crash" };
  writeFileSync(path, JSON.stringify(dead));
  // Both processes read the dead holder; the other one removes it and locks first…
  rmSync(path);
  const other = { pid: process.pid, host: hostname(), since: "just now" };
  writeFileSync(path, JSON.stringify(other));
  // …then this one takes over what it believes is still the dead holder's lock.
  takeOverStaleLock(path, dead);
  expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(other);
  expect(readdirSync(root).filter((name) => name.startsWith("overtaken.lock."))).toEqual([]);
  // The dead holder's lock itself is removed.
  writeFileSync(path, JSON.stringify(dead));
  takeOverStaleLock(path, dead);
  expect(existsSync(path)).toBe(false);
});
