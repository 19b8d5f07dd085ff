import { Document } from "@junction/documents";
import {
  DocumentMAPEvaluator,
  DocumentMRREvaluator,
  DocumentNDCGEvaluator,
  DocumentRecallEvaluator,
  EvaluationInputError,
} from "@junction/evaluation";
import { describe, expect, test } from "vitest";

const docs = (...contents: string[]) => contents.map((content) => new Document({ content }));
const graded = (...pairs: [string, number][]) =>
  pairs.map(([content, score]) => new Document({ content, score }));

// Haystack's docstring example: France retrieved first; "9th century" first, "9th" third.
const truth = [docs("France"), docs("9th century", "9th")];
const retrieved = [docs("France"), docs("9th century", "10th century", "9th")];

describe("DocumentMRREvaluator", () => {
  test("1/rank of the first relevant document, averaged", async () => {
    const result = await new DocumentMRREvaluator().run({
      ground_truth_documents: [docs("a"), docs("b"), docs("c")],
      retrieved_documents: [docs("a", "x"), docs("x", "y", "b"), docs("x", "y")],
    });
    expect(result.individual_scores).toEqual([1, 1 / 3, 0]);
    expect(result.score).toBeCloseTo((1 + 1 / 3) / 3, 12);
  });

  test("an empty retrieval scores 0; a duplicate retrieval does not move the first hit", async () => {
    const result = await new DocumentMRREvaluator().run({
      ground_truth_documents: [docs("a"), docs("a")],
      retrieved_documents: [[], docs("x", "a", "a")],
    });
    expect(result.individual_scores).toEqual([0, 0.5]);
  });

  test("compares by id or by a nested meta key", async () => {
    const a = new Document({ content: "one text", meta: { source: { url: "u1" } } });
    const b = new Document({ content: "another text", meta: { source: { url: "u1" } } });
    const byMeta = await new DocumentMRREvaluator({ documentComparisonField: "meta.source.url" }).run({
      ground_truth_documents: [[a]],
      retrieved_documents: [[new Document({ content: "z" }), b]],
    });
    expect(byMeta.individual_scores).toEqual([0.5]);
    const byId = await new DocumentMRREvaluator({ documentComparisonField: "id" }).run({
      ground_truth_documents: [[new Document({ id: "p1", content: "x" })]],
      retrieved_documents: [[new Document({ id: "p1", content: "different text" })]],
    });
    expect(byId.individual_scores).toEqual([1]);
  });

  test("an unknown comparison field is refused when the evaluator is made", () => {
    expect(() => new DocumentMRREvaluator({ documentComparisonField: "title" as never })).toThrow(
      /"content", "id" or "meta.<key>"/,
    );
  });
});

describe("DocumentRecallEvaluator", () => {
  test("single_hit: 1 when any relevant document is retrieved (Haystack's example)", async () => {
    const result = await new DocumentRecallEvaluator().run({
      ground_truth_documents: truth,
      retrieved_documents: retrieved,
    });
    expect(result.individual_scores).toEqual([1, 1]);
    expect(result.score).toBe(1);
  });

  test("multi_hit: share of distinct ground truth values retrieved; duplicates count once", async () => {
    const result = await new DocumentRecallEvaluator({ mode: "multi_hit" }).run({
      ground_truth_documents: [docs("a", "b", "b", "c"), docs("a", "b")],
      retrieved_documents: [docs("b", "b", "x"), docs("a", "a")],
    });
    expect(result.individual_scores).toEqual([1 / 3, 0.5]);
  });

  test("an empty retrieval scores 0 in both modes", async () => {
    for (const mode of ["single_hit", "multi_hit"] as const) {
      const result = await new DocumentRecallEvaluator({ mode }).run({
        ground_truth_documents: [docs("a")],
        retrieved_documents: [[]],
      });
      expect(result.individual_scores).toEqual([0]);
    }
  });
});

describe("DocumentMAPEvaluator", () => {
  test("Haystack's example: [1, (1/1 + 2/3) / 2]", async () => {
    const result = await new DocumentMAPEvaluator().run({
      ground_truth_documents: truth,
      retrieved_documents: retrieved,
    });
    expect(result.individual_scores?.[0]).toBe(1);
    expect(result.individual_scores?.[1]).toBeCloseTo((1 + 2 / 3) / 2, 12);
  });

  test("a relevant value retrieved twice is credited once; empty retrieval scores 0", async () => {
    const result = await new DocumentMAPEvaluator().run({
      ground_truth_documents: [docs("a", "b"), docs("a")],
      retrieved_documents: [docs("a", "a", "b"), []],
    });
    // a at rank 1 (1/1), the second a is not credited, b at rank 3 (2/3).
    expect(result.individual_scores?.[0]).toBeCloseTo((1 + 2 / 3) / 2, 12);
    expect(result.individual_scores?.[1]).toBe(0);
  });
});

