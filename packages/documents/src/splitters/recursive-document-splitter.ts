import { defineComponent } from "@junction/core";
import { z } from "zod";
import type { Document } from "../document/document.js";
import { componentLabel } from "../joiners/component-label.js";
import { documentListSchema } from "../joiners/document-list.js";
import { chunkDocuments, copyMeta } from "./chunk-documents.js";
import { recursiveSpans } from "./recursive-chunking.js";
import { recursiveSplitUnits } from "./recursive-units.js";
import { refineLanguage, refineOverlap } from "./split-options.js";
import { FormFeeds } from "./split-units.js";

/** Haystack's default separators: paragraphs, sentences, lines, words. */
export const defaultRecursiveSeparators: readonly string[] = ["\n\n", "sentence", "\n", " "];

const params = z
  .object({
    splitLength: z.number().int().min(1, "splitLength must be at least 1").default(200),
    splitOverlap: z.number().int().min(0, "splitOverlap must not be negative").default(0),
    splitUnit: z.enum(recursiveSplitUnits).default("word"),
    separators: z
      .array(z.string().min(1, "a separator must not be empty"))
      .nullish()
      .transform((separators) =>
        separators === undefined || separators === null || separators.length === 0
          ? [...defaultRecursiveSeparators]
          : separators,
      ),
    language: z.string().default("en"),
  })
  .superRefine((value, context) => {
    refineOverlap(value, context);
    refineLanguage(value.language, context, "language");
  });

/**
 * Splits documents recursively, as Haystack's `RecursiveDocumentSplitter` does: a text longer than
 * `splitLength` units (`"word"` or `"char"`) is cut at the first of `separators` it contains (literal
 * strings, or `"sentence"` for sentences in `language`, found as `DocumentSplitter` finds them),
 * neighbouring pieces are merged back while they fit, and a piece still too long is cut again with the separators — down to fixed-size
 * cutting when none is left. Every chunk is an exact slice of its source and holds at most `splitLength`
 * units; consecutive chunks share `splitOverlap` units.
 *
 * Meta on every chunk: the source's meta plus `source_id`, `parent_id` (both the source id), `split_id`,
 * `split_idx_start`, `_split_overlap` (`null` without overlap, else `[{ doc_id, range }]`) and
 * `page_number` (the page on which the chunk's text ends, ignoring trailing form feeds, as Haystack).
 * Its id is computed, as Haystack's, from its content and that meta without `page_number` and with
 * `_split_overlap` still `null` or `[]`.
 *
 * @example
 * ```ts
 * const splitter = new RecursiveDocumentSplitter({ splitLength: 50, splitOverlap: 5, splitUnit: "word" });
 * const { documents } = await splitter.run({ documents: [new Document({ content: longText })] });
 * ```
 */
export const RecursiveDocumentSplitter = defineComponent({
  type: "junction.RecursiveDocumentSplitter",
  description: "Splits documents recursively by paragraphs, sentences, lines and words.",
  params,
  inputs: { documents: documentListSchema },
  outputs: { documents: documentListSchema },
  setup: (options) => ({ segmenter: new Intl.Segmenter(options.language, { granularity: "sentence" }) }),
  run: ({ documents }, { params: options, resources, componentName, logger }) => {
    const label = componentLabel("RecursiveDocumentSplitter", componentName);
    const chunks: Document[] = [];
    let warnedOverlap = false;
    for (const document of documents) {
      const text = document.content;
      if (text === undefined || text === "") {
        logger.warn(`${label}: document "${document.id}" has empty content; skipping it.`, {
          documentId: document.id,
        });
        continue;
      }
      const spans = recursiveSpans(text, {
        ...options,
        segmenter: resources.segmenter,
        onWholeChunkOverlap: () => {
          if (warnedOverlap) return;
          warnedOverlap = true;
          logger.warn(
            `${label}: a chunk is entirely repeated as the overlap of the next one. Consider increasing splitLength or decreasing splitOverlap.`,
          );
        },
      });
      const baseMeta = { ...document.meta, source_id: document.id, parent_id: document.id };
      const made = chunkDocuments(
        text,
        spans,
        (index) => ({
          ...copyMeta(baseMeta),
          split_id: index,
          split_idx_start: spans[index]?.start ?? 0,
          _split_overlap: options.splitOverlap > 0 ? [] : null,
        }),
        options.splitOverlap > 0,
      );
      // page_number is written after the id, as Haystack's _run_one sets it on the created Document, so
      // chunk ids equal Haystack's (split_idx_start already tells chunks apart).
      const formFeeds = new FormFeeds(text);
      made.forEach((chunk, index) => {
        const span = spans[index] ?? { start: 0, end: 0 };
        let end = span.end;
        while (end > span.start && text[end - 1] === "\f") end -= 1;
        chunks.push(chunk.with({ meta: { ...chunk.meta, page_number: 1 + formFeeds.before(end) } }));
      });
    }
    return { documents: chunks };
  },
});

/** A `RecursiveDocumentSplitter` instance (the class doubles as the instance type). */
export type RecursiveDocumentSplitter = InstanceType<typeof RecursiveDocumentSplitter>;
