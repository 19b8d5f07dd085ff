import { defineComponent } from "@junction/core";
import { Document } from "@junction/documents";
import { z } from "zod";
import { ConversionError } from "../errors.js";
import { componentLabel, convertSources } from "../sources/convert-sources.js";
import { decodeText } from "../sources/decode-text.js";
import { documentListSchema, sourceSchema, sourcesMetaSchema } from "../sources/socket-schemas.js";
import { mergeMeta } from "../sources/source-meta.js";
import { encodingSchema, sourceParamsShape } from "../sources/source-params.js";
import { csvRowDocuments } from "./csv-rows.js";

const type = "junction.CSVToDocument";

/**
 * Turns CSV files into Documents, as Haystack's `CSVToDocument`. `conversionMode: "file"` (default): one
 * document per file holding the CSV text. `"row"`: one document per row, content from the column named
 * by the `content_column` input, the other columns in meta, plus `row_number`.
 *
 * @example
 * ```ts
 * const converter = new CSVToDocument({ conversionMode: "row" });
 * const { documents } = await converter.run({ sources: ["faq.csv"], content_column: "answer" });
 * documents[0].meta; // { file_path: "faq.csv", question: "…", row_number: 0 }
 * ```
 */
export const CSVToDocument = defineComponent({
  type,
  description: "Converts CSV files into Documents: one per file, or one per row.",
  params: z.object({
    encoding: encodingSchema,
    ...sourceParamsShape,
    /** `"file"`: one document per file (the CSV text); `"row"`: one document per row. */
    conversionMode: z.enum(["file", "row"]).default("file"),
    /** The field delimiter used in row mode (one character). */
    delimiter: z.string().length(1).default(","),
    /** The quote character used in row mode (one character). */
    quoteChar: z.string().length(1).default('"'),
  }),
  inputs: {
    sources: z.array(sourceSchema),
    /** Row mode: the column whose cells become the documents' content (required in row mode). */
    content_column: z.string().optional(),
    meta: sourcesMetaSchema,
  },
  outputs: { documents: documentListSchema },
  run: async ({ sources, content_column, meta }, { params, logger, signal, componentName }) => {
    if (params.conversionMode === "row" && (content_column === undefined || content_column === "")) {
      throw new ConversionError(
        `${componentLabel(type, componentName)}: conversionMode is "row" but no content_column was given. Pass the name of the column that holds each row's text.`,
        { reason: "invalid_input", socket: "content_column" },
      );
    }
    const documents = await convertSources({
      sources,
      meta,
      params,
      context: { logger, signal, componentName },
      type,
      convert: ({ stream, meta: sourceMeta, label, described }) => {
        const text = decodeText(stream, params.encoding, label, described);
        const baseMeta = mergeMeta([stream.meta, sourceMeta], stream.meta, params.storeFullPath);
        if (params.conversionMode === "file") return [new Document({ content: text, meta: baseMeta })];
        return csvRowDocuments({
          text,
          contentColumn: content_column as string,
          delimiter: params.delimiter,
          quoteChar: params.quoteChar,
          baseMeta,
          label,
          described,
        });
      },
    });
    return { documents };
  },
});

/** A `CSVToDocument` instance. */
export type CSVToDocument = InstanceType<typeof CSVToDocument>;
