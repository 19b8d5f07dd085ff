import type { AnyComponent, Pipeline } from "@junction/core";
import { EvaluationInputError } from "../errors.js";
import { meanOfValid } from "../evaluators/checks.js";
import { EvaluationRunResult, type MetricResult, type RowError } from "../report/evaluation-run-result.js";
import { type Dataset, type DatasetRow, loadDataset } from "./dataset.js";
import { runPool } from "./pool.js";
import {
  coerceForSocket,
  componentsRead,
  type InputSource,
  type PipelineOutputsOf,
  readPath,
  resolveSource,
} from "./sources.js";

/**
 * How a row becomes the pipeline's inputs: a function, or a mapping from pipeline input
 * (`"component.socket"`, or a declared input name) to row field (`{ "retriever.query": "question" }`).
 */
export type RowInputs =
  | ((row: DatasetRow, rowIndex: number) => Record<string, unknown>)
  | Readonly<Record<string, string>>;

/** One metric: the evaluator component and where each of its input sockets reads from. */
export interface EvaluatorSpec {
  /** An evaluator instance (outputs `score` and `individual_scores`). */
  readonly evaluator: AnyComponent;
  /**
   * Socket → source: `"row.<field>"` (dataset), `"<component>.<socket>"` (pipeline output), or a
   * function of `{ row, outputs, rowIndex }`.
   */
  readonly inputs: Readonly<Record<string, InputSource>>;
}

/** A progress event of {@link evaluate}. */
export type EvaluationProgress =
  | {
      readonly type: "row";
      /** The row that finished. */
      readonly rowIndex: number;
      /** Rows finished so far. */
      readonly done: number;
      readonly total: number;
      /** Set when the row's pipeline run failed. */
      readonly error?: string | undefined;
    }
  | { readonly type: "metric"; readonly metric: string; readonly done: number; readonly total: number };

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** How a row becomes the pipeline inputs. */
  readonly inputs: RowInputs;
  /** Metric name → evaluator and its input sources. */
  readonly evaluators: Readonly<Record<string, EvaluatorSpec>>;
  /** How many rows run at the same time (default 4). */
  readonly concurrency?: number | undefined;
  /** Aborts the run: no new row starts, running rows are cancelled, `evaluate` rejects. */
  readonly signal?: AbortSignal | undefined;
  /** Called after each row and each metric. */
  readonly onProgress?: ((event: EvaluationProgress) => void) | undefined;
  /** The run's name in reports (default `"run"`). */
  readonly runName?: string | undefined;
  /** Row fields to show as input columns (default: every field whose values are texts, numbers or booleans). */
  readonly reportColumns?: readonly string[] | undefined;
}

function pipelineInputs(inputs: RowInputs, row: DatasetRow, rowIndex: number): Record<string, unknown> {
  if (typeof inputs === "function") return inputs(row, rowIndex);
  const request: Record<string, unknown> = {};
  for (const [address, field] of Object.entries(inputs)) {
    const value = readPath(row, field);
    if (value === undefined) {
      throw new EvaluationInputError(
        `evaluate: row ${rowIndex} has no field "${field}" (for the pipeline input "${address}").`,
        {
          rowIndex,
          socket: address,
        },
      );
    }
    const dot = address.indexOf(".");
    if (dot === -1) request[address] = value;
    else {
      const component = address.slice(0, dot);
      request[component] ??= {};
      const group = request[component] as Record<string, unknown>;
      group[address.slice(dot + 1)] = value;
    }
  }
  return request;
}

const isPrimitive = (value: unknown): boolean =>
  value === undefined || value === null || ["string", "number", "boolean"].includes(typeof value);

