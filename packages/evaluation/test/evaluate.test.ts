import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineComponent, getDefaultLogger, MemoryLogger, Pipeline, setDefaultLogger } from "@junction/core";
import { Document } from "@junction/documents";
import {
  AnswerExactMatchEvaluator,
  DatasetError,
  DocumentMRREvaluator,
  DocumentRecallEvaluator,
  type EvaluationProgress,
  evaluate,
} from "@junction/evaluation";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const corpus: Record<string, string[]> = {
  "capital of France": ["Paris is the capital of France.", "Lyon is in France."],
  "capital of Germany": ["Munich is in Bavaria.", "Berlin is the capital of Germany."],
  "largest ocean": ["The Atlantic is big."],
};

const documentList = z.array(z.instanceof(Document));
let running = 0;
let maxRunning = 0;

/** A test retriever: looks the query up, waits a little, fails on "boom". */
const TableRetriever = defineComponent({
  type: "test.TableRetriever",
  params: z.object({ delayMs: z.number().default(5) }),
  inputs: { query: z.string() },
  outputs: { documents: documentList },
  run: async ({ query }, { params, signal }) => {
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, params.delayMs);
        signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
      if (query === "boom") throw new Error("the index is on fire");
      return { documents: (corpus[query] ?? []).map((content) => new Document({ content })) };
    } finally {
      running -= 1;
    }
  },
});

/** Answers with the first document's first word. */
const FirstWord = defineComponent({
  type: "test.FirstWord",
  inputs: { documents: documentList },
  outputs: { answer: z.string() },
  run: ({ documents }) => ({ answer: documents[0]?.content?.split(" ")[0] ?? "" }),
});

function ragPipeline(delayMs = 5) {
  return new Pipeline()
    .addComponent("retriever", new TableRetriever({ delayMs }))
    .addComponent("reader", new FirstWord())
    .connect("retriever.documents", "reader.documents");
}

const rows = [
  {
    id: "q1",
    question: "capital of France",
    ground_truth_documents: ["Paris is the capital of France."],
    answer: "Paris",
  },
  {
    id: "q2",
    question: "capital of Germany",
    ground_truth_documents: [{ content: "Berlin is the capital of Germany." }],
    answer: "Berlin",
  },
  { id: "q3", question: "boom", ground_truth_documents: ["x"], answer: "x" },
  {
    id: "q4",
    question: "largest ocean",
    ground_truth_documents: ["The Pacific is the largest ocean."],
    answer: "Pacific",
  },
];

const evaluators = {
  recall: {
    evaluator: new DocumentRecallEvaluator(),
    inputs: {
      ground_truth_documents: "row.ground_truth_documents",
      retrieved_documents: "retriever.documents",
    },
  },
  mrr: {
    evaluator: new DocumentMRREvaluator(),
    inputs: {
      ground_truth_documents: "row.ground_truth_documents",
      retrieved_documents: "retriever.documents",
    },
  },
  exact_match: {
    evaluator: new AnswerExactMatchEvaluator(),
    inputs: { ground_truth_answers: "row.answer", predicted_answers: "reader.answer" },
  },
};

