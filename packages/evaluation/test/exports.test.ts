import * as api from "@junction/evaluation";
import { expect, test } from "vitest";

test("@junction/evaluation exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "AnswerExactMatchEvaluator",
    "ContextRelevanceEvaluator",
    "DatasetError",
    "DocumentMAPEvaluator",
    "DocumentMRREvaluator",
    "DocumentNDCGEvaluator",
    "DocumentRecallEvaluator",
    "EvaluationInputError",
    "EvaluationRunResult",
    "FaithfulnessEvaluator",
    "LLMEvaluator",
    "SASEvaluator",
    "contextRelevanceExamples",
    "cosineSimilarity",
    "evaluate",
    "faithfulnessExamples",
    "loadDataset",
    "parseJSONL",
  ]);
});
