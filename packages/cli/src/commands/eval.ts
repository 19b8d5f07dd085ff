import { readFileSync } from "node:fs";
import { type AnyComponent, type Pipeline, writeFileAtomic } from "@junction/core";
import {
  AnswerExactMatchEvaluator,
  DocumentMAPEvaluator,
  DocumentMRREvaluator,
  DocumentNDCGEvaluator,
  DocumentRecallEvaluator,
  EvaluationRunResult,
  type EvaluatorSpec,
  evaluate,
  loadDataset,
} from "@junction/evaluation";
import { CliError } from "../load.js";
import { createProgress, progressBar } from "../spinner.js";
import { pickOne } from "./pick.js";

/**
 * `junction eval <pipeline> --dataset <file.jsonl> [--metrics recall,mrr,…]`: runs the pipeline over a
 * labeled dataset, prints the aggregated scores, writes JSON/CSV/HTML reports, compares with a previous
 * run, and exits 4 when a `--min metric=value` gate fails.
 *
 * Dataset rows: `question` (text), `ground_truth_documents` (texts or Document JSON objects),
 * `ground_truth_answer` (text). `--input component.socket=field` maps row fields to pipeline inputs;
 * by default the row's `question` goes to every open mandatory input named query, text or question.
 */

/** Exit code when a `--min` quality gate fails. */
export const gateExitCode = 4;

const documentMetrics: Record<string, (field: string) => AnyComponent> = {
  recall: (field) => new DocumentRecallEvaluator({ documentComparisonField: field as never }),
  recall_multi: (field) =>
    new DocumentRecallEvaluator({ mode: "multi_hit", documentComparisonField: field as never }),
  mrr: (field) => new DocumentMRREvaluator({ documentComparisonField: field as never }),
  ndcg: (field) => new DocumentNDCGEvaluator({ documentComparisonField: field as never }),
  map: (field) => new DocumentMAPEvaluator({ documentComparisonField: field as never }),
};
const metricNames = [...Object.keys(documentMetrics), "exact_match"];

function splitPair(flag: string, text: string): [string, string] {
  const equals = text.indexOf("=");
  if (equals <= 0 || equals === text.length - 1) throw new CliError(`${flag} ${text}: write name=value.`, 2);
  return [text.slice(0, equals), text.slice(equals + 1)];
}

/** The open mandatory inputs the `question` goes to, unless `--input` says otherwise. */
function defaultInputs(pipeline: Pipeline): Record<string, string> {
  const mapping: Record<string, string> = {};
  const open: string[] = [];
  for (const [component, sockets] of Object.entries(pipeline.inputs())) {
    for (const [socket, description] of Object.entries(sockets)) {
      if (!description.mandatory) continue;
      open.push(`${component}.${socket}`);
      if (["query", "text", "question"].includes(socket)) mapping[`${component}.${socket}`] = "question";
    }
  }
  if (Object.keys(mapping).length === 0 && open.length === 1) mapping[open[0] as string] = "question";
  if (Object.keys(mapping).length === 0)
    throw new CliError(
      `cannot tell which pipeline input gets the question (open inputs: ${open.join(", ") || "none"}). Say it with --input component.socket=question.`,
      2,
    );
  return mapping;
}

/** The one output socket named `names[i]` (unconnected ones first), or undefined. */
function findOutput(pipeline: Pipeline, names: readonly string[], flag: string): string | undefined {
  for (const outputs of [pipeline.outputs(), pipeline.outputs({ includeConnected: true })]) {
    const found = Object.entries(outputs).flatMap(([component, sockets]) =>
      Object.keys(sockets)
        .filter((socket) => names.includes(socket))
        .map((socket) => `${component}.${socket}`),
    );
    if (found.length === 1) return found[0];
    if (found.length > 1)
      throw new CliError(`several outputs could be meant (${found.join(", ")}): pick one with ${flag}.`, 2);
  }
  return undefined;
}