describe("evaluate()", () => {
  test("scores every metric per row; a failing row is recorded, scored NaN, and the run goes on", async () => {
    const progress: EvaluationProgress[] = [];
    const result = await evaluate(ragPipeline(), rows, {
      inputs: { "retriever.query": "question" },
      evaluators,
      concurrency: 2,
      runName: "bm25",
      onProgress: (event) => progress.push(event),
    });
    expect(result.results.recall?.individual_scores).toEqual([1, 1, Number.NaN, 0]);
    expect(result.results.mrr?.individual_scores).toEqual([1, 0.5, Number.NaN, 0]);
    expect(result.results.exact_match?.individual_scores).toEqual([1, 0, Number.NaN, 0]);
    expect(result.aggregatedReport()).toEqual({
      metrics: ["recall", "mrr", "exact_match"],
      score: [2 / 3, 0.5, 1 / 3],
    });
    expect(result.errors).toEqual([
      { rowIndex: 2, stage: "pipeline", message: expect.stringContaining("the index is on fire") },
    ]);
    expect(result.inputs).toEqual({
      id: ["q1", "q2", "q3", "q4"],
      question: rows.map((row) => row.question),
      answer: rows.map((row) => row.answer),
    });
    const rowEvents = progress.filter((event) => event.type === "row");
    expect(rowEvents.map((event) => event.done)).toEqual([1, 2, 3, 4]);
    expect(rowEvents.find((event) => event.rowIndex === 2)?.error).toContain("on fire");
    expect(progress.filter((event) => event.type === "metric").map((event) => event.metric)).toEqual([
      "recall",
      "mrr",
      "exact_match",
    ]);
  });

  test("concurrency bounds the rows running at once", async () => {
    const many = Array.from({ length: 12 }, (_, index) => ({ ...rows[index % 2], id: `r${index}` }));
    for (const concurrency of [1, 3]) {
      maxRunning = 0;
      const result = await evaluate(ragPipeline(10), many, {
        inputs: { "retriever.query": "question" },
        evaluators: { recall: evaluators.recall },
        concurrency,
      });
      expect(maxRunning).toBe(concurrency);
      expect(result.results.recall?.score).toBe(1);
    }
  });

  test("aborting the signal stops the run: evaluate rejects and no row keeps running", async () => {
    const controller = new AbortController();
    const many = Array.from({ length: 20 }, (_, index) => ({ ...rows[0], id: `r${index}` }));
    let finished = 0;
    const promise = evaluate(ragPipeline(50), many, {
      inputs: { "retriever.query": "question" },
      evaluators: { recall: evaluators.recall },
      concurrency: 2,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === "row") finished = event.done;
      },
    });
    setTimeout(() => controller.abort(new Error("stop now")), 70);
    await expect(promise).rejects.toThrow("stop now");
    expect(running).toBe(0);
    expect(finished).toBeLessThan(20);
  });

  test("a row field missing for a metric is recorded for that row only", async () => {
    const partial = [rows[0], { id: "q2", question: "capital of Germany" }];
    const result = await evaluate(ragPipeline(), partial as never, {
      inputs: { "retriever.query": "question" },
      evaluators: { recall: evaluators.recall },
    });
    expect(result.results.recall?.individual_scores).toEqual([1, Number.NaN]);
    expect(result.errors[0]).toMatchObject({ rowIndex: 1, stage: "recall" });
    expect(result.errors[0]?.message).toContain('"row.ground_truth_documents"');
  });

  test("an empty ground truth list scores 0 for that row (as in Haystack), with a warning", async () => {
    const previous = getDefaultLogger();
    const logger = new MemoryLogger();
    setDefaultLogger(logger);
    try {
      const partial = [rows[0] as (typeof rows)[0], { ...rows[1], ground_truth_documents: [] }];
      const result = await evaluate(ragPipeline(), partial, {
        inputs: (row) => ({ retriever: { query: row.question } }),
        evaluators: { mrr: evaluators.mrr },
      });
      expect(result.results.mrr?.individual_scores).toEqual([1, 0]);
      expect(result.errors).toEqual([]);
      expect(logger.messages("warn").join("\n")).toMatch(/have no ground truth document/);
    } finally {
      setDefaultLogger(previous);
    }
  });

  test("reads a JSONL file; a bad line is an error naming the line number", async () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-eval-"));
    const good = join(dir, "good.jsonl");
    writeFileSync(
      good,
      `${rows
        .slice(0, 2)
        .map((row) => JSON.stringify(row))
        .join("\n")}\n\n`,
    );
    const result = await evaluate(ragPipeline(), good, {
      inputs: { "retriever.query": "question" },
      evaluators: { recall: evaluators.recall },
    });
    expect(result.results.recall?.individual_scores).toEqual([1, 1]);

    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${JSON.stringify(rows[0])}\n{"question": "capital of\n`);
    const error = await evaluate(ragPipeline(), bad, {
      inputs: { "retriever.query": "question" },
      evaluators: { recall: evaluators.recall },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).line).toBe(2);
    expect((error as Error).message).toContain("bad.jsonl:2: not valid JSON");
  });

  test("a source naming no component of the pipeline is refused before any row runs", async () => {
    running = 0;
    maxRunning = 0;
    const error = await evaluate(ragPipeline(), rows, {
      inputs: { "retriever.query": "question" },
      evaluators: {
        recall: {
          evaluator: new DocumentRecallEvaluator(),
          inputs: {
            ground_truth_documents: "ground_truth_documents",
            retrieved_documents: "retriever.documents",
          },
        },
      },
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(
      'the metric "recall" reads "ground_truth_documents" from "ground_truth_documents", but the pipeline has no component "ground_truth_documents"',
    );
    expect(maxRunning).toBe(0);
  });
});
