/**
 * A CSV reader that parses as Python's `csv.reader` does with the default `excel` dialect (non-strict,
 * `doublequote`, no escape character) over `io.StringIO(text)` — what Haystack's `CSVToDocument` reads
 * rows with. Forgiving where Python is: a quote inside an unquoted field is kept (`5" screen`), text after
 * a closing quote is appended (`"abc"def` → `abcdef`), and an unclosed quote takes the rest of the file.
 */

/** A row Python's reader refuses (a line break inside an unquoted field, e.g. a lone `"\r"`). */
export class PythonCsvError extends Error {
  override readonly name = "PythonCsvError";
}

/** The reader's states, named as in CPython's `_csv.c`. */
enum State {
  StartRecord,
  StartField,
  InField,
  InQuotedField,
  QuoteInQuotedField,
  EatCrnl,
}

/**
 * Where the run of characters that `state` would simply append ends: inside an unquoted field everything
 * but the delimiter and line breaks, inside a quoted one everything but the quote character.
 */
function ordinaryRunEnd(
  text: string,
  from: number,
  end: number,
  state: State,
  { delimiter, quoteChar }: PythonCsvOptions,
): number {
  let stop = from;
  if (state === State.InField) {
    while (stop < end) {
      const char = text[stop];
      if (char === delimiter || char === "\n" || char === "\r") break;
      stop += 1;
    }
  } else if (state === State.InQuotedField) {
    while (stop < end && text[stop] !== quoteChar) stop += 1;
  }
  return stop;
}

/** The options of {@link readPythonCsv}. */
export interface PythonCsvOptions {
  /** The field delimiter (one character). */
  readonly delimiter: string;
  /** The quote character (one character). */
  readonly quoteChar: string;
}

/**
 * Every row of `text`, as lists of fields; an empty line gives an empty row (Python's `[]`), which
 * `csv.DictReader` skips after the header.
 *
 * @throws PythonCsvError where Python raises `csv.Error`
 */
export function readPythonCsv(text: string, options: PythonCsvOptions): string[][] {
  const { delimiter, quoteChar } = options;
  const rows: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let state = State.StartRecord;
  let lineNumber = 0;

  const saveField = () => {
    fields.push(field);
    field = "";
  };
  // No field size limit: Python's csv.field_size_limit() (131,072 characters) would fail a file with a
  // long cell; the converter's maxFileBytes bounds the input instead.
  const addChar = (char: string) => {
    field += char;
  };

  /** One character of a line, or `undefined` for the end of the line (CPython's EOL). */
  const processChar = (char: string | undefined) => {
    switch (state) {
      case State.StartRecord:
        if (char === undefined) return;
        if (char === "\n" || char === "\r") {
          state = State.EatCrnl;
          return;
        }
        state = State.StartField;
        processStartField(char);
        return;
      case State.StartField:
        processStartField(char);
        return;
      case State.InField:
        if (char === undefined || char === "\n" || char === "\r") {
          saveField();
          state = char === undefined ? State.StartRecord : State.EatCrnl;
        } else if (char === delimiter) {
          saveField();
          state = State.StartField;
        } else {
          addChar(char);
        }
        return;
      case State.InQuotedField:
        if (char === undefined) return;
        if (char === quoteChar) state = State.QuoteInQuotedField;
        else addChar(char);
        return;
      case State.QuoteInQuotedField:
        if (char === quoteChar) {
          addChar(char);
          state = State.InQuotedField;
        } else if (char === delimiter) {
          saveField();
          state = State.StartField;
        } else if (char === undefined || char === "\n" || char === "\r") {
          saveField();
          state = char === undefined ? State.StartRecord : State.EatCrnl;
        } else {
          addChar(char);
          state = State.InField;
        }
        return;
      case State.EatCrnl:
        if (char === "\n" || char === "\r") return;
        if (char === undefined) {
          state = State.StartRecord;
          return;
        }
        throw new PythonCsvError(
          `line ${lineNumber}: new-line character seen in unquoted field - do you need to open the file with newline=''?`,
        );
    }
  };
  const processStartField = (char: string | undefined) => {
    if (char === undefined || char === "\n" || char === "\r") {
      saveField();
      state = char === undefined ? State.StartRecord : State.EatCrnl;
    } else if (char === quoteChar) {
      state = State.InQuotedField;
    } else if (char === delimiter) {
      saveField();
    } else {
      addChar(char);
      state = State.InField;
    }
  };

  // io.StringIO yields lines ending at "\n" (no newline translation); the reader sees each line's
  // characters, then an end-of-line marker, and returns a row once it is back at the start of a record.
  let position = 0;
  while (position < text.length) {
    const newline = text.indexOf("\n", position);
    const end = newline < 0 ? text.length : newline + 1;
    lineNumber += 1;
    for (let index = position; index < end; ) {
      // Fast path: inside a field, copy the run of ordinary characters at once.
      const stop = ordinaryRunEnd(text, index, end, state, options);
      if (stop > index) {
        field += text.slice(index, stop);
        index = stop;
        continue;
      }
      processChar(text[index]);
      index += 1;
    }
    processChar(undefined);
    position = end;
    if (state === State.StartRecord) {
      rows.push(fields);
      fields = [];
    }
  }
  // End of input inside a record: non-strict Python saves the field and returns the row.
  // (a cast: TypeScript does not see the closures above change `state`)
  if (field.length > 0 || (state as State) === State.InQuotedField) {
    saveField();
    rows.push(fields);
  }
  return rows;
}

/** The columns of one data row as `csv.DictReader` builds its dict (with `restkey`). */
export interface PythonCsvRecord {
  /** Column name → value, in the order Python's dict keeps (first occurrence; the last value wins). */
  readonly values: Map<string, string>;
  /** Fields beyond the header (`restkey`), or `undefined` when there are none. */
  readonly rest: string[] | undefined;
}

/**
 * `csv.DictReader(restval=None, restkey=...)` over {@link readPythonCsv}'s rows: the first row is the
 * header; empty rows after it are skipped; a short row's missing cells are `""` (Haystack turns `None`
 * into `""`); a long row's extra cells are `rest`.
 */
export function pythonCsvRecords(rows: readonly string[][]): {
  header: string[];
  records: PythonCsvRecord[];
} {
  const header = rows[0] ?? [];
  const records: PythonCsvRecord[] = [];
  for (let index = 1; index < rows.length; index += 1) {
    const row = rows[index] as string[];
    if (row.length === 0) continue;
    const values = new Map<string, string>();
    header.forEach((name, column) => {
      values.set(name, row[column] ?? "");
    });
    records.push({ values, rest: row.length > header.length ? row.slice(header.length) : undefined });
  }
  return { header, records };
}
