import { defineComponent } from "@junction/core";
import { Document } from "@junction/documents";
import { z } from "zod";
import { convertSources } from "../sources/convert-sources.js";
import { decodeText } from "../sources/decode-text.js";
import { documentListSchema, sourceSchema, sourcesMetaSchema } from "../sources/socket-schemas.js";
import { mergeMeta } from "../sources/source-meta.js";
import { encodingSchema, sourceParamsShape } from "../sources/source-params.js";

/**
 * Turns text files (paths or `ByteStream`s) into one `Document` each, as Haystack's
 * `TextFileToDocument`: the content is the decoded text, the meta is the stream's meta, then the `meta`
 * input, with `file_path` shortened to the file name unless `storeFullPath`.
 *
 * @example
 * ```ts
 * const converter = new TextFileToDocument({ encoding: "utf-8" });
 * const { documents } = await converter.run({ sources: ["notes/a.txt"], meta: { lang: "en" } });
 * documents[0].meta; // { file_path: "a.txt", lang: "en" }
 * ```
 */
export const TextFileToDocument = defineComponent({
  type: "junction.TextFileToDocument",
  description: "Converts text files into Documents.",
  params: z.object({ encoding: encodingSchema, ...sourceParamsShape }),
  inputs: { sources: z.array(sourceSchema), meta: sourcesMetaSchema },
  outputs: { documents: documentListSchema },
  run: async ({ sources, meta }, { params, logger, signal, componentName }) => ({
    documents: await convertSources({
      sources,
      meta,
      params,
      context: { logger, signal, componentName },
      type: "junction.TextFileToDocument",
      convert: ({ stream, meta: sourceMeta, label, described }) => [
        new Document({
          content: decodeText(stream, params.encoding, label, described),
          meta: mergeMeta([stream.meta, sourceMeta], stream.meta, params.storeFullPath),
        }),
      ],
    }),
  }),
});

/** A `TextFileToDocument` instance. */
export type TextFileToDocument = InstanceType<typeof TextFileToDocument>;
