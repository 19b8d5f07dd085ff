import { EvaluationInputError } from "../errors.js";
import type { EvaluationRunResult } from "./evaluation-run-result.js";

/** One metric of a comparison. */
export interface MetricComparison {
  /** The metric name. */
  readonly metric: string;
  /** This run's score. */
  readonly score: number;
  /** The other run's score. */
  readonly otherScore: number;
  /** `score - otherScore` (positive: this run is better). */
  readonly delta: number;
  /** Rows where this run scored higher. */
  readonly better: number[];
  /** Rows where this run scored lower. */
  readonly worse: number[];
  /** Rows with equal scores (NaN on both sides counts as equal). */
  readonly unchanged: number;
}

/** One row whose score changed in at least one metric. */
export interface RowChange {
  /** The 0-based row index. */
  readonly rowIndex: number;
  /** The row's input columns (question, id, …). */
  readonly inputs: Record<string, unknown>;
  /** Metric → this run's score, the other's and the difference (only metrics that changed). */
  readonly changes: Record<string, { score: number; otherScore: number; delta: number }>;
}

/** What `comparativeReport` returns. */
export interface ComparativeReport {
  /** This run's name and the other's. */
  readonly runs: readonly [string, string];
  /** The metrics both runs have. */
  readonly metrics: readonly MetricComparison[];
  /** The rows that changed, in row order. */
  readonly rows: readonly RowChange[];
}

const same = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));
const epsilon = 1e-12;

/** Compares two runs over the same dataset row by row. */
export function compareRuns(run: EvaluationRunResult, other: EvaluationRunResult): ComparativeReport {
  if (run.rowCount !== other.rowCount) {
    throw new EvaluationInputError(
      `comparativeReport: "${run.runName}" has ${run.rowCount} rows but "${other.runName}" has ${other.rowCount}. Compare runs over the same dataset.`,
    );
  }
  const metrics = run.metrics.filter((metric) => Object.hasOwn(other.results, metric));
  const rows = new Map<number, RowChange>();
  const comparisons = metrics.map((metric): MetricComparison => {
    const mine = run.results[metric]?.individual_scores ?? [];
    const theirs = other.results[metric]?.individual_scores ?? [];
    const better: number[] = [];
    const worse: number[] = [];
    let unchanged = 0;
    for (let index = 0; index < run.rowCount; index += 1) {
      const a = mine[index] as number;
      const b = theirs[index] as number;
      if (same(a, b) || Math.abs(a - b) < epsilon) {
        unchanged += 1;
        continue;
      }
      if (a > b || (Number.isNaN(b) && !Number.isNaN(a))) better.push(index);
      else worse.push(index);
      let row = rows.get(index);
      if (row === undefined) {
        const inputs = Object.fromEntries(
          Object.entries(run.inputs).map(([name, values]) => [name, values[index]]),
        );
        row = { rowIndex: index, inputs, changes: {} };
        rows.set(index, row);
      }
      row.changes[metric] = { score: a, otherScore: b, delta: a - b };
    }
    const score = run.results[metric]?.score ?? Number.NaN;
    const otherScore = other.results[metric]?.score ?? Number.NaN;
    return { metric, score, otherScore, delta: score - otherScore, better, worse, unchanged };
  });
  return {
    runs: [run.runName, other.runName],
    metrics: comparisons,
    rows: [...rows.values()].sort((a, b) => a.rowIndex - b.rowIndex),
  };
}
