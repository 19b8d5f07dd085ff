import { type Bm25Row, bm25Bench } from "./bm25.js";
import { type EmbeddingRow, embeddingBench } from "./embedding.js";
import { type SplittingRow, splittingBench } from "./splitting.js";

/** The results of the retrieval group. */
export interface RetrievalResults {
  readonly bm25: Bm25Row[];
  readonly embedding: EmbeddingRow[];
  readonly splitting: SplittingRow[];
}

/**
 * `pnpm bench retrieval`: BM25 (Junction vs MiniSearch vs Orama) at 10k and 100k documents, and exact
 * embedding top-k over 100k × 384 against the plain-loop floor, and splitting one document of 200k and
 * 800k words. `quick` uses tiny sizes (CI smoke run).
 */
export async function retrievalBench(quick: boolean): Promise<RetrievalResults> {
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  // Orama needs seconds per query at 100k documents, hence fewer queries there.
  const bm25 = quick
    ? await bm25Bench([1_000], 20, progress)
    : [...(await bm25Bench([10_000], 100, progress)), ...(await bm25Bench([100_000], 20, progress))];
  progress("retrieval: exact embedding top-k");
  const embedding = quick ? await embeddingBench(2_000, 64, 5) : await embeddingBench(100_000, 384, 10);
  progress("retrieval: splitting one long document");
  const splitting = await splittingBench(quick ? 5_000 : 200_000);
  return { bm25, embedding, splitting };
}

function format(value: number): string {
  if (!Number.isFinite(value)) return "—";
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toPrecision(3);
}

/** The results as text tables. */
export function formatRetrieval(results: RetrievalResults): string {
  const lines: string[] = [];
  const table = (header: string[], body: string[][]) => {
    const widths = header.map((cell, index) =>
      Math.max(cell.length, ...body.map((row) => row[index]!.length)),
    );
    const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join("  ");
    lines.push(line(header), line(widths.map((width) => "-".repeat(width))), ...body.map(line));
  };
  lines.push("", "Retrieval: BM25 (synthetic Zipf corpus, seeded)");
  table(
    ["measure", "unit", "Junction", "MiniSearch", "Orama", "Junction/MiniSearch"],
    results.bm25.map((row) => [
      row.measure,
      row.unit,
      format(row.junction),
      format(row.minisearch),
      format(row.orama),
      format(row.junction / row.minisearch),
    ]),
  );
  lines.push("", "Retrieval: exact embedding search (dot product)");
  table(
    ["measure", "unit", "Junction", "floor", "Junction/floor"],
    results.embedding.map((row) => [
      row.measure,
      row.unit,
      format(row.junction),
      format(row.floor),
      format(row.junction / row.floor),
    ]),
  );
  lines.push(
    "",
    "Retrieval: splitting one long document (wall ms; a linear splitter takes ~4× on 4× the words)",
  );
  table(
    ["splitter", "unit", "N words", "4N words", "4N / N"],
    results.splitting.map((row) => [
      row.measure,
      row.unit,
      format(row.small),
      format(row.large),
      format(row.large / row.small),
    ]),
  );
  return `${lines.join("\n")}\n`;
}
