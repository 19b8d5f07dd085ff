import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Document } from "@junction/documents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgvectorDocumentStore } from "../src/index.js";
import { startChildWriter } from "./support/child-writer.js";
import { crashDocuments } from "./support/crash-batches.js";

const root = mkdtempSync(join(tmpdir(), "junction-pgvector-crash-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const writer = join(import.meta.dirname, "support", "pglite-writer.ts");

const open = (dataDir: string) =>
  new PgvectorDocumentStore({ dataDir, embeddingDimension: 3, searchStrategy: "hnsw" });

/** The batches the documents form, each checked whole: every field as written. */
function wholeBatches(documents: readonly Document[]): number[] {
  const { batches: found, problems } = crashDocuments.check(documents);
  expect(problems).toEqual([]);
  return found;
}

describe("PgvectorDocumentStore on an embedded data directory: a process killed with SIGKILL", () => {
  // One directory for the whole file: creating a PGlite database (initdb) takes seconds, opening one less.
  const dataDir = join(root, "db");
  beforeAll(async () => {
    const store = open(dataDir);
    await store.countDocuments();
    await store.close();
  }, 120_000);

  it("a second process opening the directory while the first is alive is refused, naming the holder", {
    timeout: 60_000,
  }, async () => {
    const holder = startChildWriter(writer, [dataDir, "0", "hold"], 0);
    const pid = await holder.ready();
    const refused = await open(dataDir)
      .countDocuments()
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "PGVECTOR_STORE_LOCKED" });
    expect(String((refused as Error).message)).toContain(`"${dataDir}" is in use by process ${pid} on host`);
    holder.child.kill("SIGKILL");
    await holder.closed;
    // Its lock stays behind: the next store on this host sees the process is dead and takes it over.
    const store = open(dataDir);
    expect(await store.countDocuments()).toBe(0);
    await store.close();
  });
  it("mid-write: the directory reopens (the dead writer's lock is taken over), holds only whole committed batches, and its table and indexes work", {
    timeout: 90_000,
  }, async () => {
    let batches = 0;
    for (let trial = 0; trial < 2; trial++) {
      const child = startChildWriter(writer, [dataDir, String(batches)], batches);
      await child.wrote(batches + 1);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
      child.child.kill("SIGKILL");
      const reported = await child.closed;

      const store = open(dataDir);
      try {
        const found = wholeBatches(await store.filterDocuments());
        // Every committed batch is there, and nothing of a batch whose transaction was cut.
        expect(found).toEqual(Array.from({ length: found.length }, (_, batch) => batch));
        expect(found.length).toBeGreaterThanOrEqual(reported + 1);
        expect(found.length).toBeLessThanOrEqual(reported + 2);
        batches = found.length;
        // The keyword (GIN) and HNSW indexes answer, and the table takes the next write.
        const keyword = await store.keywordRetrieval({ query: "batch 1 document 7", topK: 3 });
        expect(keyword).toHaveLength(3);
        const nearest = await store.embeddingRetrieval({ queryEmbedding: [2, 7, 1], topK: 1 });
        expect(nearest.map((document) => document.id)).toEqual(["b1-7"]);
        await store.writeDocuments(crashDocuments.documents(batches));
        expect(await store.countDocuments()).toBe((batches + 1) * crashDocuments.size);
        batches += 1;
      } finally {
        await store.close();
      }
    }
  });

  it("while taking the directory's lock: it leaves no lock file naming nobody, and the next store opens", {
    timeout: 60_000,
  }, async () => {
    const dying = startChildWriter(writer, [dataDir, "0", "die-in-lock"], 0);
    await dying.closed;
    expect(dying.child.signalCode).toBe("SIGKILL");
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    const store = open(dataDir);
    expect(await store.countDocuments()).toBeGreaterThanOrEqual(0);
    await store.close();
  });
});
