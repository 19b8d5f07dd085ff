import { defineComponent } from "@junction/core";
import { AnswerExactMatchEvaluator, EvaluationInputError, SASEvaluator } from "@junction/evaluation";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/** A test-only text embedder: a fixed vector per known text, counting its calls. */
const vectors: Record<string, number[]> = {
  Berlin: [1, 0, 0],
  "The capital is Berlin.": [0.8, 0.6, 0],
  Paris: [0, 1, 0],
  Lyon: [0, 0, 1],
  zero: [0, 0, 0],
};
let calls = 0;
const TableEmbedder = defineComponent({
  type: "test.TableEmbedder",
  inputs: { text: z.string() },
  outputs: { embedding: z.array(z.number()), meta: z.record(z.string(), z.unknown()) },
  run: ({ text }) => {
    calls += 1;
    const embedding = vectors[text];
    if (embedding === undefined) throw new Error(`no vector for ${text}`);
    return { embedding, meta: {} };
  },
});

describe("AnswerExactMatchEvaluator", () => {
  test("1 per exact match, 0 otherwise (no normalization); score is the share", async () => {
    const result = await new AnswerExactMatchEvaluator().run({
      ground_truth_answers: ["Berlin", "Paris", "Rome"],
      predicted_answers: ["Berlin", "Lyon", "rome"],
    });
    expect(result.individual_scores).toEqual([1, 0, 0]);
    expect(result.score).toBeCloseTo(1 / 3, 12);
  });

  test("different lengths and no rows are errors", async () => {
    const evaluator = new AnswerExactMatchEvaluator();
    await expect(evaluator.run({ ground_truth_answers: ["a"], predicted_answers: [] })).rejects.toThrow(
      /"ground_truth_answers" has 1 rows but "predicted_answers" has 0/,
    );
    await expect(evaluator.run({ ground_truth_answers: [], predicted_answers: [] })).rejects.toBeInstanceOf(
      EvaluationInputError,
    );
  });
});

describe("SASEvaluator", () => {
  test("cosine similarity of each pair's embeddings; each distinct text embedded once", async () => {
    calls = 0;
    const sas = new SASEvaluator({ embedder: new TableEmbedder() });
    const result = await sas.run({
      ground_truth_answers: ["Berlin", "Paris", "Berlin"],
      predicted_answers: ["The capital is Berlin.", "Lyon", "Berlin"],
    });
    expect(result.individual_scores?.[0]).toBeCloseTo(0.8, 12);
    expect(result.individual_scores?.[1]).toBe(0);
    expect(result.individual_scores?.[2]).toBeCloseTo(1, 12);
    expect(result.score).toBeCloseTo(0.6, 12);
    expect(calls).toBe(4);
  });

  test("a zero vector scores 0 rather than NaN", async () => {
    const result = await new SASEvaluator({ embedder: new TableEmbedder() }).run({
      ground_truth_answers: ["zero"],
      predicted_answers: ["Berlin"],
    });
    expect(result.individual_scores).toEqual([0]);
  });

  test("the embedder option must be a text embedder component", () => {
    expect(() => new SASEvaluator({ embedder: {} as never })).toThrow(/text embedder component/);
  });
});
