import { defineComponent } from "@junction/core";
import { Document } from "@junction/documents";
import { z } from "zod";
import { convertSources } from "../sources/convert-sources.js";
import { documentListSchema, sourceSchema, sourcesMetaSchema } from "../sources/socket-schemas.js";
import { mergeMeta } from "../sources/source-meta.js";
import { sourceParamsShape } from "../sources/source-params.js";
import { extractPdfPages } from "./pdf-text.js";

/**
 * Turns PDF files into one `Document` each, as Haystack's `PyPDFToDocument`: the text of every page,
 * pages joined with a form feed (`"\f"`), so `DocumentSplitter({ splitBy: "page" })` splits them again
 * and writes `page_number`. A PDF without extractable text (scanned images) still gives a document, with
 * a warning naming the file. Runs pdf.js in-process (through `unpdf`): no native code, no worker.
 *
 * @example
 * ```ts
 * const { documents } = await new PDFToDocument({ maxPages: 500 }).run({ sources: ["report.pdf"] });
 * documents[0].content?.split("\f").length; // the number of pages
 * ```
 */
export const PDFToDocument = defineComponent({
  type: "junction.PDFToDocument",
  description: "Converts PDF files into Documents (pages separated by form feeds).",
  params: z.object({
    ...sourceParamsShape,
    /** The most pages a PDF may have (default 2000); a longer PDF fails, naming this option. */
    maxPages: z.number().int().positive().default(2000),
  }),
  inputs: { sources: z.array(sourceSchema), meta: sourcesMetaSchema },
  outputs: { documents: documentListSchema },
  run: async ({ sources, meta }, { params, logger, signal, componentName }) => ({
    documents: await convertSources({
      sources,
      meta,
      params,
      context: { logger, signal, componentName },
      type: "junction.PDFToDocument",
      convert: async ({ stream, meta: sourceMeta, label, described, warn }) => {
        const pages = await extractPdfPages(stream.data, {
          maxPages: params.maxPages,
          label,
          described,
          signal,
        });
        const text = pages.join("\f");
        if (text.trim() === "") {
          warn(
            `${label}: no text could be extracted from ${described} (a scanned PDF needs OCR); its document is empty.`,
          );
        }
        return [
          new Document({
            content: text,
            meta: mergeMeta([stream.meta, sourceMeta], stream.meta, params.storeFullPath),
          }),
        ];
      },
    }),
  }),
});

/** A `PDFToDocument` instance. */
export type PDFToDocument = InstanceType<typeof PDFToDocument>;
