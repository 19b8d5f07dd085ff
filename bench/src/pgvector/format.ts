import type { PgvectorResults } from "./pgvector-bench.js";

function format(value: number): string {
  if (!Number.isFinite(value)) return "—";
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toPrecision(3);
}

function table(lines: string[], header: string[], body: string[][]): void {
  const widths = header.map((cell, index) => Math.max(cell.length, ...body.map((row) => row[index]!.length)));
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join("  ");
  lines.push(line(header), line(widths.map((width) => "-".repeat(width))), ...body.map(line));
}

/** The pgvector results as text tables. */
export function formatPgvector(results: PgvectorResults): string {
  const lines: string[] = [
    "",
    `Postgres: PgvectorDocumentStore on PGlite vs InMemoryDocumentStore (${results.documents} × ${results.dimension}, seeded)`,
  ];
  table(
    lines,
    ["measure", "unit", "in-memory", "PGlite"],
    results.rows.map((row) => [row.measure, row.unit, format(row.inMemory), format(row.pglite)]),
  );
  lines.push("", "Postgres: HNSW recall@10 against exact search");
  table(
    lines,
    ["filter", "ef_search", "recall (iterative scan)", "recall (post-filter)", "results (post-filter)"],
    results.recall.map((row) => [
      row.filter,
      String(row.efSearch),
      row.iterative.toFixed(3),
      row.plain.toFixed(3),
      row.plainReturned.toFixed(1),
    ]),
  );
  return `${lines.join("\n")}\n`;
}
