import { Document } from "@junction/documents";
import { ConversionError } from "../errors.js";
import { pythonCsvRecords, readPythonCsv } from "./python-csv.js";

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
 * Haystack's row mode: one document per data row of `csv.DictReader` (the first row is the header,
 * empty rows are skipped), content from `contentColumn`, then every other column in meta in header
 * order, Haystack's way: a key already in the meta being built (the base meta or an earlier column) is
 * written `csv_<name>`, then `csv_<name>_1`, .... Missing cells are `""`; cells beyond the header are
 * `extra_columns`, a list (Haystack writes the Python `str` of it); `row_number` counts data rows from 0.
 * Rows are parsed as Python's `csv` module does (a stray quote is text, not an error).
 *
 * @throws ConversionError (`corrupt`) for a row Python's reader refuses or a header without `contentColumn`
 */
export function csvRowDocuments(options: CsvRowOptions): Document[] {
  const { label, described } = options;
  let parsed: ReturnType<typeof pythonCsvRecords>;
  try {
    parsed = pythonCsvRecords(
      readPythonCsv(options.text, { delimiter: options.delimiter, quoteChar: options.quoteChar }),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConversionError(`${label}: ${described} is not valid CSV (${message}).`, {
      reason: "corrupt",
      source: described,
      cause: error,
    });
  }
  const { header, records } = parsed;
  if (!header.includes(options.contentColumn)) {
    throw new ConversionError(
      `${label}: ${described} has no column "${options.contentColumn}" (content_column). Its columns: ${header.map((name) => `"${name}"`).join(", ") || "none"}.`,
      { reason: "corrupt", source: described },
    );
  }
  return records.map((record, rowNumber) => {
    const meta: Record<string, unknown> = { ...options.baseMeta };
    const put = (name: string, value: unknown) => {
      let key = name;
      if (Object.hasOwn(meta, key)) {
        const base = `csv_${name}`;
        key = base;
        for (let suffix = 1; Object.hasOwn(meta, key); suffix++) key = `${base}_${suffix}`;
      }
      meta[key] = value;
    };
    for (const [name, value] of record.values) if (name !== options.contentColumn) put(name, value);
    if (record.rest !== undefined) put("extra_columns", record.rest);
    meta.row_number = rowNumber;
    return new Document({ content: record.values.get(options.contentColumn) ?? "", meta });
  });
}
