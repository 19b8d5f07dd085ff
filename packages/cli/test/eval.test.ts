import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Pipeline } from "@junction/core";
import { Document, InMemoryBM25Retriever, InMemoryDocumentStore } from "@junction/documents";
import { beforeAll, describe, expect, test } from "vitest";
import { junction } from "./support.js";

/** `junction eval` end to end: a BM25 pipeline document over a saved store, a JSONL dataset. */

const dir = mkdtempSync(join(tmpdir(), "junction-eval-cli-"));
const pipelineFile = join(dir, "bm25.json");
const datasetFile = join(dir, "questions.jsonl");

const passages = {
  p1: "Pipelines connect components through typed sockets.",
  p2: "An Agent runs a loop of model calls and tool calls until an exit condition.",
  p3: "Secrets are written as environment variable references, never as literal tokens.",
  p4: "The playground page is served by junction dev.",
};

beforeAll(async () => {
  const store = new InMemoryDocumentStore({ path: join(dir, "store.json") });
  await store.writeDocuments(Object.entries(passages).map(([id, content]) => new Document({ id, content })));
  await store.save();
  const pipeline = new Pipeline().addComponent(
    "retriever",
    new InMemoryBM25Retriever({ documentStore: store, topK: 2 }),
  );
  writeFileSync(pipelineFile, JSON.stringify(pipeline.toJSON()));
  const rows = [
    { question: "How do components connect in a pipeline?", ground_truth_documents: [{ id: "p1" }] },
    { question: "What does the Agent loop run until?", ground_truth_documents: [{ id: "p2" }] },
    { question: "How are secrets written?", ground_truth_documents: [{ id: "p3" }] },
    { question: "Which command serves the playground page?", ground_truth_documents: [{ id: "p4" }] },
  ];
  writeFileSync(datasetFile, `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
}, 30_000);

describe("junction eval", () => {
  test("prints the aggregated table and writes JSON, CSV and HTML reports", async () => {
    const out = join(dir, "run.json");
    const html = join(dir, "report.html");
    const csv = join(dir, "report.csv");
    const result = await junction([
      "eval",
      pipelineFile,
      "--dataset",
      datasetFile,
      "--metrics",
      "recall,mrr,ndcg,map",
      "--comparison-field",
      "id",
      "--out",
      out,
      "--html",
      html,
      "--csv",
      csv,
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^metric\s+score\n/);
    expect(result.stdout).toMatch(/recall\s+1\.000/);
    expect(result.stdout).toMatch(/mrr\s+1\.000/);
    const saved = JSON.parse(readFileSync(out, "utf8"));
    expect(saved.format).toBe("junction.evaluation-run");
    expect(saved.run_name).toBe("bm25");
    expect(saved.results.recall.individual_scores).toEqual([1, 1, 1, 1]);
    expect(readFileSync(csv, "utf8").split("\r\n")[0]).toBe("question,recall,mrr,ndcg,map");
    expect(readFileSync(html, "utf8")).toContain("<svg");
  }, 60_000);

  test("--min gates CI: exit 4 below the threshold; --compare shows the change", async () => {
    const previous = join(dir, "previous.json");
    // A saved run that was better on recall (2 rows perfect, 2 lost) to compare against.
    writeFileSync(
      previous,
      JSON.stringify({
        format: "junction.evaluation-run",
        version: 1,
        run_name: "old",
        inputs: { question: ["a", "b", "c", "d"] },
        results: { recall: { score: 0.5, individual_scores: [1, 1, 0, 0] } },
        errors: [],
      }),
    );
    const result = await junction([
      "eval",
      pipelineFile,
      "-d",
      datasetFile,
      "-m",
      "recall",
      "--comparison-field",
      "id",
      "--compare",
      previous,
      "--min",
      "recall=1.01",
    ]);
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(/recall\s+1\.000\s+0\.500\s+\+0\.500\s+2 better, 0 worse/);
    expect(result.stderr).toContain("recall 1.000 is below --min 1.01");

    const passing = await junction([
      "eval",
      pipelineFile,
      "-d",
      datasetFile,
      "-m",
      "recall",
      "--comparison-field",
      "id",
      "--min",
      "recall=0.9",
    ]);
    expect(passing.code).toBe(0);
  }, 60_000);

  test("usage errors: no dataset, unknown metric, a bad JSONL line named by number", async () => {
    const noDataset = await junction(["eval", pipelineFile]);
    expect(noDataset.code).toBe(2);
    expect(noDataset.stderr).toContain("--dataset");

    const unknown = await junction(["eval", pipelineFile, "-d", datasetFile, "-m", "bleu"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown metric "bleu"');

    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, '{"question": "ok", "ground_truth_documents": ["x"]}\nnot json\n');
    const badLine = await junction(["eval", pipelineFile, "-d", bad]);
    expect(badLine.code).toBe(1);
    expect(badLine.stderr).toContain("bad.jsonl:2: not valid JSON");
  }, 60_000);

  test("--help documents the dataset fields and the gate", async () => {
    const help = await junction(["eval", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("ground_truth_documents");
    expect(help.stdout).toContain("--min metric=value");
  }, 30_000);
});
