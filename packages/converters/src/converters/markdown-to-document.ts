import { defineComponent } from "@junction/core";
import { Document } from "@junction/documents";
import { Marked } from "marked";
import { z } from "zod";
import { convertSources } from "../sources/convert-sources.js";
import { decodeText } from "../sources/decode-text.js";
import { documentListSchema, sourceSchema, sourcesMetaSchema } from "../sources/socket-schemas.js";
import { mergeMeta } from "../sources/source-meta.js";
import { encodingSchema, sourceParamsShape } from "../sources/source-params.js";
import { htmlToTextConverter } from "./html-text.js";

/**
 * Turns Markdown files into one plain-text `Document` each, as Haystack's `MarkdownToDocument`: markup
 * is removed (headings, emphasis, link targets, code fences), paragraphs and list items stay on their own
 * lines, tables become aligned columns.
 *
 * @example
 * ```ts
 * const { documents } = await new MarkdownToDocument().run({ sources: ["README.md"] });
 * ```
 */
export const MarkdownToDocument = defineComponent({
  type: "junction.MarkdownToDocument",
  description: "Converts Markdown files into plain-text Documents.",
  params: z.object({ encoding: encodingSchema, ...sourceParamsShape }),
  inputs: { sources: z.array(sourceSchema), meta: sourcesMetaSchema },
  outputs: { documents: documentListSchema },
  setup: () => ({ markdown: new Marked({ gfm: true }), toText: htmlToTextConverter(false, false) }),
  run: async ({ sources, meta }, { params, resources, logger, signal, componentName }) => ({
    documents: await convertSources({
      sources,
      meta,
      params,
      context: { logger, signal, componentName },
      type: "junction.MarkdownToDocument",
      convert: ({ stream, meta: sourceMeta, label, described }) => {
        const markdown = decodeText(stream, params.encoding, label, described);
        const html = resources.markdown.parse(markdown, { async: false });
        return [
          new Document({
            content: resources.toText(html),
            meta: mergeMeta([stream.meta, sourceMeta], stream.meta, params.storeFullPath),
          }),
        ];
      },
    }),
  }),
});

/** A `MarkdownToDocument` instance. */
export type MarkdownToDocument = InstanceType<typeof MarkdownToDocument>;
