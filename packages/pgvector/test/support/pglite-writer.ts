/**
 * The process crash.test.ts starts and kills: a `PgvectorDocumentStore` on an embedded PGlite data
 * directory that prints `ready <pid>` once the store is open, then writes batches of documents in a
 * loop, one transaction each, printing `wrote <batch>` once each is committed.
 *   pglite-writer.ts <dataDir> <firstBatch> [hold | die-in-lock]
 * With `hold`, it writes nothing and stays alive holding the directory until killed. With `die-in-lock`,
 * it kills itself with SIGKILL while taking the directory's lock (its holder written, not yet linked).
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { crashDocuments } from "./crash-batches.js";

const [dataDir = "", first = "0", mode = ""] = process.argv.slice(2);

if (mode === "die-in-lock") {
  fs.linkSync = () => {
    process.kill(process.pid, "SIGKILL");
  };
  syncBuiltinESMExports();
}

const { PgvectorDocumentStore } = await import("../../src/index.js");
const store = new PgvectorDocumentStore({ dataDir, embeddingDimension: 3, searchStrategy: "hnsw" });
await store.countDocuments();
process.stdout.write(`ready ${process.pid}\n`);
if (mode === "hold") setInterval(() => {}, 60_000);
else
  for (let batch = Number(first); ; batch++) {
    await store.writeDocuments(crashDocuments.documents(batch));
    process.stdout.write(`wrote ${batch}\n`);
  }
