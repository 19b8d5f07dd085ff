import { getDefaultLogger } from "@junction/core";
import { EvaluationInputError } from "../errors.js";
import { meanOfValid } from "../evaluators/checks.js";
import { type ComparativeReport, compareRuns } from "./compare.js";
import { toCSV } from "./csv.js";
import { type HTMLReportOptions, renderHTML } from "./html.js";

/** One metric's result: the aggregated score, one score per row, and what else the evaluator reported. */
export interface MetricResult {
  /** The mean over rows with a score (NaN rows left out). */
  readonly score: number;
  /** One score per row; NaN where the row has none (pipeline error, invalid judgment). */
  readonly individual_scores: readonly number[];
  /** The evaluator's other outputs (`meta` of the LLM judges), when it had any. */
  readonly meta?: unknown;
}

/** A row that could not be (fully) scored: its pipeline run failed, or an input was missing. */
export interface RowError {
  /** The 0-based row index. */
  readonly rowIndex: number;
  /** Where it failed: `"pipeline"`, or the metric name. */
  readonly stage: string;
  /** What went wrong. */
  readonly message: string;
}

/** What {@link EvaluationRunResult} is made from. */
export interface EvaluationRunResultInit {
  /** The run's name (prefixes the columns of comparative reports). */
  readonly runName: string;
  /** Input columns (question, id, …): one list per column, one entry per row. */
  readonly inputs: Readonly<Record<string, readonly unknown[]>>;
  /** Metric name → result. */
  readonly results: Readonly<Record<string, MetricResult>>;
  /** Rows that failed. */
  readonly errors?: readonly RowError[] | undefined;
}

/** The JSON form of an {@link EvaluationRunResult} (`NaN` written as `null`). */
export interface EvaluationRunResultJSON {
  readonly format: "junction.evaluation-run";
  readonly version: 1;
  readonly run_name: string;
  readonly inputs: Record<string, unknown[]>;
  readonly results: Record<
    string,
    { score: number | null; individual_scores: (number | null)[]; meta?: unknown }
  >;
  readonly errors: RowError[];
}

const nanToNull = (value: number): number | null => (Number.isNaN(value) ? null : value);
const nullToNaN = (value: unknown): number => (typeof value === "number" ? value : Number.NaN);

/**
 * The inputs and scores of one evaluation run, with reports (Haystack's `EvaluationRunResult`):
 * `aggregatedReport()`, `detailedReport()`, `comparativeDetailedReport(other)`, plus
 * `comparativeReport(other)` (which rows got better or worse per metric), JSON, CSV and a
 * self-contained HTML page.
 *
 * @example
 * ```ts
 * const result = await evaluate(pipeline, "questions.jsonl", { inputs, evaluators });
 * console.table(result.aggregatedReport());
 * await writeFile("report.html", result.toHTML());
 * ```
 */
export class EvaluationRunResult {
  /** The run's name. */
  readonly runName: string;
  /** Input columns, one entry per row. */
  readonly inputs: Readonly<Record<string, readonly unknown[]>>;
  /** Metric name → result. */
  readonly results: Readonly<Record<string, MetricResult>>;
  /** Rows that failed. */
  readonly errors: readonly RowError[];
  /** The number of rows. */
  readonly rowCount: number;

  /**
   * @param init - run name, input columns, results per metric, row errors
   * @throws EvaluationInputError when columns or score lists differ in length, or a metric has no scores
   */
  constructor(init: EvaluationRunResultInit) {
    const columns = Object.entries(init.inputs);
    if (columns.length === 0)
      throw new EvaluationInputError(
        "EvaluationRunResult: no input columns. Give at least one (e.g. the questions).",
      );
    const rowCount = (columns[0] as [string, readonly unknown[]])[1].length;
    for (const [name, values] of columns) {
      if (values.length !== rowCount)
        throw new EvaluationInputError(
          `EvaluationRunResult: the input column "${name}" has ${values.length} rows, expected ${rowCount}. Give every column one entry per row.`,
          { socket: name },
        );
    }
    for (const [metric, result] of Object.entries(init.results)) {
      if (typeof result.score !== "number" || !Array.isArray(result.individual_scores))
        throw new EvaluationInputError(
          `EvaluationRunResult: the metric "${metric}" needs "score" and "individual_scores".`,
          { socket: metric },
        );
      if (result.individual_scores.length !== rowCount)
        throw new EvaluationInputError(
          `EvaluationRunResult: "${metric}" has ${result.individual_scores.length} individual scores, expected ${rowCount} (one per row).`,
          { socket: metric },
        );
    }
    this.runName = init.runName;
    this.inputs = init.inputs;
    this.results = init.results;
    this.errors = init.errors ?? [];
    this.rowCount = rowCount;
  }

  /** The metric names, in order. */
  get metrics(): string[] {
    return Object.keys(this.results);
  }

  /** `{ metrics: [...], score: [...] }`: the aggregated score of each metric (Haystack's shape). */
  aggregatedReport(): { metrics: string[]; score: number[] } {
    return {
      metrics: this.metrics,
      score: this.metrics.map((metric) => this.results[metric]?.score ?? Number.NaN),
    };
  }

