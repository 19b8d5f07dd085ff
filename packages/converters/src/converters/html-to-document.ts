import { defineComponent } from "@junction/core";
import { Document } from "@junction/documents";
import { z } from "zod";
import { ConversionError } from "../errors.js";
import { convertSources } from "../sources/convert-sources.js";
import { decodeText } from "../sources/decode-text.js";
import { documentListSchema, sourceSchema, sourcesMetaSchema } from "../sources/socket-schemas.js";
import { mergeMeta } from "../sources/source-meta.js";
import { encodingSchema, sourceParamsShape } from "../sources/source-params.js";
import { htmlNestingDepth } from "./html-depth.js";
import { depthCutMarker, htmlTitle, htmlToTextConverter } from "./html-text.js";

/** The default of `maxHtmlBytes`: 20 MB. */
const defaultMaxHtmlBytes = 20 * 1024 * 1024;

/** The default of `maxHtmlDepth`: 512 levels of nested elements (Chromium's parser stops nesting there too). */
const defaultMaxHtmlDepth = 512;

/**
 * Turns HTML pages (paths or `ByteStream`s, such as `LinkContentFetcher`'s `streams`) into one
 * `Document` each, holding the page's readable text: blocks on their own lines, lists and tables kept,
 * navigation, footers, asides, scripts, styles and forms dropped (Haystack uses trafilatura; this is a
 * simpler, dependency-light extraction). The meta is the stream's and the `meta` input's, as Haystack's;
 * `extractTitle: true` also puts the page's `<title>` in `meta.title`.
 *
 * @example
 * ```ts
 * pipeline
 *   .addComponent("fetch", new LinkContentFetcher())
 *   .addComponent("html", new HTMLToDocument({ keepLinks: true }))
 *   .connect("fetch.streams", "html.sources");
 * ```
 */
export const HTMLToDocument = defineComponent({
  type: "junction.HTMLToDocument",
  description: "Converts HTML pages into Documents holding their readable text.",
  params: z.object({
    encoding: encodingSchema,
    ...sourceParamsShape,
    /** Write link targets after their text: `the docs [https://…]`. */
    keepLinks: z.boolean().default(false),
    /** Keep only the page's `<main>` (or `<article>`) when it has one. */
    mainContent: z.boolean().default(true),
    /** Put the page's `<title>` in `meta.title` (default `false`, as Haystack adds none; the `meta` input still wins). */
    extractTitle: z.boolean().default(false),
    /** The largest HTML page parsed, in bytes (default 20 MB). */
    maxHtmlBytes: z.number().int().positive().default(defaultMaxHtmlBytes),
    /**
     * The deepest nesting of elements accepted (default 512; `p`, `li` and table cells are not counted).
     * Deeper pages are refused: parsing them is slow and walking them would overflow the stack.
     */
    maxHtmlDepth: z.number().int().positive().max(1000).default(defaultMaxHtmlDepth),
  }),
  inputs: { sources: z.array(sourceSchema), meta: sourcesMetaSchema },
  outputs: { documents: documentListSchema },
  setup: (params) => ({ toText: htmlToTextConverter(params.keepLinks, params.mainContent) }),
  run: async ({ sources, meta }, { params, resources, logger, signal, componentName }) => ({
    documents: await convertSources({
      sources,
      meta,
      params,
      context: { logger, signal, componentName },
      type: "junction.HTMLToDocument",
      convert: ({ stream, meta: sourceMeta, label, described, warn }) => {
        if (stream.data.byteLength === 0) {
          throw new ConversionError(`${label}: ${described} is empty.`, {
            reason: "empty",
            source: described,
          });
        }
        if (stream.data.byteLength > params.maxHtmlBytes) {
          throw new ConversionError(
            `${label}: ${described} is ${stream.data.byteLength} bytes of HTML, over maxHtmlBytes (${params.maxHtmlBytes}). Raise the maxHtmlBytes option if the page is trusted.`,
            { reason: "too_large", source: described },
          );
        }
        const html = decodeText(stream, params.encoding, label, described);
        const tooDeep = () =>
          new ConversionError(
            `${label}: ${described} nests elements more than ${params.maxHtmlDepth} levels deep, over maxHtmlDepth (${params.maxHtmlDepth}); it is not a readable page. Raise maxHtmlDepth (up to 1000) if the page is trusted.`,
            { reason: "too_large", source: described },
          );
        if (htmlNestingDepth(html, params.maxHtmlDepth) > params.maxHtmlDepth) throw tooDeep();
        const text = resources.toText(html);
        if (text.includes(depthCutMarker)) throw tooDeep();
        if (text.trim() === "") warn(`${label}: ${described} has no readable text; its document is empty.`);
        const title = params.extractTitle ? htmlTitle(html) : undefined;
        const layers = title === undefined ? [stream.meta, sourceMeta] : [stream.meta, { title }, sourceMeta];
        return [new Document({ content: text, meta: mergeMeta(layers, stream.meta, params.storeFullPath) })];
      },
    }),
  }),
});

/** An `HTMLToDocument` instance. */
export type HTMLToDocument = InstanceType<typeof HTMLToDocument>;
