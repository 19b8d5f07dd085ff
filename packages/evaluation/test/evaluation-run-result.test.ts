import { EvaluationInputError, EvaluationRunResult } from "@junction/evaluation";
import { describe, expect, test } from "vitest";

const questions = ["What is BM25?", 'Say "hi", <b>bold</b>', "Third"];

function run(name: string, recall: number[], mrr: number[]) {
  return new EvaluationRunResult({
    runName: name,
    inputs: { question: questions, id: ["a", "b", "c"] },
    results: {
      recall: {
        score: recall.filter((x) => !Number.isNaN(x)).reduce((a, b) => a + b, 0) / 2,
        individual_scores: recall,
      },
      mrr: { score: 0.5, individual_scores: mrr },
    },
    errors: [{ rowIndex: 2, stage: "pipeline", message: "boom <script>" }],
  });
}

const bm25 = run("bm25", [1, 0, Number.NaN], [1, 0.5, 0]);
const hybrid = run("hybrid", [1, 1, 0], [0.5, 1, 0]);

describe("EvaluationRunResult", () => {
  test("aggregated and detailed reports in Haystack's shapes", () => {
    expect(bm25.aggregatedReport()).toEqual({ metrics: ["recall", "mrr"], score: [0.5, 0.5] });
    expect(bm25.detailedReport()).toEqual({
      question: questions,
      id: ["a", "b", "c"],
      recall: [1, 0, Number.NaN],
      mrr: [1, 0.5, 0],
    });
  });

  test("comparativeDetailedReport: inputs once, metric columns prefixed by run name (Haystack's names)", () => {
    const report = bm25.comparativeDetailedReport(hybrid);
    expect(Object.keys(report)).toEqual([
      "question",
      "id",
      "bm25_recall",
      "bm25_mrr",
      "hybrid_recall",
      "hybrid_mrr",
    ]);
    const kept = bm25.comparativeDetailedReport(hybrid, { keepColumns: ["id"] });
    expect(Object.keys(kept)).toEqual([
      "question",
      "bm25_id",
      "bm25_recall",
      "bm25_mrr",
      "hybrid_id",
      "hybrid_recall",
      "hybrid_mrr",
    ]);
  });

  test("comparativeReport: per metric which rows got better or worse, and the rows that changed", () => {
    const report = hybrid.comparativeReport(bm25);
    expect(report.runs).toEqual(["hybrid", "bm25"]);
    const recall = report.metrics.find((metric) => metric.metric === "recall");
    expect(recall).toMatchObject({ better: [1, 2], worse: [], unchanged: 1 });
    const mrr = report.metrics.find((metric) => metric.metric === "mrr");
    expect(mrr).toMatchObject({ better: [1], worse: [0], unchanged: 1 });
    expect(report.rows.map((row) => row.rowIndex)).toEqual([0, 1, 2]);
    expect(report.rows[1]?.changes.recall).toEqual({ score: 1, otherScore: 0, delta: 1 });
    expect(report.rows[1]?.inputs.id).toBe("b");
  });

  test("runs over different datasets cannot be compared", () => {
    const short = new EvaluationRunResult({
      runName: "x",
      inputs: { q: ["a"] },
      results: { recall: { score: 1, individual_scores: [1] } },
    });
    expect(() => bm25.comparativeReport(short)).toThrow(/has 3 rows but "x" has 1/);
  });

  test("toJSON writes NaN as null; fromJSON reads it back as NaN", () => {
    const json = JSON.parse(JSON.stringify(bm25));
    expect(json.results.recall.individual_scores).toEqual([1, 0, null]);
    const back = EvaluationRunResult.fromJSON(json);
    expect(back.results.recall?.individual_scores).toEqual([1, 0, Number.NaN]);
    expect(back.errors).toEqual(bm25.errors);
    expect(back.aggregatedReport()).toEqual(bm25.aggregatedReport());
    expect(() => EvaluationRunResult.fromJSON({ hello: 1 })).toThrow(EvaluationInputError);
  });

  test("toCSV quotes fields with commas and quotes, writes NaN", () => {
    const lines = bm25.toCSV().split("\r\n");
    expect(lines[0]).toBe("question,id,recall,mrr");
    expect(lines[2]).toBe('"Say ""hi"", <b>bold</b>",b,0,0.5');
    expect(lines[3]).toBe("Third,c,NaN,0");
  });

  test("toHTML is self-contained and escapes every user text", () => {
    const html = hybrid.toHTML({ compare: bm25 });
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<(script|link)\b/);
    expect(html).not.toMatch(/src=|href=/);
    expect(html).toContain("Say &quot;hi&quot;, &lt;b&gt;bold&lt;/b&gt;");
    expect(html).not.toContain("<b>bold</b>");
    expect(html).toContain("boom &lt;script&gt;");
    expect(html).toContain("hybrid vs bm25");
  });

  test("columns and scores of different lengths are refused", () => {
    expect(
      () =>
        new EvaluationRunResult({
          runName: "x",
          inputs: { q: ["a", "b"] },
          results: { recall: { score: 1, individual_scores: [1] } },
        }),
    ).toThrow(/"recall" has 1 individual scores, expected 2/);
  });
});
