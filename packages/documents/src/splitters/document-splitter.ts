import { ComponentError, defineComponent } from "@junction/core";
import { z } from "zod";
import { Document } from "../document/document.js";
import { componentLabel } from "../joiners/component-label.js";
import { documentListSchema } from "../joiners/document-list.js";
import { chunkDocuments, copyMeta } from "./chunk-documents.js";
import { documentSplitterSerializer, type SplittingFunction } from "./document-splitter-serializer.js";
import { sentenceWordSpans } from "./sentence-word-chunks.js";
import { refineLanguage, refineOverlap } from "./split-options.js";
import { concatenateUnits, splitByUnits, unitBounds } from "./split-units.js";

const params = z
  .object({
    splitBy: z.enum([...splitByUnits, "function"]).default("word"),
    /** With `splitBy: "function"`: the function cutting a text into the chunks' texts. */
    splittingFunction: z
      .custom<SplittingFunction>((value) => typeof value === "function", {
        message: "splittingFunction must be a function from a text to a list of strings",
      })
      .optional(),
    splitLength: z.number().int().min(1, "splitLength must be at least 1").default(200),
    splitOverlap: z.number().int().min(0, "splitOverlap must not be negative").default(0),
    splitThreshold: z.number().int().min(0, "splitThreshold must not be negative").default(0),
    language: z.string().default("en"),
    skipEmptyDocuments: z.boolean().default(true),
    respectSentenceBoundary: z.boolean().default(false),
  })
  .superRefine((value, context) => {
    refineOverlap(value, context);
    if (value.splitBy === "function" && value.splittingFunction === undefined) {
      context.addIssue({
        code: "custom",
        path: ["splittingFunction"],
        message:
          'splitBy "function" needs a splittingFunction: a function from a text to the list of its chunks\' texts.',
      });
    }
    if (value.splitBy === "sentence" || (value.respectSentenceBoundary && value.splitBy === "word")) {
      refineLanguage(value.language, context, "language");
    }
  });

/**
 * Splits documents into chunks of `splitLength` units, as Haystack's `DocumentSplitter` does: units
 * are words (`" "`), sentences (ended as Haystack's `SentenceSplitter` ends them, found with
 * `Intl.Segmenter` for `language`), passages (`"\n\n"`), pages (`"\f"`) or lines (`"\n"`), each kept
 * with its trailing delimiter, so chunks are exact slices of the source.
 * Consecutive chunks share `splitOverlap` units; a final chunk of fewer than `splitThreshold` units is
 * appended to the previous one. With `respectSentenceBoundary` and `splitBy: "word"`, chunks are whole
 * sentences of at most `splitLength` words together, overlapping by whole sentences (Haystack's mode of
 * the same name; with another `splitBy` the option is ignored, with a warning, as in Haystack).
 * With `splitBy: "function"`, `splittingFunction(text)` returns the chunks' texts; each gets the source's
 * meta plus `source_id` only.
 *
 * Every chunk's meta is the source's meta plus `source_id`, `page_number` (the page it starts on,
 * counting `"\f"`), `split_id` (0-based, per source), `split_idx_start` (its offset in the source) and,
 * when `splitOverlap > 0`, `_split_overlap: [{ doc_id, range: [start, end] }]` linking its neighbours.
 * Its id is computed from its content and that meta (without `_split_overlap`).
 *
 * @example
 * ```ts
 * const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 3 });
 * const { documents } = await splitter.run({ documents: [new Document({ content: "a b c d e" })] });
 * documents.map((d) => d.content); // ["a b c ", "d e"]
 * ```
 */
export const DocumentSplitter = defineComponent({
  type: "junction.DocumentSplitter",
  description: "Splits documents into chunks of words, sentences, passages, pages or lines.",
  params,
  inputs: { documents: documentListSchema },
  outputs: { documents: documentListSchema },
  setup: (options) => ({
    segmenter:
      options.splitBy === "sentence" || (options.respectSentenceBoundary && options.splitBy === "word")
        ? new Intl.Segmenter(options.language, { granularity: "sentence" })
        : undefined,
  }),
  run: ({ documents }, { params: options, resources, componentName, logger }) => {
    const chunks: Document[] = [];
    const bySentenceWords = options.respectSentenceBoundary && options.splitBy === "word";
    if (options.respectSentenceBoundary && !bySentenceWords && documents.length > 0) {
      // Haystack warns (at construction) and ignores the option.
      logger.warn(
        `${componentLabel("DocumentSplitter", componentName)}: respectSentenceBoundary works with splitBy "word" only; splitting by "${options.splitBy}" without it.`,
      );
    }
    for (const document of documents) {
      const text = document.content;
      if (text === undefined) {
        throw new ComponentError(
          `${componentLabel("DocumentSplitter", componentName)}.run: document "${document.id}" has no content; it splits text only. Convert it to text first, or filter out documents without content.`,
          { componentType: "junction.DocumentSplitter", componentName, socket: "documents" },
        );
      }
      if (text === "" && options.skipEmptyDocuments) {
        logger.warn(
          `${componentLabel("DocumentSplitter", componentName)}: document "${document.id}" has empty content; skipping it.`,
          { documentId: document.id },
        );
        continue;
      }
      const unit = options.splitBy;
      if (unit === "function") {
        for (const chunk of splitWithFunction(document, text, options.splittingFunction, componentName)) {
          chunks.push(chunk);
        }
        continue;
      }
      const spans = bySentenceWords
        ? sentenceWordSpans(
            text,
            unitBounds(text, "sentence", resources.segmenter),
            options.splitLength,
            options.splitOverlap,
          )
        : concatenateUnits(text, unitBounds(text, unit, resources.segmenter), { ...options, splitBy: unit });
      const baseMeta = { ...document.meta, source_id: document.id };
      // A loop, not push(...chunks): spreading 100k+ chunks overflows the stack.
      const made = chunkDocuments(
        text,
        spans,
        (index) => ({
          ...copyMeta(baseMeta),
          page_number: spans[index]?.page ?? 1,
          split_id: index,
          split_idx_start: spans[index]?.start ?? 0,
        }),
        options.splitOverlap > 0,
      );
      for (const chunk of made) chunks.push(chunk);
    }
    return { documents: chunks };
  },
  serializer: documentSplitterSerializer,
});

/**
 * Haystack's `_split_by_function`: one document per string the function returns, with the source's meta
 * plus `source_id` only (no page, split id or offset: the function's pieces need not be slices).
 */
function splitWithFunction(
  document: Document,
  text: string,
  splittingFunction: SplittingFunction | undefined,
  componentName: string | undefined,
): Document[] {
  const pieces: unknown = splittingFunction?.(text) ?? [];
  if (!Array.isArray(pieces) || pieces.some((piece) => typeof piece !== "string")) {
    throw new ComponentError(
      `${componentLabel("DocumentSplitter", componentName)}.run: splittingFunction returned ${Array.isArray(pieces) ? "a list holding a non-string" : typeof pieces} for document "${document.id}"; it must return a list of strings.`,
      { componentType: "junction.DocumentSplitter", componentName, socket: "documents" },
    );
  }
  return (pieces as string[]).map(
    (piece) => new Document({ content: piece, meta: { ...copyMeta(document.meta), source_id: document.id } }),
  );
}

/** A `DocumentSplitter` instance (the class doubles as the instance type). */
export type DocumentSplitter = InstanceType<typeof DocumentSplitter>;
