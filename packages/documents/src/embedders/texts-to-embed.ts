import type { Document } from "../document/document.js";
import { pythonDatetimeStr, pythonNumberRepr } from "../document/python-format.js";

/** How a document embedder composes the text it sends for each document. */
export interface TextComposition {
  /** Put before every text. */
  readonly prefix: string;
  /** Put after every text. */
  readonly suffix: string;
  /** Meta fields whose values are embedded before the content, in this order. */
  readonly metaFieldsToEmbed: readonly string[];
  /** Joins the meta values and the content. */
  readonly embeddingSeparator: string;
}

/**
 * A meta value as text, as Haystack's `str(value)` writes it for scalars, so the same document sends the
 * same text from Haystack and Junction: strings as they are, booleans as `True` / `False`, numbers as
 * Python prints them (`0.5`, `1e-05`; integral numbers as ints), dates as `str(datetime)`. Lists and
 * objects are written as JSON (Python would print its `repr`).
 */
export function metaValueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pythonNumberRepr(value);
  if (typeof value === "bigint") return String(value);
  if (value instanceof Date) return pythonDatetimeStr(value);
  return JSON.stringify(value) ?? String(value);
}

/**
 * The text to embed for each document, keyed by document id, as Haystack's document embedders compose
 * it: `prefix + separator.join([...meta values, content]) + suffix`, where the meta values are those of
 * `metaFieldsToEmbed` that are present and not null, and a document without content contributes `""`.
 *
 * Documents that share an id share one text (the last one's) and one embedding, as in Haystack; the
 * map keeps the order in which ids first appear.
 *
 * @param documents - the documents to embed
 * @param composition - prefix, suffix, meta fields and separator
 */
export function textsToEmbed(
  documents: readonly Document[],
  composition: TextComposition,
): Map<string, string> {
  const { prefix, suffix, metaFieldsToEmbed, embeddingSeparator } = composition;
  const texts = new Map<string, string>();
  for (const document of documents) {
    const parts: string[] = [];
    for (const key of metaFieldsToEmbed) {
      const value = Object.hasOwn(document.meta, key) ? document.meta[key] : undefined;
      if (value !== null && value !== undefined) parts.push(metaValueText(value));
    }
    parts.push(document.content ?? "");
    texts.set(document.id, prefix + parts.join(embeddingSeparator) + suffix);
  }
  return texts;
}
