import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { Document } from "@junction/documents";
import { afterAll, expect, it, vi } from "vitest";
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
