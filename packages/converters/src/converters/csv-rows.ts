import { Document } from "@junction/documents";
import { parse } from "csv-parse/sync";
import { ConversionError } from "../errors.js";

/** What {@link csvRowDocuments} needs. */
export interface CsvRowOptions {
  /** The decoded CSV text. */
  readonly text: string;
  /** The column whose cells become the documents' content. */
  readonly contentColumn: string;
  /** The field delimiter (one character). */
  readonly delimiter: string;
  /** The quote character (one character). */
  readonly quoteChar: string;
  /** The meta every row starts from (stream meta and the `meta` input, merged). */
  readonly baseMeta: Readonly<Record<string, unknown>>;
  /** The component as messages name it. */
  readonly label: string;
  /** The source as messages name it. */
  readonly described: string;
}

/**
 * Haystack's row mode: one document per data row (the first row is the header), content from
 * `contentColumn`, every other column in meta (a name already in the base meta is written `csv_<name>`,
 * then `csv_<name>_1`, ...), `row_number` counting data rows from 0. Missing cells are `""`; cells beyond
 * the header go to `extra_columns` as a list. Empty lines are skipped.
 *
 * @throws ConversionError (`corrupt`) for unparsable CSV or a header without `contentColumn`
 */
export function csvRowDocuments(options: CsvRowOptions): Document[] {
  const { label, described } = options;
  let rows: string[][];
  try {
    rows = parse(options.text, {
      delimiter: options.delimiter,
      quote: options.quoteChar,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
    }) as string[][];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConversionError(`${label}: ${described} is not valid CSV (${message}).`, {
      reason: "corrupt",
      source: described,
      cause: error,
    });
  }
  const header = rows[0] ?? [];
  const contentIndex = header.indexOf(options.contentColumn);
  if (contentIndex < 0) {
    throw new ConversionError(
      `${label}: ${described} has no column "${options.contentColumn}" (content_column). Its columns: ${header.map((name) => `"${name}"`).join(", ") || "none"}.`,
      { reason: "corrupt", source: described },
    );
  }
  const keys = metaKeys(header, contentIndex, options.baseMeta);
  const documents: Document[] = [];
  for (let rowIndex = 1; rowIndex < rows.length; rowIndex++) {
    const row = rows[rowIndex] as string[];
    const meta: Record<string, unknown> = { ...options.baseMeta };
    for (let column = 0; column < header.length; column++) {
      const key = keys[column];
      if (key !== undefined) meta[key] = row[column] ?? "";
    }
    if (row.length > header.length) meta.extra_columns = row.slice(header.length);
    meta.row_number = rowIndex - 1;
    documents.push(new Document({ content: row[contentIndex] ?? "", meta }));
  }
  return documents;
}

/** The meta key of each column (`undefined` for the content column), avoiding the base meta's keys. */
function metaKeys(
  header: readonly string[],
  contentIndex: number,
  baseMeta: Readonly<Record<string, unknown>>,
): (string | undefined)[] {
  const taken = new Set(Object.keys(baseMeta));
  return header.map((name, column) => {
    if (column === contentIndex) return undefined;
    if (!taken.has(name)) return name;
    let key = `csv_${name}`;
    for (let suffix = 1; taken.has(key); suffix++) key = `csv_${name}_${suffix}`;
    taken.add(key);
    return key;
  });
}