describe("DocumentNDCGEvaluator", () => {
  test("binary relevance: relevant at ranks 1 and 3 of two", async () => {
    const result = await new DocumentNDCGEvaluator().run({
      ground_truth_documents: [docs("a", "b")],
      retrieved_documents: [docs("a", "x", "b")],
    });
    const dcg = 1 / Math.log2(2) + 1 / Math.log2(4);
    const idcg = 1 / Math.log2(2) + 1 / Math.log2(3);
    expect(result.individual_scores?.[0]).toBeCloseTo(dcg / idcg, 12);
  });

  test("graded relevance from score (Haystack's example: France 1, Paris 0.5)", async () => {
    const result = await new DocumentNDCGEvaluator().run({
      ground_truth_documents: [graded(["France", 1], ["Paris", 0.5])],
      retrieved_documents: [docs("France", "Germany", "Paris")],
    });
    const dcg = 1 / Math.log2(2) + 0.5 / Math.log2(4);
    const idcg = 1 / Math.log2(2) + 0.5 / Math.log2(3);
    expect(result.individual_scores?.[0]).toBeCloseTo(dcg / idcg, 12);
  });

  test("a perfect ranking scores 1 even with duplicate ground truth (highest relevance kept)", async () => {
    const result = await new DocumentNDCGEvaluator().run({
      ground_truth_documents: [graded(["a", 0.2], ["a", 3], ["b", 1])],
      retrieved_documents: [docs("a", "b", "a")],
    });
    expect(result.individual_scores?.[0]).toBeCloseTo(1, 12);
  });

  test("ties: two equally relevant documents in either order score the same", async () => {
    const evaluator = new DocumentNDCGEvaluator();
    const first = await evaluator.run({
      ground_truth_documents: [graded(["a", 2], ["b", 2])],
      retrieved_documents: [docs("a", "x", "b")],
    });
    const second = await evaluator.run({
      ground_truth_documents: [graded(["a", 2], ["b", 2])],
      retrieved_documents: [docs("b", "x", "a")],
    });
    expect(first.individual_scores?.[0]).toBeCloseTo(second.individual_scores?.[0] as number, 12);
    expect(first.individual_scores?.[0]).toBeLessThan(1);
  });

  test("an empty retrieval scores 0; mixed scored and unscored ground truth is an error naming the row", async () => {
    const evaluator = new DocumentNDCGEvaluator();
    const result = await evaluator.run({ ground_truth_documents: [docs("a")], retrieved_documents: [[]] });
    expect(result.individual_scores).toEqual([0]);
    const error = await evaluator
      .run({
        ground_truth_documents: [docs("a"), [new Document({ content: "a", score: 1 }), ...docs("b")]],
        retrieved_documents: [[], []],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EvaluationInputError);
    expect((error as EvaluationInputError).rowIndex).toBe(1);
    expect((error as Error).message).toContain('"ground_truth_documents"[1] mixes documents');
  });
});

describe("bad input (every document evaluator)", () => {
  const evaluators = [
    new DocumentMRREvaluator(),
    new DocumentRecallEvaluator(),
    new DocumentMAPEvaluator(),
    new DocumentNDCGEvaluator(),
  ];

  test.each(evaluators.map((evaluator) => [evaluator.type, evaluator] as const))(
    "%s: lists of different lengths and no rows are errors naming the sockets",
    async (_type, evaluator) => {
      const lengths = await evaluator
        .run({ ground_truth_documents: [docs("a"), docs("b")], retrieved_documents: [docs("a")] })
        .catch((caught: unknown) => caught);
      expect(lengths).toBeInstanceOf(EvaluationInputError);
      expect((lengths as Error).message).toMatch(
        /"ground_truth_documents" has 2 rows but "retrieved_documents" has 1/,
      );

      const none = await evaluator
        .run({ ground_truth_documents: [], retrieved_documents: [] })
        .catch((caught: unknown) => caught);
      expect((none as Error).message).toMatch(/the inputs are empty/);
    },
  );

  test("a row that is not a list of Documents is refused with its socket and index", async () => {
    const error = await new DocumentMRREvaluator()
      .run({
        ground_truth_documents: [docs("a"), [{ content: "b" } as never]],
        retrieved_documents: [[], []],
      })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/ground_truth_documents/);
    expect((error as Error).message).toMatch(/1/);
  });
});