  /** One column per input and per metric, one entry per row (Haystack's shape). */
  detailedReport(): Record<string, unknown[]> {
    const report: Record<string, unknown[]> = {};
    for (const [name, values] of Object.entries(this.inputs)) report[name] = [...values];
    for (const metric of this.metrics) report[metric] = [...(this.results[metric]?.individual_scores ?? [])];
    return report;
  }

  /**
   * Haystack's comparative detailed report: this run's input columns, then each run's metric columns
   * prefixed with its run name (`"<run>_<metric>"`). `keepColumns` also keeps those input columns of
   * both runs, prefixed. As in Haystack, the columns left out of the other run are this run's input
   * columns: an input column only the other run has is kept (prefixed). A warning is logged when both
   * runs have the same name or different input columns.
   */
  comparativeDetailedReport(
    other: EvaluationRunResult,
    options: { keepColumns?: readonly string[] } = {},
  ): Record<string, unknown[]> {
    const logger = getDefaultLogger();
    if (this.runName === other.runName) {
      logger.warn(
        `EvaluationRunResult.comparativeDetailedReport: both runs are named "${this.runName}", so their columns cannot be told apart. Give the runs different names.`,
      );
    }
    const mine = Object.keys(this.inputs);
    const theirs = Object.keys(other.inputs);
    if (mine.length !== theirs.length || mine.some((name) => !Object.hasOwn(other.inputs, name))) {
      logger.warn(
        `EvaluationRunResult.comparativeDetailedReport: the input columns differ between "${this.runName}" and "${other.runName}"; using the input columns of "${this.runName}".`,
      );
    }
    const keep = new Set(options.keepColumns ?? []);
    const ignored = (name: string) => Object.hasOwn(this.inputs, name) && !keep.has(name);
    const report: Record<string, unknown[]> = {};
    for (const [name, values] of Object.entries(this.detailedReport())) {
      report[ignored(name) ? name : `${this.runName}_${name}`] = values;
    }
    for (const [name, values] of Object.entries(other.detailedReport())) {
      if (!ignored(name)) report[`${other.runName}_${name}`] = values;
    }
    return report;
  }

  /**
   * Row by row against `other` (same dataset, same row order): for each metric both scores, the
   * difference, and which rows got better, worse or stayed the same.
   */
  comparativeReport(other: EvaluationRunResult): ComparativeReport {
    return compareRuns(this, other);
  }

  /** The JSON form (`NaN` as `null`); read it back with {@link EvaluationRunResult.fromJSON}. */
  toJSON(): EvaluationRunResultJSON {
    const results: EvaluationRunResultJSON["results"] = {};
    for (const [metric, result] of Object.entries(this.results)) {
      results[metric] = {
        score: nanToNull(result.score),
        individual_scores: result.individual_scores.map(nanToNull),
        ...(result.meta === undefined ? {} : { meta: result.meta }),
      };
    }
    return {
      format: "junction.evaluation-run",
      version: 1,
      run_name: this.runName,
      inputs: Object.fromEntries(Object.entries(this.inputs).map(([name, values]) => [name, [...values]])),
      results,
      errors: [...this.errors],
    };
  }

  /**
   * Reads what {@link EvaluationRunResult.toJSON} wrote.
   *
   * @throws EvaluationInputError when `json` is not an evaluation run
   */
  static fromJSON(json: unknown): EvaluationRunResult {
    const document = json as Partial<EvaluationRunResultJSON> | null;
    if (typeof document !== "object" || document === null || document.format !== "junction.evaluation-run") {
      throw new EvaluationInputError(
        'EvaluationRunResult.fromJSON: not an evaluation run (expected "format": "junction.evaluation-run"). Pass what toJSON() or junction eval --out wrote.',
      );
    }
    const results: Record<string, MetricResult> = {};
    for (const [metric, result] of Object.entries(document.results ?? {})) {
      const scores = (result.individual_scores ?? []).map(nullToNaN);
      results[metric] = {
        score: result.score === null ? meanOfValid(scores) : nullToNaN(result.score),
        individual_scores: scores,
        ...(result.meta === undefined ? {} : { meta: result.meta }),
      };
    }
    return new EvaluationRunResult({
      runName: String(document.run_name ?? "run"),
      inputs: document.inputs ?? {},
      results,
      errors: document.errors ?? [],
    });
  }

  /**
   * A report as CSV (RFC 4180; NaN written as `NaN`): the detailed report by default, or any report of
   * this class — Haystack's `output_format="csv"` for each of them, returned as text instead of written
   * to a file.
   *
   * @param report - the columns to write (default `detailedReport()`)
   * @example
   * ```ts
   * await writeFile("summary.csv", result.toCSV(result.aggregatedReport()));
   * await writeFile("compare.csv", result.toCSV(result.comparativeDetailedReport(other)));
   * ```
   */
  toCSV(report: Readonly<Record<string, readonly unknown[]>> = this.detailedReport()): string {
    return toCSV(report);
  }

  /**
   * A self-contained HTML page (inline CSS and SVG, no external assets): a bar chart per metric (with
   * `options.compare`'s scores beside this run's) and the per-question table. All text is escaped.
   */
  toHTML(options: HTMLReportOptions = {}): string {
    return renderHTML(this, options);
  }
}