function buildEvaluators(
  pipeline: Pipeline,
  metrics: readonly string[],
  values: Record<string, unknown>,
): Record<string, EvaluatorSpec> {
  const field = (values["comparison-field"] as string | undefined) ?? "content";
  const specs: Record<string, EvaluatorSpec> = {};
  let documents = values.documents as string | undefined;
  let answer = values.answer as string | undefined;
  for (const metric of metrics) {
    const make = documentMetrics[metric];
    if (make !== undefined) {
      documents ??= findOutput(pipeline, ["documents"], "--documents");
      if (documents === undefined)
        throw new CliError(`no output holds documents: say which with --documents component.socket.`, 2);
      specs[metric] = {
        evaluator: make(field),
        inputs: { ground_truth_documents: "row.ground_truth_documents", retrieved_documents: documents },
      };
    } else if (metric === "exact_match") {
      answer ??= findOutput(pipeline, ["replies", "answer", "answers"], "--answer");
      if (answer === undefined)
        throw new CliError(`no output holds the answer: say which with --answer component.socket.`, 2);
      specs[metric] = {
        evaluator: new AnswerExactMatchEvaluator(),
        inputs: { ground_truth_answers: "row.ground_truth_answer", predicted_answers: answer },
      };
    } else {
      throw new CliError(`unknown metric "${metric}". Metrics: ${metricNames.join(", ")}.`, 2);
    }
  }
  return specs;
}

function format(score: number | undefined): string {
  return score === undefined || Number.isNaN(score) ? "—" : score.toFixed(3);
}

/** The aggregated table (with the previous run and the difference when comparing). */
function table(result: EvaluationRunResult, previous: EvaluationRunResult | undefined): string {
  const rows = result.metrics.map((metric) => {
    const score = result.results[metric]?.score;
    if (previous === undefined) return [metric, format(score)];
    const before = previous.results[metric]?.score;
    const delta = score === undefined || before === undefined ? Number.NaN : score - before;
    const comparison =
      previous.results[metric] === undefined ? undefined : result.comparativeReport(previous);
    const detail = comparison?.metrics.find((entry) => entry.metric === metric);
    const sign = Number.isNaN(delta) ? "—" : `${delta >= 0 ? "+" : ""}${delta.toFixed(3)}`;
    const moves = detail === undefined ? "" : `${detail.better.length} better, ${detail.worse.length} worse`;
    return [metric, format(score), format(before), sign, moves];
  });
  const header =
    previous === undefined ? ["metric", "score"] : ["metric", "score", "previous", "change", "rows"];
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? "").length)));
  return all
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function parseGates(gates: readonly string[], metrics: readonly string[]): [string, number][] {
  return gates.map((gate) => {
    const [metric, text] = splitPair("--min", gate);
    const value = Number(text);
    if (!Number.isFinite(value)) throw new CliError(`--min ${gate}: the threshold must be a number.`, 2);
    if (!metrics.includes(metric))
      throw new CliError(`--min ${gate}: "${metric}" is not among the metrics (${metrics.join(", ")}).`, 2);
    return [metric, value];
  });
}

function readPrevious(path: string | undefined): EvaluationRunResult | undefined {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(`--compare ${path}: no such file.`, 2);
  }
  try {
    return EvaluationRunResult.fromJSON(JSON.parse(text));
  } catch (error) {
    throw new CliError(`--compare ${path}: ${(error as Error).message}`, 2);
  }
}

