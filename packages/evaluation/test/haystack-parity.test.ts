/**
 * Haystack's own expectations for its evaluators, pinned on Junction's. Each test names the Haystack
 * test it comes from (haystack `test/components/evaluators/…` and `test/evaluation/test_eval_run_result.py`).
 */
import {
  type AnyComponent,
  defineComponent,
  getDefaultLogger,
  MemoryLogger,
  setDefaultLogger,
} from "@junction/core";
import { Document } from "@junction/documents";
import {
  ContextRelevanceEvaluator,
  DocumentMAPEvaluator,
  DocumentMRREvaluator,
  DocumentNDCGEvaluator,
  DocumentRecallEvaluator,
  EvaluationRunResult,
  FaithfulnessEvaluator,
  LLMEvaluator,
  SASEvaluator,
} from "@junction/evaluation";
import { type ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";

const docs = (...contents: string[]) => contents.map((content) => new Document({ content }));
const graded = (...pairs: [string, number][]) =>
  pairs.map(([content, score]) => new Document({ content, score }));

// The "complex data" fixture of test_document_mrr.py / test_document_map.py / test_document_recall.py.
const complexTruth = [
  docs("France"),
  docs("9th century", "9th"),
  docs("classical music", "classical"),
  docs("11th century", "the 11th"),
  docs("Denmark, Iceland and Norway"),
  docs("10th century", "10th"),
];
const tenth = docs("10th century", "the first half of the 10th century", "10th", "10th");

const initialLogger = getDefaultLogger();
afterEach(() => setDefaultLogger(initialLogger));

describe("document evaluators on Haystack's fixtures", () => {
  test("MRR complex data (test_document_mrr.py::test_run_with_complex_data)", async () => {
    const result = await new DocumentMRREvaluator().run({
      ground_truth_documents: complexTruth,
      retrieved_documents: [
        docs("France"),
        docs("10th century", "9th century", "9th"),
        docs("rock music", "dubstep", "classical"),
        docs("11th", "the 11th", "11th century"),
        docs("Denmark", "Norway", "Iceland"),
        tenth,
      ],
    });
    expect(result.individual_scores).toEqual([1, 0.5, 1 / 3, 0.5, 0, 1]);
    expect(result.score).toBeCloseTo(0.555555555555555, 12);
  });

  test("MAP complex data, duplicates credited once (test_document_map.py::test_run_with_complex_data)", async () => {
    const result = await new DocumentMAPEvaluator().run({
      ground_truth_documents: complexTruth,
      retrieved_documents: [
        docs("France"),
        docs("9th century", "10th century", "9th"),
        docs("classical", "rock music", "dubstep"),
        docs("11th", "the 11th", "11th century"),
        docs("Denmark", "Norway", "Iceland"),
        tenth,
      ],
    });
    const expected = [1, 0.8333333333333333, 0.5, 0.5833333333333333, 0, 0.8333333333333333];
    result.individual_scores?.forEach((score, index) => {
      expect(score).toBeCloseTo(expected[index] as number, 12);
    });
    expect(result.score).toBeCloseTo(0.625, 12);
  });

  test("MAP on a meta list value (test_document_map.py::test_run_with_unhashable_meta_comparison)", async () => {
    const result = await new DocumentMAPEvaluator({ documentComparisonField: "meta.tags" }).run({
      ground_truth_documents: [
        [
          new Document({ content: "x", meta: { tags: ["a"] } }),
          new Document({ content: "y", meta: { tags: ["b"] } }),
        ],
      ],
      retrieved_documents: [[new Document({ content: "z", meta: { tags: ["a"] } })]],
    });
    expect(result).toEqual({ individual_scores: [0.5], score: 0.5 });
  });

  test("Recall single_hit and multi_hit complex data (test_document_recall.py)", async () => {
    const retrieved = [
      docs("France"),
      docs("9th century", "10th century", "9th"),
      docs("classical", "rock music", "dubstep"),
      docs("11th", "the 11th", "11th century"),
      docs("Denmark", "Norway", "Iceland"),
      tenth,
    ];
    const single = await new DocumentRecallEvaluator({ mode: "single_hit" }).run({
      ground_truth_documents: complexTruth,
      retrieved_documents: retrieved,
    });
    expect(single).toEqual({ individual_scores: [1, 1, 1, 1, 0, 1], score: 0.8333333333333334 });
    const multiTruth = [...complexTruth];
    multiTruth[4] = docs("Denmark", "Iceland", "Norway", "Denmark, Iceland and Norway");
    const multi = await new DocumentRecallEvaluator({ mode: "multi_hit" }).run({
      ground_truth_documents: multiTruth,
      retrieved_documents: retrieved,
    });
    expect(multi).toEqual({ individual_scores: [1, 1, 0.5, 1, 0.75, 1], score: 0.875 });
  });

  test("NDCG graded and binary (test_document_ndcg.py::test_run_with_multiple_lists_of_docs)", async () => {
    const result = await new DocumentNDCGEvaluator().run({
      ground_truth_documents: [
        docs("France", "Paris"),
        graded(["doc1", 3], ["doc2", 2], ["doc3", 3], ["doc6", 2], ["doc7", 3], ["doc8", 2]),
      ],
      retrieved_documents: [docs("France", "Germany", "Paris"), docs("doc1", "doc2", "doc3", "doc4", "doc5")],
    });
    expect(result.individual_scores?.[0]).toBeCloseTo(0.9197, 4);
    expect(result.individual_scores?.[1]).toBeCloseTo(0.6592, 4);
    expect(result.score).toBeCloseTo(0.7895, 4);
  });

  test("a missing meta key never matches, and is left out of the ideal DCG (test_document_ndcg.py)", async () => {
    const evaluator = new DocumentNDCGEvaluator({ documentComparisonField: "meta.file_id" });
    const result = await evaluator.run({
      ground_truth_documents: [
        [
          new Document({ content: "France", meta: { file_id: "f1" } }),
          new Document({ content: "unmatchable" }),
        ],
      ],
      retrieved_documents: [[new Document({ content: "France", meta: { file_id: "f1" } })]],
    });
    expect(result).toEqual({ individual_scores: [1], score: 1 });
    const recall = await new DocumentRecallEvaluator({
      mode: "multi_hit",
      documentComparisonField: "meta.file_id",
    }).run({
      ground_truth_documents: [
        [new Document({ meta: { file_id: "f1" } }), new Document({ content: "no file_id" })],
      ],
      retrieved_documents: [
        [new Document({ content: "also no file_id" }), new Document({ meta: { file_id: "f2" } })],
      ],
    });
    expect(recall).toEqual({ individual_scores: [0], score: 0 });
  });
});

describe("empty ground truth scores 0, as in Haystack", () => {
  // test_document_recall.py::test_empty_ground_truth_documents (both modes),
  // test_document_ndcg.py::test_run_empty_ground_truth / test_run_empty_retrieved_and_empty_ground_truth;
  // MRR and MAP have no test for it, but their run() scores such a question 0.
  const evaluators = [
    new DocumentMRREvaluator(),
    new DocumentMAPEvaluator(),
    new DocumentRecallEvaluator({ mode: "single_hit" }),
    new DocumentRecallEvaluator({ mode: "multi_hit" }),
    new DocumentNDCGEvaluator(),
  ];

  test.each(evaluators.map((evaluator) => [evaluator.type, evaluator] as const))(
    "%s: [[]] scores [0], and one warning names the unlabelled rows",
    async (_type, evaluator) => {
      const logger = new MemoryLogger();
      const empty = await evaluator.run(
        { ground_truth_documents: [[]], retrieved_documents: [docs("test")] },
        { logger },
      );
      expect(empty).toEqual({ individual_scores: [0], score: 0 });
      const both = await evaluator.run(
        { ground_truth_documents: [docs("a"), [], []], retrieved_documents: [docs("a"), [], docs("b")] },
        { logger },
      );
      expect(both).toEqual({ individual_scores: [1, 0, 0], score: 1 / 3 });
      const warnings = logger.messages("warn");
      expect(warnings).toHaveLength(2);
      expect(warnings[1]).toMatch(
        /2 question\(s\) have no ground truth document with a "content" value \(rows 1, 2\)/,
      );
    },
  );

  test("an empty string is no ground truth for recall (test_empty_string_ground_truth_documents)", async () => {
    for (const mode of ["single_hit", "multi_hit"] as const) {
      const evaluator = new DocumentRecallEvaluator({ mode });
      expect(
        await evaluator.run({ ground_truth_documents: [docs("")], retrieved_documents: [docs("test")] }),
      ).toEqual({ individual_scores: [0], score: 0 });
      expect(
        await evaluator.run({ ground_truth_documents: [docs("test")], retrieved_documents: [docs("")] }),
      ).toEqual({ individual_scores: [0], score: 0 });
    }
  });
});

describe("SAS and the LLM judges on empty inputs", () => {
  const embedder = defineComponent({
    type: "test.CountingEmbedder",
    inputs: { text: z.string() },
    outputs: { embedding: z.array(z.number()) },
    run: ({ text }) => ({ embedding: [text.length, 1] }),
  });

  test("SAS answers empty lists with score 0 and one 0 (test_sas_evaluator.py::test_run_with_empty_inputs)", async () => {
    const sas = new SASEvaluator({ embedder: new embedder() as AnyComponent });
    expect(await sas.run({ ground_truth_answers: [], predicted_answers: [] })).toEqual({
      score: 0,
      individual_scores: [0],
    });
  });

  test("judges return no results and a NaN score for empty lists (LLMEvaluator.run over zero rows)", async () => {
    const chatGenerator = new ScriptedChatGenerator({ script: [] });
    const faithfulness = await new FaithfulnessEvaluator({ chatGenerator }).run({
      questions: [],
      contexts: [],
      predicted_answers: [],
    });
    expect(faithfulness.results).toEqual([]);
    expect(faithfulness.individual_scores).toEqual([]);
    expect(Number.isNaN(faithfulness.score)).toBe(true);
    const relevance = await new ContextRelevanceEvaluator({ chatGenerator }).run({
      questions: [],
      contexts: [],
    });
    expect(relevance.results).toEqual([]);
    expect(Number.isNaN(relevance.score)).toBe(true);
    const judge = new LLMEvaluator({
      instructions: "Is it fine?",
      inputs: ["predicted_answers"],
      outputs: ["score"],
      examples: [],
      chatGenerator,
    });
    expect((await judge.run({ predicted_answers: [] } as never)).results).toEqual([]);
  });
});

describe("the judge prompt (test_llm_evaluator.py::test_prepare_template)", () => {
  test("Haystack's layout and json.dumps formatting; the inputs written as JSON", async () => {
    const prompts: string[] = [];
    const chatGenerator = new ScriptedChatGenerator({
      respond: (messages: readonly ChatMessage[]) => {
        prompts.push(messages[0]?.text ?? "");
        return JSON.stringify({ score: 0 });
      },
    });
    const judge = new LLMEvaluator({
      instructions: "test-instruction",
      inputs: ["predicted_answers"],
      outputs: ["score"],
      examples: [
        { inputs: { predicted_answers: "Damn, this is straight outta hell!!!" }, outputs: { score: 1 } },
        { inputs: { predicted_answers: "Football is the most popular sport." }, outputs: { score: 0 } },
      ],
      chatGenerator,
    });
    const result = await judge.run({ predicted_answers: ["Café au lait."] } as never);
    expect(result.results).toEqual([{ score: 0 }]);
    // Haystack's template up to the inputs, character for character; Haystack then renders the input
    // bare ({"predicted_answers": Café au lait.}), Junction as JSON (ensure_ascii, as json.dumps).
    expect(prompts[0]).toBe(
      "Instructions:\ntest-instruction\n\nGenerate the response in JSON format with the following keys:" +
        '\n["score"]\nConsider the instructions and the examples below to determine those values.\n\n' +
        'Examples:\nInputs:\n{"predicted_answers": "Damn, this is straight outta hell!!!"}\nOutputs:' +
        '\n{"score": 1}\nInputs:\n{"predicted_answers": "Football is the most popular sport."}\nOutputs:' +
        '\n{"score": 0}\n\nInputs:\n{"predicted_answers": "Caf\\u00e9 au lait."}\nOutputs:',
    );
  });
});

describe("judgments keep every key of the reply, as Haystack's parsed dict does", () => {
  test("LLMEvaluator results and FaithfulnessEvaluator results carry the extra keys (_parse_dict_from_json returns the whole object)", async () => {
    const chatGenerator = new ScriptedChatGenerator({
      respond: (messages: readonly ChatMessage[]) =>
        messages[0]?.text?.includes("statement_scores")
          ? JSON.stringify({
              statements: ["a", "b"],
              statement_scores: [1, 0],
              reasoning: "b is not in the context",
            })
          : JSON.stringify({ score: 1, reason: "explicit language" }),
    });
    const judge = new LLMEvaluator({
      instructions: "Is this answer problematic for children?",
      inputs: ["predicted_answers"],
      outputs: ["score"],
      examples: [],
      chatGenerator,
    });
    expect((await judge.run({ predicted_answers: ["Damn!"] } as never)).results).toEqual([
      { score: 1, reason: "explicit language" },
    ]);
    const faithfulness = await new FaithfulnessEvaluator({ chatGenerator }).run({
      questions: ["q"],
      contexts: [["a"]],
      predicted_answers: ["a and b"],
    });
    expect(faithfulness.results).toEqual([
      {
        statements: ["a", "b"],
        statement_scores: [1, 0],
        reasoning: "b is not in the context",
        score: 0.5,
        status: "evaluated",
      },
    ]);
  });
});

describe("default examples", () => {
  test("examples: [] means the default examples (Haystack's `examples or _DEFAULT_EXAMPLES`)", async () => {
    const prompts: string[] = [];
    const chatGenerator = new ScriptedChatGenerator({
      respond: (messages: readonly ChatMessage[]) => {
        prompts.push(messages[0]?.text ?? "");
        return prompts.length === 1
          ? JSON.stringify({ statements: [], statement_scores: [] })
          : JSON.stringify({ relevant_statements: [] });
      },
    });
    await new FaithfulnessEvaluator({ chatGenerator, examples: [] }).run({
      questions: ["q"],
      contexts: [["c"]],
      predicted_answers: ["a"],
    });
    await new ContextRelevanceEvaluator({ chatGenerator, examples: [] }).run({
      questions: ["q"],
      contexts: [["c"]],
    });
    expect(prompts[0]).toContain(
      '"statements": ["Rome is the capital of Italy.", "Rome has more than 4 million inhabitants."]',
    );
    expect(prompts[1]).toContain('"relevant_statements": ["Berlin is the capital of Germany."]');
  });
});

describe("EvaluationRunResult.comparativeDetailedReport (test_eval_run_result.py)", () => {
  const inputs = {
    query_id: ["53c3b3e6", "225f87f7"],
    question: ["What is the capital of France?", "What is the capital of Spain?"],
    contexts: ["wiki_France", "wiki_Spain"],
    answer: ["Paris", "Madrid"],
    predicted_answer: ["Paris", "Madrid"],
  };
  const results = {
    reciprocal_rank: { individual_scores: [0.378064, 0.534964], score: 0.476932 },
    single_hit: { individual_scores: [1, 1], score: 0.75 },
    multi_hit: { individual_scores: [0.706125, 0.454976], score: 0.46428375 },
    context_relevance: { individual_scores: [1, 1], score: 1 },
    faithfulness: { individual_scores: [0.135581, 0.695974], score: 0.40585375 },
    semantic_answer_similarity: { individual_scores: [0.971241, 0.15932], score: 0.53757075 },
  };
  const metrics = Object.keys(results);

  test("keep_columns: the column names and their order (test_comparative_individual_scores_report)", () => {
    const first = new EvaluationRunResult({ runName: "testing_pipeline_1", inputs, results });
    const second = new EvaluationRunResult({ runName: "testing_pipeline_2", inputs, results });
    const report = first.comparativeDetailedReport(second, { keepColumns: ["predicted_answer"] });
    expect(Object.keys(report)).toEqual([
      "query_id",
      "question",
      "contexts",
      "answer",
      "testing_pipeline_1_predicted_answer",
      ...metrics.map((metric) => `testing_pipeline_1_${metric}`),
      "testing_pipeline_2_predicted_answer",
      ...metrics.map((metric) => `testing_pipeline_2_${metric}`),
    ]);
  });

  test("an input column only the other run has is kept, prefixed, with a warning (comparative_detailed_report)", () => {
    const logger = new MemoryLogger();
    setDefaultLogger(logger);
    const first = new EvaluationRunResult({
      runName: "a",
      inputs: { question: ["q"] },
      results: { m: { score: 1, individual_scores: [1] } },
    });
    const second = new EvaluationRunResult({
      runName: "b",
      inputs: { question: ["q"], retriever: ["bm25"] },
      results: { m: { score: 0, individual_scores: [0] } },
    });
    expect(first.comparativeDetailedReport(second)).toEqual({
      question: ["q"],
      a_m: [1],
      b_retriever: ["bm25"],
      b_m: [0],
    });
    expect(logger.messages("warn")).toEqual([
      'EvaluationRunResult.comparativeDetailedReport: the input columns differ between "a" and "b"; using the input columns of "a".',
    ]);
  });

  test("aggregated report and the constructor's checks (test_score_report, test_init_results_evaluator)", () => {
    const result = new EvaluationRunResult({ runName: "testing_pipeline_1", inputs, results });
    expect(result.aggregatedReport()).toEqual({
      metrics,
      score: [0.476932, 0.75, 0.46428375, 1, 0.40585375, 0.53757075],
    });
    expect(result.toCSV(result.aggregatedReport()).split("\r\n")).toEqual([
      "metrics,score",
      "reciprocal_rank,0.476932",
      "single_hit,0.75",
      "multi_hit,0.46428375",
      "context_relevance,1",
      "faithfulness,0.40585375",
      "semantic_answer_similarity,0.53757075",
      "",
    ]);
    const make = (init: unknown) => () => new EvaluationRunResult(init as never);
    expect(make({ runName: "r", inputs: {}, results: {} })).toThrow(/no input columns/);
    expect(make({ runName: "r", inputs: { a: ["x", "y"], b: ["x"] }, results: {} })).toThrow(
      /"b" has 1 rows/,
    );
    expect(
      make({ runName: "r", inputs: { a: ["x", "y"] }, results: { some: { individual_scores: [1, 2] } } }),
    ).toThrow(/"some" needs "score"/);
    expect(make({ runName: "r", inputs: { a: ["x", "y"] }, results: { some: { score: 0.1 } } })).toThrow(
      /"some" needs "score" and "individual_scores"/,
    );
    expect(
      make({
        runName: "r",
        inputs: { a: ["x", "y"] },
        results: { some: { score: 0.1, individual_scores: [1, 2, 3] } },
      }),
    ).toThrow(/"some" has 3 individual scores, expected 2/);
  });
});
