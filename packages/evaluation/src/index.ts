export type { DatasetErrorFields, EvaluationInputErrorFields } from "./errors.js";
export { DatasetError, EvaluationInputError } from "./errors.js";
export { AnswerExactMatchEvaluator } from "./evaluators/answer-exact-match-evaluator.js";
export type { DocumentComparisonField } from "./evaluators/comparison-field.js";
export { DocumentMAPEvaluator } from "./evaluators/document-map-evaluator.js";
export { DocumentMRREvaluator } from "./evaluators/document-mrr-evaluator.js";
export { DocumentNDCGEvaluator } from "./evaluators/document-ndcg-evaluator.js";
export type { RecallMode } from "./evaluators/document-recall-evaluator.js";
export { DocumentRecallEvaluator } from "./evaluators/document-recall-evaluator.js";
export { cosineSimilarity, SASEvaluator } from "./evaluators/sas-evaluator.js";
export {
  ContextRelevanceEvaluator,
  contextRelevanceExamples,
} from "./judges/context-relevance-evaluator.js";
export { FaithfulnessEvaluator, faithfulnessExamples } from "./judges/faithfulness-evaluator.js";
export type { JudgeMeta } from "./judges/judge-run.js";
export { LLMEvaluator } from "./judges/llm-evaluator.js";
export type { JudgeExample } from "./judges/prompt.js";
export type { ComparativeReport, MetricComparison, RowChange } from "./report/compare.js";
export type {
  EvaluationRunResultInit,
  EvaluationRunResultJSON,
  MetricResult,
  RowError,
} from "./report/evaluation-run-result.js";
export { EvaluationRunResult } from "./report/evaluation-run-result.js";
export type { HTMLReportOptions } from "./report/html.js";
export type { Dataset, DatasetRow } from "./run/dataset.js";
export { loadDataset, parseJSONL } from "./run/dataset.js";
export type { EvaluateOptions, EvaluationProgress, EvaluatorSpec, RowInputs } from "./run/evaluate.js";
export { evaluate } from "./run/evaluate.js";
export type { InputSource, PipelineOutputsOf } from "./run/sources.js";
