import { readFile } from "node:fs/promises";
import { DatasetError } from "../errors.js";

/** One labeled question of a dataset: any JSON fields (`question`, `ground_truth_documents`, …). */
export type DatasetRow = Readonly<Record<string, unknown>>;

/** What `evaluate` takes as a dataset: the rows, or the path of a JSONL file (one JSON object a line). */
export type Dataset = readonly DatasetRow[] | string;

function isRow(value: unknown): value is DatasetRow {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses JSONL text: one JSON object per non-blank line.
 *
 * @param text - the file's text
 * @param file - the file name, for messages
 * @throws DatasetError naming the 1-based line of a line that is not a JSON object, or when there is no row
 */
export function parseJSONL(text: string, file = "<dataset>"): DatasetRow[] {
  const rows: DatasetRow[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new DatasetError(
        `${file}:${index + 1}: not valid JSON (${(error as Error).message}). Write one JSON object per line.`,
        { file, line: index + 1 },
      );
    }
    if (!isRow(value)) {
      throw new DatasetError(
        `${file}:${index + 1}: a row must be a JSON object, got ${JSON.stringify(value)?.slice(0, 40)}.`,
        {
          file,
          line: index + 1,
        },
      );
    }
    rows.push(value);
  });
  if (rows.length === 0) throw new DatasetError(`${file}: the dataset has no rows.`, { file });
  return rows;
}

/**
 * The rows of a dataset: an array as given (checked), or a JSONL file read and parsed.
 *
 * @throws DatasetError when the file is missing or a line is not a JSON object
 */
export async function loadDataset(dataset: Dataset): Promise<DatasetRow[]> {
  if (typeof dataset !== "string") {
    const bad = dataset.findIndex((row) => !isRow(row));
    if (bad !== -1) throw new DatasetError(`evaluate: dataset row ${bad} is not an object.`);
    if (dataset.length === 0) throw new DatasetError("evaluate: the dataset has no rows.");
    return [...dataset];
  }
  let text: string;
  try {
    text = await readFile(dataset, "utf8");
  } catch (error) {
    throw new DatasetError(`${dataset}: cannot read the dataset (${(error as Error).message}).`, {
      file: dataset,
      cause: error,
    });
  }
  return parseJSONL(text, dataset);
}
