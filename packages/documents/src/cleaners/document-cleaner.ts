import { defineComponent } from "@junction/core";
import { z } from "zod";
import { Document } from "../document/document.js";
import { pythonStrip } from "../document/python-whitespace.js";
import { componentLabel } from "../joiners/component-label.js";
import { documentListSchema } from "../joiners/document-list.js";
import { copyMeta } from "../splitters/chunk-documents.js";
import { removeRepeatedSubstrings } from "./repeated-substrings.js";
import {
  asciiOnly,
  removeEmptyLines,
  removeExtraWhitespaces,
  removeRegex,
  removeSubstrings,
  replaceRegexes,
} from "./text-cleaning.js";

/** The Unicode normalization forms `DocumentCleaner` accepts. */
export const unicodeNormalizationForms = ["NFC", "NFKC", "NFD", "NFKD"] as const;

const regexSource = z.string().superRefine((source, context) => {
  try {
    new RegExp(source, "g");
  } catch (error) {
    context.addIssue({
      code: "custom",
      message: `not a valid JavaScript regular expression (${(error as Error).message}); patterns use JavaScript RegExp syntax.`,
    });
  }
});

const params = z.object({
  removeEmptyLines: z.boolean().default(true),
  removeExtraWhitespaces: z.boolean().default(true),
  removeRepeatedSubstrings: z.boolean().default(false),
  keepId: z.boolean().default(false),
  removeSubstrings: z.array(z.string()).nullish(),
  removeRegex: regexSource.nullish(),
  unicodeNormalization: z.enum(unicodeNormalizationForms).nullish(),
  asciiOnly: z.boolean().default(false),
  stripWhitespaces: z.boolean().default(false),
  replaceRegexes: z.record(regexSource, z.string()).nullish(),
});

/**
 * Cleans the text of documents, as Haystack's `DocumentCleaner` does, in this order: Unicode
 * normalization (`unicodeNormalization`), `asciiOnly` (accents dropped, other non-ASCII removed),
 * `removeExtraWhitespaces` (runs of whitespace → one space, pages stripped), `removeEmptyLines`,
 * `removeSubstrings`, `removeRegex` (matches removed, pages stripped), `replaceRegexes` (pattern →
 * replacement, `$1` for groups), `removeRepeatedSubstrings` (headers and footers repeated on every page)
 * and `stripWhitespaces`. Form feeds (`"\f"`) are kept: every step works page by page.
 *
 * A cleaned document keeps blob, meta, score and embeddings; its id is recomputed from the new content
 * unless `keepId`. A document without text passes through unchanged (with a warning).
 *
 * @example
 * ```ts
 * const cleaner = new DocumentCleaner({ removeRepeatedSubstrings: true });
 * const { documents } = await cleaner.run({ documents: converted });
 * ```
 */
export const DocumentCleaner = defineComponent({
  type: "junction.DocumentCleaner",
  description: "Cleans document text: whitespace, empty lines, substrings, regexes, headers and footers.",
  params,
  inputs: { documents: documentListSchema },
  outputs: { documents: documentListSchema },
  setup: (options) => ({
    // Haystack tests `if self.remove_regex:`, so "" means no regex step (and no page stripping).
    removeRegex:
      options.removeRegex === undefined || options.removeRegex === null || options.removeRegex === ""
        ? undefined
        : new RegExp(options.removeRegex, "g"),
    replaceRegexes: Object.entries(options.replaceRegexes ?? {}).map(
      ([pattern, replacement]) => [new RegExp(pattern, "g"), replacement] as const,
    ),
  }),
  run: ({ documents }, { params: options, resources, componentName, logger }) => {
    const label = componentLabel("DocumentCleaner", componentName);
    const cleaned = documents.map((document) => {
      if (document.content === undefined) {
        logger.warn(
          `${label}: document "${document.id}" has no text content; passing it through unchanged.`,
          {
            documentId: document.id,
          },
        );
        return document;
      }
      let text = document.content;
      if (options.unicodeNormalization) text = text.normalize(options.unicodeNormalization);
      if (options.asciiOnly) text = asciiOnly(text);
      if (options.removeExtraWhitespaces) text = removeExtraWhitespaces(text);
      if (options.removeEmptyLines) text = removeEmptyLines(text);
      if (options.removeSubstrings && options.removeSubstrings.length > 0) {
        text = removeSubstrings(text, options.removeSubstrings);
      }
      if (resources.removeRegex !== undefined) text = removeRegex(text, resources.removeRegex);
      if (resources.replaceRegexes.length > 0) text = replaceRegexes(text, resources.replaceRegexes);
      if (options.removeRepeatedSubstrings) {
        const removed = removeRepeatedSubstrings(text);
        logger.debug(`${label}: removed header "${removed.header}" and footer "${removed.footer}".`, {
          documentId: document.id,
        });
        text = removed.text;
      }
      if (options.stripWhitespaces) text = pythonStrip(text);
      return new Document({
        id: options.keepId ? document.id : undefined,
        content: text,
        blob: document.blob,
        meta: copyMeta(document.meta),
        score: document.score,
        embedding: document.embedding,
        sparseEmbedding: document.sparseEmbedding,
      });
    });
    return { documents: cleaned };
  },
});

/** A `DocumentCleaner` instance (the class doubles as the instance type). */
export type DocumentCleaner = InstanceType<typeof DocumentCleaner>;
