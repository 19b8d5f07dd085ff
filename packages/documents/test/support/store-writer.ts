/**
 * The process in-memory-crash.test.ts starts and kills: an `InMemoryDocumentStore` with `path` that
 * writes batches of documents in a loop and prints `wrote <batch>` once each batch is saved.
 *   store-writer.ts <path> <firstBatch> [die-in-rename]
 * With `die-in-rename`, the process kills itself with SIGKILL inside its first save's rename: after the
 * temporary file is written and fsynced, before it replaces the store file.
 */
import { promises as fs } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { crashDocuments } from "./crash-batches.js";

const [path = "", first = "0", mode = ""] = process.argv.slice(2);

if (mode === "die-in-rename") {
  fs.rename = async () => {
    process.kill(process.pid, "SIGKILL");
    await new Promise(() => {});
  };
  syncBuiltinESMExports();
}

const { InMemoryDocumentStore } = await import("../../src/index.js");
const store = new InMemoryDocumentStore({ path });
for (let batch = Number(first); ; batch++) {
  await store.writeDocuments(crashDocuments.documents(batch));
  process.stdout.write(`wrote ${batch}\n`);
}
