import { Document } from "@junction/documents";
import type { DatasetRow } from "./dataset.js";

/**
 * Where an evaluator input comes from, for one row: `"row.<field>"` reads a dataset field (dotted paths
 * walk nested objects), any other `"component.socket"` reads a pipeline output, and a function computes
 * the value from the row and the pipeline outputs.
 */
export type InputSource =
  | string
  | ((context: {
      readonly row: DatasetRow;
      readonly outputs: PipelineOutputsOf;
      readonly rowIndex: number;
    }) => unknown);

/** A pipeline's outputs: `{ component: { socket: value } }`. */
export type PipelineOutputsOf = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** Reads a dotted path from an object; `undefined` when a step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split(".")) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The components whose outputs `sources` read (to ask the pipeline for them with `includeOutputsFrom`). */
export function componentsRead(sources: readonly InputSource[]): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    if (typeof source !== "string" || source.startsWith("row.")) continue;
    const dot = source.indexOf(".");
    names.add(dot === -1 ? source : source.slice(0, dot));
  }
  return [...names];
}

/** Resolves one source for one row. */
export function resolveSource(
  source: InputSource,
  context: { readonly row: DatasetRow; readonly outputs: PipelineOutputsOf; readonly rowIndex: number },
): unknown {
  if (typeof source === "function") return source(context);
  if (source.startsWith("row.")) return readPath(context.row, source.slice(4));
  return readPath(context.outputs, source);
}

function toDocument(value: unknown): unknown {
  if (value instanceof Document) return value;
  if (typeof value === "string") return new Document({ content: value });
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return Document.fromJSON(value);
  return value;
}

/** The text of a ChatMessage-like value, a Document's content, or the first element of a list. */
function toText(value: unknown): unknown {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.length === 0 ? "" : toText(value[0]);
  if (value instanceof Document) return value.content ?? "";
  if (typeof value === "object" && value !== null && "text" in value) {
    const text = (value as { text: unknown }).text;
    return typeof text === "string" ? text : "";
  }
  return value;
}

const documentSockets = new Set(["ground_truth_documents", "retrieved_documents"]);
const textSockets = new Set(["questions", "predicted_answers", "ground_truth_answers"]);

/**
 * Converts a row's value to what an evaluator socket takes, so datasets and pipelines can be wired
 * without glue: document sockets take `Document`s (JSON objects and strings are converted),
 * `contexts` takes texts (documents give their content), answer and question sockets take one text
 * (a chat reply list gives its first reply's text). Other sockets get the value unchanged.
 */
export function coerceForSocket(socket: string, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (documentSockets.has(socket)) return Array.isArray(value) ? value.map(toDocument) : value;
  if (socket === "contexts") {
    const list = Array.isArray(value) ? value : [value];
    return list.map((item) => (item instanceof Document ? (item.content ?? "") : item));
  }
  if (textSockets.has(socket)) return toText(value);
  return value;
}
