import { JunctionError, type JunctionErrorFields } from "@junction/core";

/** Structured fields of an {@link EvaluationInputError}: which row and which input. */
export interface EvaluationInputErrorFields extends JunctionErrorFields {
  /** The 0-based index of the offending row (question), when one row is at fault. */
  readonly rowIndex?: number | undefined;
}

/**
 * An evaluator or `evaluate()` got inputs it cannot score: lists of different lengths, no rows, a row
 * without ground truth, a missing field or a value of the wrong kind. The message names the input socket
 * and the row index; `socket` and `rowIndex` carry them for code.
 */
export class EvaluationInputError extends JunctionError {
  /** The 0-based index of the offending row, when one row is at fault. */
  readonly rowIndex: number | undefined;

  /** @param message - names the socket, the row, the fact and the fix @param fields - structured fields */
  constructor(message: string, fields: EvaluationInputErrorFields = {}) {
    super("EVALUATION_INPUT_ERROR", message, fields);
    this.rowIndex = fields.rowIndex;
  }
}

/** Structured fields of a {@link DatasetError}. */
export interface DatasetErrorFields extends JunctionErrorFields {
  /** The file the dataset was read from, when it was a file. */
  readonly file?: string | undefined;
  /** The 1-based line number of the bad line in a JSONL file. */
  readonly line?: number | undefined;
}

/** A dataset could not be read: a missing file, a JSONL line that is not a JSON object, no rows. */
export class DatasetError extends JunctionError {
  /** The file the dataset was read from. */
  readonly file: string | undefined;
  /** The 1-based line number of the bad line. */
  readonly line: number | undefined;

  /** @param message - names the file and line, the fact and the fix @param fields - structured fields */
  constructor(message: string, fields: DatasetErrorFields = {}) {
    super("EVALUATION_DATASET_ERROR", message, fields);
    this.file = fields.file;
    this.line = fields.line;
  }
}
