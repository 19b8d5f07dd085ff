import { z } from "zod";
import { defineTestComponent } from "./define.js";
import { type ByteStream, byteStreamSchema, Document, documentListSchema } from "./document.js";

/**
 * Test fakes for the reference's file routing and conversion components (`FileTypeRouter`, converters,
 * `DocumentSplitter`), reduced to what the file-conversion scenarios feed them.
 */

const sourcesSchema = z.array(byteStreamSchema);
const metaSchema = z.record(z.string(), z.any()).optional();

/** Sends each source to the output named after its MIME type. */
export const FileTypeRouter = defineTestComponent({
  type: "conformance.FileTypeRouter",
  params: z.object({ mime_types: z.array(z.string()) }),
  inputs: { sources: sourcesSchema, meta: metaSchema },
  outputs: ({ mime_types }) => ({
    ...Object.fromEntries(mime_types.map((type) => [type, sourcesSchema])),
    unclassified: sourcesSchema,
  }),
  run: ({ sources }, { params }) => {
    const routed: Record<string, ByteStream[]> = {};
    for (const source of sources) {
      const key = params.mime_types.includes(source.mimeType) ? source.mimeType : "unclassified";
      routed[key] = [...(routed[key] ?? []), source];
    }
    return routed as Record<string, never>;
  },
});

function converter(type: string, extract: (data: string) => string, extraInput?: string) {
  return defineTestComponent({
    type,
    inputs: {
      sources: sourcesSchema,
      meta: metaSchema,
      ...(extraInput === undefined ? {} : { [extraInput]: z.any().optional() }),
    },
    outputs: { documents: documentListSchema },
    run: ({ sources, meta }) => ({
      documents: sources.map(
        (source) => new Document({ content: extract(source.data), meta: { ...source.meta, ...meta } }),
      ),
    }),
  });
}

/** Plain text files. */
export const TextFileToDocument = converter("conformance.TextFileToDocument", (data) => data);
/** CSV files, kept as one text document. */
export const CSVToDocument = converter("conformance.CSVToDocument", (data) => data, "content_column");
/** JSON files: the `content` key becomes the document text. */
export const JSONConverter = converter("conformance.JSONConverter", (data) =>
  String((JSON.parse(data) as { content: unknown }).content),
);
/** HTML files: the text without tags. */
export const HTMLToDocument = converter(
  "conformance.HTMLToDocument",
  (data) => data.replace(/<[^>]*>/g, "").trim(),
  "extraction_kwargs",
);

/** Splits documents by words (groups of `split_length`) or by pages (`\f`), recording where each split starts. */
export const DocumentSplitter = defineTestComponent({
  type: "conformance.DocumentSplitter",
  params: z.object({
    split_by: z.enum(["word", "page"]),
    split_length: z.number().int().positive(),
    split_overlap: z.literal(0).default(0),
  }),
  inputs: { documents: documentListSchema },
  outputs: { documents: documentListSchema },
  run: ({ documents }, { params }) => {
    const splits: Document[] = [];
    for (const source of documents) {
      const separator = params.split_by === "word" ? " " : "\f";
      const units = (source.content ?? "")
        .split(separator)
        .map((unit, index, all) => (index < all.length - 1 ? unit + separator : unit));
      let start = 0;
      let splitId = 0;
      for (let index = 0; index < units.length; index += params.split_length) {
        const text = units.slice(index, index + params.split_length).join("");
        if (text.trim() !== "") {
          splits.push(
            new Document({
              content: text,
              meta: {
                ...source.meta,
                source_id: source.id,
                page_number: 1 + (source.content ?? "").slice(0, start).split("\f").length - 1,
                split_id: splitId++,
                split_idx_start: start,
              },
            }),
          );
        }
        start += text.length;
      }
    }
    return { documents: splits };
  },
});
