import { Document } from "@junction/documents";
import { EvaluationInputError } from "../errors.js";

/**
 * Input checks shared by the evaluators. Every message names the evaluator, the input socket and the
 * row index, says what is wrong, and how to fix it.
 */

/**
 * Throws unless every list has the same length, and (unless `allowEmpty`) at least one row. The LLM
 * judges allow no rows, as Haystack's do (no results, a NaN score); the metrics refuse them (Haystack
 * fails with a division by zero).
 */
export function checkSameLength(
  evaluator: string,
  lists: Readonly<Record<string, readonly unknown[]>>,
  options: { readonly allowEmpty?: boolean } = {},
): number {
  const entries = Object.entries(lists);
  const [firstName, first] = entries[0] as [string, readonly unknown[]];
  for (const [name, list] of entries.slice(1)) {
    if (list.length !== first.length) {
      throw new EvaluationInputError(
        `${evaluator}: "${firstName}" has ${first.length} rows but "${name}" has ${list.length}. Give one entry per question in every input.`,
        { componentType: evaluator, socket: name },
      );
    }
  }
  if (first.length === 0 && options.allowEmpty !== true) {
    throw new EvaluationInputError(
      `${evaluator}: the inputs are empty (no rows in ${entries.map(([name]) => `"${name}"`).join(", ")}). Give at least one question.`,
      { componentType: evaluator, socket: firstName },
    );
  }
  return first.length;
}

/**
 * Throws when a row of a document-list input is not a list of `Document`s. An empty row is fine: a
 * question without ground truth scores 0, as in Haystack.
 */
export function checkDocumentRows(evaluator: string, socket: string, rows: readonly unknown[]): void {
  rows.forEach((row, rowIndex) => {
    if (!Array.isArray(row)) {
      throw new EvaluationInputError(
        `${evaluator}: "${socket}"[${rowIndex}] is ${row === undefined ? "missing" : `not a list (${typeof row})`}. Give a list of Documents for every question.`,
        { componentType: evaluator, socket, rowIndex },
      );
    }
    const bad = row.findIndex((item) => !(item instanceof Document));
    if (bad !== -1) {
      throw new EvaluationInputError(
        `${evaluator}: "${socket}"[${rowIndex}][${bad}] is not a Document. Wrap the value: new Document({ content }) or Document.fromJSON(json).`,
        { componentType: evaluator, socket, rowIndex },
      );
    }
  });
}

/** Throws when a row of a text input is not a string. */
export function checkTextRows(evaluator: string, socket: string, rows: readonly unknown[]): void {
  rows.forEach((row, rowIndex) => {
    if (typeof row !== "string") {
      throw new EvaluationInputError(
        `${evaluator}: "${socket}"[${rowIndex}] is ${row === undefined || row === null ? "missing" : `a ${typeof row}, not a string`}. Give a text for every question.`,
        { componentType: evaluator, socket, rowIndex },
      );
    }
  });
}

/** The mean of the scores that are numbers (NaN left out); NaN when none is. */
export function meanOfValid(scores: readonly number[]): number {
  let sum = 0;
  let count = 0;
  for (const score of scores) {
    if (Number.isNaN(score)) continue;
    sum += score;
    count += 1;
  }
  return count === 0 ? Number.NaN : sum / count;
}
