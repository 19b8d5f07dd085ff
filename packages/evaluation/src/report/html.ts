import type { EvaluationRunResult } from "./evaluation-run-result.js";

/** Options of `EvaluationRunResult.toHTML`. */
export interface HTMLReportOptions {
  /** Another run over the same dataset, shown beside this one (bars and per-row differences). */
  readonly compare?: EvaluationRunResult | undefined;
  /** The page title (default: "Evaluation: <run name>"). */
  readonly title?: string | undefined;
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and attribute values. */
export function escapeHTML(value: unknown): string {
  const text =
    typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
  return text.replace(/[&<>"']/g, (character) => escapes[character] as string);
}

const format = (score: number | undefined): string =>
  score === undefined || Number.isNaN(score) ? "—" : score.toFixed(3);

const colors = ["#2563eb", "#d97706"];

/** One SVG bar chart: a group of bars per metric (one bar per run), scores from 0 to 1. */
function chart(runs: readonly EvaluationRunResult[], metrics: readonly string[]): string {
  const barHeight = 18;
  const groupHeight = runs.length * barHeight + 14;
  const labelWidth = 150;
  const barWidth = 420;
  const height = metrics.length * groupHeight + 30;
  const parts: string[] = [];
  metrics.forEach((metric, metricIndex) => {
    const top = metricIndex * groupHeight + 6;
    parts.push(
      `<text x="${labelWidth - 8}" y="${top + (runs.length * barHeight) / 2 + 5}" text-anchor="end" class="label">${escapeHTML(metric)}</text>`,
    );
    runs.forEach((run, runIndex) => {
      const score = run.results[metric]?.score ?? Number.NaN;
      const width = Number.isNaN(score) ? 0 : Math.max(0, Math.min(1, score)) * barWidth;
      const y = top + runIndex * barHeight;
      parts.push(
        `<rect x="${labelWidth}" y="${y}" width="${width.toFixed(1)}" height="${barHeight - 4}" fill="${colors[runIndex % colors.length]}"><title>${escapeHTML(`${run.runName} ${metric}: ${format(score)}`)}</title></rect>`,
        `<text x="${labelWidth + width + 6}" y="${y + barHeight - 7}" class="value">${format(score)}</text>`,
      );
    });
  });
  const legend = runs
    .map(
      (run, index) =>
        `<rect x="${labelWidth + index * 180}" y="${height - 18}" width="12" height="12" fill="${colors[index % colors.length]}"/><text x="${labelWidth + index * 180 + 18}" y="${height - 8}" class="label">${escapeHTML(run.runName)}</text>`,
    )
    .join("");
  return `<svg class="chart" role="img" aria-label="Scores per metric" width="${labelWidth + barWidth + 60}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 60} ${height}">${parts.join("")}${legend}</svg>`;
}

function scoreCell(score: number | undefined, other: number | undefined): string {
  if (other === undefined) return `<td class="num">${format(score)}</td>`;
  const a = score ?? Number.NaN;
  const delta = a - other;
  const change = Number.isNaN(delta) || Math.abs(delta) < 1e-12 ? "" : delta > 0 ? "better" : "worse";
  return `<td class="num ${change}">${format(a)} <span class="other">(${format(other)})</span></td>`;
}

function table(
  run: EvaluationRunResult,
  metrics: readonly string[],
  other: EvaluationRunResult | undefined,
): string {
  const columns = Object.keys(run.inputs);
  const errors = new Map<number, string[]>();
  for (const error of run.errors) {
    const list = errors.get(error.rowIndex) ?? [];
    list.push(`${error.stage}: ${error.message}`);
    errors.set(error.rowIndex, list);
  }
  const head = ["#", ...columns, ...metrics].map((name) => `<th>${escapeHTML(name)}</th>`).join("");
  const body: string[] = [];
  for (let row = 0; row < run.rowCount; row += 1) {
    const inputs = columns.map((name) => `<td>${escapeHTML(run.inputs[name]?.[row])}</td>`).join("");
    const scores = metrics
      .map((metric) =>
        scoreCell(
          run.results[metric]?.individual_scores[row],
          other?.results[metric]?.individual_scores[row],
        ),
      )
      .join("");
    const rowErrors = errors.get(row);
    const title =
      rowErrors === undefined ? "" : ` class="failed" title="${escapeHTML(rowErrors.join("\n"))}"`;
    body.push(`<tr${title}><td class="num">${row}</td>${inputs}${scores}</tr>`);
  }
  return `<table><thead><tr>${head}</tr></thead><tbody>${body.join("")}</tbody></table>`;
}

const style = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#111;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f5;position:sticky;top:0}td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.better{background:#dcfce7}td.worse{background:#fee2e2}.other{color:#666;font-size:.85em}
tr.failed td{color:#b91c1c}.chart .label{font-size:12px;fill:#111}.chart .value{font-size:11px;fill:#333}
ul.errors{color:#b91c1c}
`;

/** Renders the self-contained HTML report. */
export function renderHTML(run: EvaluationRunResult, options: HTMLReportOptions): string {
  const other = options.compare;
  const metrics = run.metrics;
  const runs = other === undefined ? [run] : [run, other];
  const title =
    options.title ?? `Evaluation: ${run.runName}${other === undefined ? "" : ` vs ${other.runName}`}`;
  const errorList =
    run.errors.length === 0
      ? ""
      : `<h2>Errors (${run.errors.length})</h2><ul class="errors">${run.errors
          .map(
            (error) =>
              `<li>row ${error.rowIndex}, ${escapeHTML(error.stage)}: ${escapeHTML(error.message)}</li>`,
          )
          .join("")}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHTML(title)}</title><style>${style}</style></head>
<body><h1>${escapeHTML(title)}</h1>
<p>${run.rowCount} questions, ${metrics.length} metrics${other === undefined ? "" : `; in parentheses: ${escapeHTML(other.runName)}`}.</p>
<h2>Scores</h2>${chart(runs, metrics)}
<h2>Per question</h2>${table(run, metrics, other)}${errorList}
</body></html>
`;
}