/** `junction eval <file> --dataset <file.jsonl> [options]` */
export async function evalCommand(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const datasetPath = values.dataset as string | undefined;
  if (datasetPath === undefined) throw new CliError("name the labeled questions: --dataset <file.jsonl>.", 2);
  const metrics = ((values.metrics as string | undefined) ?? "recall,mrr,ndcg")
    .split(",")
    .map((metric) => metric.trim())
    .filter((metric) => metric !== "");
  const gates = parseGates((values.min as string[] | undefined) ?? [], metrics);
  const previous = readPrevious(values.compare as string | undefined);
  const served = await pickOne(values, positionals, "eval");
  const pipeline = served.pipeline;
  const inputFlags = (values.input as string[] | undefined) ?? [];
  const inputs =
    inputFlags.length === 0
      ? defaultInputs(pipeline)
      : Object.fromEntries(inputFlags.map((flag) => splitPair("--input", flag)));
  const evaluators = buildEvaluators(pipeline, metrics, values);
  const rows = await loadDataset(datasetPath);
  if (
    values["comparison-field"] === undefined &&
    metrics.some((metric) => documentMetrics[metric] !== undefined)
  )
    checkContentLabels(rows, datasetPath);
  const concurrency = Number((values.concurrency as string | undefined) ?? "4");
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new CliError(`--concurrency ${String(values.concurrency)}: a whole number of at least 1.`, 2);

  const progress = createProgress(process.stderr, values.quiet === true);
  const controller = new AbortController();
  const interrupt = () => controller.abort(new DOMException("Interrupted.", "AbortError"));
  process.once("SIGINT", interrupt);
  let result: EvaluationRunResult;
  try {
    result = await evaluate(pipeline, rows, {
      inputs,
      evaluators,
      concurrency,
      signal: controller.signal,
      runName: (values["run-name"] as string | undefined) ?? served.name,
      onProgress: (event) => {
        if (event.type === "row") progress.update(`questions ${progressBar(event.done, event.total)}`);
        else progress.update(`scoring ${event.metric}`);
      },
    });
  } catch (error) {
    if (controller.signal.aborted) {
      progress.stop();
      process.stderr.write("junction eval: interrupted.\n");
      return 130;
    }
    throw error;
  } finally {
    progress.stop();
    process.off("SIGINT", interrupt);
  }

  process.stdout.write(`${table(result, previous)}\n`);
  if (result.errors.length > 0) {
    process.stderr.write(`${result.errors.length} row error(s):\n`);
    for (const error of result.errors.slice(0, 10))
      process.stderr.write(`  row ${error.rowIndex} (${error.stage}): ${error.message}\n`);
  }
  // Atomic (temp file, fsync, rename): a run killed while writing leaves the old file whole — with
  // `--compare baseline.json --out baseline.json` that is the baseline.
  const write = async (flag: string, text: string) => {
    const path = values[flag] as string | undefined;
    if (path !== undefined) await writeFileAtomic(path, text);
  };
  await write("out", `${JSON.stringify(result, null, 2)}\n`);
  await write("csv", result.toCSV());
  await write("html", result.toHTML(previous === undefined ? {} : { compare: previous }));

  let failed = false;
  for (const [metric, threshold] of gates) {
    const score = result.results[metric]?.score ?? Number.NaN;
    if (Number.isNaN(score) || score < threshold) {
      process.stderr.write(`junction eval: ${metric} ${format(score)} is below --min ${threshold}.\n`);
      failed = true;
    }
  }
  return failed ? gateExitCode : 0;
}

/**
 * Documents are compared by content unless `--comparison-field` says otherwise: when no ground truth
 * document of the dataset has content, every question would score 0 — a usage error that names the
 * field the labels do carry.
 */
function checkContentLabels(rows: readonly Record<string, unknown>[], datasetPath: string): void {
  const labels = rows.flatMap((row) =>
    Array.isArray(row.ground_truth_documents) ? (row.ground_truth_documents as unknown[]) : [],
  );
  const hasContent = (label: unknown) =>
    typeof label === "string" ||
    (typeof label === "object" &&
      label !== null &&
      typeof (label as { content?: unknown }).content === "string");
  if (labels.length === 0 || labels.some(hasContent)) return;
  const first = labels[0] as { id?: unknown; meta?: unknown };
  const metaKey =
    typeof first.meta === "object" && first.meta !== null ? Object.keys(first.meta)[0] : undefined;
  const suggestion =
    typeof first.id === "string" ? "id" : metaKey !== undefined ? `meta.${metaKey}` : undefined;
  throw new CliError(
    `${datasetPath}: no ground truth document has a "content", and documents are compared by content, so every question would score 0. ${
      suggestion === undefined
        ? 'Give them a "content", or compare by id or meta: --comparison-field id | meta.<key>.'
        : `Compare by what they carry: --comparison-field ${suggestion}.`
    }`,
    2,
  );
}
