import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pipeline } from "@junction/core";
import { Document, InMemoryBM25Retriever, InMemoryDocumentStore } from "@junction/documents";
import { beforeAll, describe, expect, test } from "vitest";
import { junction } from "./support.js";

/**
 * `junction eval` compares documents by content by default: labels that carry only an id or meta would
 * score 0 on every question, so the command stops and names the field to compare by.
 */

const dir = mkdtempSync(join(tmpdir(), "junction-eval-labels-"));
const pipelineFile = join(dir, "bm25.json");

beforeAll(async () => {
  const store = new InMemoryDocumentStore({ path: join(dir, "store.json") });
  await store.writeDocuments([
    new Document({ content: "Lake Baikal is the deepest lake.", meta: { file_path: "lakes.md" } }),
    new Document({ content: "The Nile is about 6,650 km long.", meta: { file_path: "rivers.txt" } }),
  ]);
  const pipeline = new Pipeline().addComponent(
    "retriever",
    new InMemoryBM25Retriever({ documentStore: store, topK: 1 }),
  );
  writeFileSync(pipelineFile, JSON.stringify(pipeline.toJSON()));
}, 30_000);

function dataset(name: string, labels: unknown[]): string {
  const file = join(dir, name);
  const questions = ["Which lake is the deepest?", "How long is the Nile?"];
  writeFileSync(
    file,
    `${questions.map((question, index) => JSON.stringify({ question, ground_truth_documents: [labels[index]] })).join("\n")}\n`,
  );
  return file;
}

describe("junction eval without --comparison-field", () => {
  test("meta-only labels: exit 2 naming --comparison-field meta.<key>; with it, the scores", {
    timeout: 60_000,
  }, async () => {
    const file = dataset("meta.jsonl", [
      { meta: { file_path: "lakes.md" } },
      { meta: { file_path: "rivers.txt" } },
    ]);
    const refused = await junction(["eval", pipelineFile, "-d", file, "-q"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("every question would score 0");
    expect(refused.stderr).toContain("--comparison-field meta.file_path");
    expect(refused.stdout).toBe("");

    const scored = await junction([
      "eval",
      pipelineFile,
      "-d",
      file,
      "-q",
      "--comparison-field",
      "meta.file_path",
    ]);
    expect(scored.code).toBe(0);
    expect(scored.stdout).toMatch(/recall\s+1\.000/);
  });

  test("id-only labels name --comparison-field id; content labels run as before", {
    timeout: 60_000,
  }, async () => {
    const ids = dataset("ids.jsonl", [{ id: "a" }, { id: "b" }]);
    const refused = await junction(["eval", pipelineFile, "-d", ids, "-q"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--comparison-field id.");

    const texts = dataset("texts.jsonl", [
      "Lake Baikal is the deepest lake.",
      "The Nile is about 6,650 km long.",
    ]);
    const scored = await junction(["eval", pipelineFile, "-d", texts, "-q"]);
    expect(scored.code).toBe(0);
    expect(scored.stdout).toMatch(/recall\s+1\.000/);
  });
});
