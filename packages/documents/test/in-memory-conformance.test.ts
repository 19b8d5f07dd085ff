import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consoleLogger, setDefaultLogger, silentLogger } from "@junction/core";
import { afterAll, afterEach, beforeEach } from "vitest";
import { InMemoryDocumentStore } from "../src/index.js";
import { describeDocumentStore } from "../src/testing/index.js";

// The store warns (through the default logger) about documents a "skip" write leaves out, as Haystack's
// does; the contract's skip cases expect that, so the warnings are silenced here.
beforeEach(() => setDefaultLogger(silentLogger));
afterEach(() => setDefaultLogger(consoleLogger));

describeDocumentStore("InMemoryDocumentStore", () => new InMemoryDocumentStore());

// The same contract when every write and delete is saved to a file.
const directory = mkdtempSync(join(tmpdir(), "junction-in-memory-conformance-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;
describeDocumentStore(
  "InMemoryDocumentStore with a path",
  () => new InMemoryDocumentStore({ path: join(directory, `store-${++files}.json`) }),
);