function reportColumns(
  rows: readonly DatasetRow[],
  wanted: readonly string[] | undefined,
): Record<string, unknown[]> {
  const names =
    wanted ??
    [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((name) =>
      rows.every((row) => isPrimitive(row[name])),
    );
  const columns: Record<string, unknown[]> = {};
  for (const name of names) columns[name] = rows.map((row) => readPath(row, name) ?? null);
  if (names.length === 0) columns.row = rows.map((_row, index) => index);
  return columns;
}

async function scoreMetric(
  metric: string,
  spec: EvaluatorSpec,
  rows: readonly DatasetRow[],
  outputs: readonly (PipelineOutputsOf | undefined)[],
  errors: RowError[],
  signal: AbortSignal | undefined,
): Promise<MetricResult> {
  const scores = new Array<number>(rows.length).fill(Number.NaN);
  const sockets = Object.entries(spec.inputs);
  let included: number[] = [];
  const values: Record<string, unknown[]> = Object.fromEntries(sockets.map(([socket]) => [socket, []]));
  rows.forEach((row, rowIndex) => {
    const rowOutputs = outputs[rowIndex];
    if (rowOutputs === undefined) return;
    const resolved: Record<string, unknown> = {};
    for (const [socket, source] of sockets) {
      const value = coerceForSocket(socket, resolveSource(source, { row, outputs: rowOutputs, rowIndex }));
      if (value === undefined) {
        errors.push({
          rowIndex,
          stage: metric,
          message: `no value for "${socket}" from ${typeof source === "string" ? `"${source}"` : "its function"}.`,
        });
        return;
      }
      resolved[socket] = value;
    }
    included.push(rowIndex);
    for (const [socket] of sockets) values[socket]?.push(resolved[socket]);
  });
  let meta: unknown;
  // A row the evaluator refuses (EvaluationInputError with a row index) is recorded and left out.
  for (let attempt = 0; attempt <= rows.length && included.length > 0; attempt += 1) {
    try {
      const result = (await spec.evaluator.run(values, { signal })) as Record<string, unknown>;
      const individual = (result.individual_scores ?? []) as number[];
      included.forEach((rowIndex, position) => {
        scores[rowIndex] = individual[position] ?? Number.NaN;
      });
      meta = result.meta;
      break;
    } catch (error) {
      if (!(error instanceof EvaluationInputError) || error.rowIndex === undefined) throw error;
      const position = error.rowIndex;
      errors.push({ rowIndex: included[position] as number, stage: metric, message: error.message });
      included = included.filter((_row, index) => index !== position);
      for (const list of Object.values(values)) list.splice(position, 1);
    }
  }
  return { score: meanOfValid(scores), individual_scores: scores, ...(meta === undefined ? {} : { meta }) };
}

/** Refuses, before anything runs, a source that names a component the pipeline does not have. */
function checkSources(pipeline: Pipeline, evaluators: Readonly<Record<string, EvaluatorSpec>>): void {
  const known = new Set(pipeline.componentNames());
  for (const [metric, spec] of Object.entries(evaluators)) {
    for (const [socket, source] of Object.entries(spec.inputs)) {
      const [component] = componentsRead([source]);
      if (component === undefined || known.has(component)) continue;
      throw new EvaluationInputError(
        `evaluate: the metric "${metric}" reads "${socket}" from "${source as string}", but the pipeline has no component "${component}" (components: ${[...known].join(", ")}). Write "row.<field>" for a dataset field, or "<component>.<socket>" for a pipeline output.`,
        { socket },
      );
    }
  }
}

/**
 * Runs `pipeline` once per dataset row (at most `concurrency` rows at a time), then scores every
 * metric over the rows. A row whose pipeline run fails is recorded in `errors` and scored NaN; it
 * does not stop the run. Aborting `signal` stops it and rejects.
 *
 * @param pipeline - the pipeline under test
 * @param dataset - the rows, or the path of a JSONL file (one JSON object per line)
 * @param options - `inputs` (row → pipeline inputs), `evaluators` (metric → evaluator and sources),
 *   `concurrency`, `signal`, `onProgress`, `runName`, `reportColumns`
 * @example
 * ```ts
 * const result = await evaluate(pipeline, "questions.jsonl", {
 *   inputs: { "retriever.query": "question" },
 *   evaluators: {
 *     recall: {
 *       evaluator: new DocumentRecallEvaluator(),
 *       inputs: { ground_truth_documents: "row.ground_truth_documents", retrieved_documents: "retriever.documents" },
 *     },
 *   },
 * });
 * console.log(result.aggregatedReport());
 * ```
 */
export async function evaluate(
  pipeline: Pipeline,
  dataset: Dataset,
  options: EvaluateOptions,
): Promise<EvaluationRunResult> {
  checkSources(pipeline, options.evaluators);
  const rows = await loadDataset(dataset);
  const signal = options.signal;
  const includeOutputsFrom = componentsRead(
    Object.values(options.evaluators).flatMap((spec) => Object.values(spec.inputs)),
  );
  const outputs: (PipelineOutputsOf | undefined)[] = new Array(rows.length).fill(undefined);
  const errors: RowError[] = [];
  let done = 0;
  await runPool(
    rows.length,
    options.concurrency ?? 4,
    async (rowIndex) => {
      const row = rows[rowIndex] as DatasetRow;
      let failure: string | undefined;
      try {
        const request = pipelineInputs(options.inputs, row, rowIndex);
        outputs[rowIndex] = (await pipeline.run(request, {
          includeOutputsFrom,
          signal,
        })) as PipelineOutputsOf;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        failure = error instanceof Error ? error.message : String(error);
        errors.push({ rowIndex, stage: "pipeline", message: failure });
      }
      done += 1;
      options.onProgress?.({ type: "row", rowIndex, done, total: rows.length, error: failure });
    },
    signal,
  );
  const results: Record<string, MetricResult> = {};
  const metrics = Object.entries(options.evaluators);
  for (const [index, [metric, spec]] of metrics.entries()) {
    signal?.throwIfAborted();
    results[metric] = await scoreMetric(metric, spec, rows, outputs, errors, signal);
    options.onProgress?.({ type: "metric", metric, done: index + 1, total: metrics.length });
  }
  errors.sort((a, b) => a.rowIndex - b.rowIndex);
  return new EvaluationRunResult({
    runName: options.runName ?? "run",
    inputs: reportColumns(rows, options.reportColumns),
    results,
    errors,
  });
}
