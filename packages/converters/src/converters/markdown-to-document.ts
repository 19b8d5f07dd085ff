import { defineComponent } from "@junction/core";
import { Document } from "@junction/documents";
import { Marked } from "marked";
import { z } from "zod";
import { ConversionError } from "../errors.js";
import { convertSources } from "../sources/convert-sources.js";
import { decodeText } from "../sources/decode-text.js";
import { documentListSchema, sourceSchema, sourcesMetaSchema } from "../sources/socket-schemas.js";
import { mergeMeta } from "../sources/source-meta.js";
import { encodingSchema, sourceParamsShape } from "../sources/source-params.js";
import { htmlNestingDepth } from "./html-depth.js";
import { depthCutMarker, htmlToTextConverter } from "./html-text.js";

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
/**
 * The longest run of indentation, `>` and list markers a line may start with. Nested lists make
 * marked's work grow with the cube of the depth (400 levels: 0.7 s; 3,000 levels ran out of memory)
 * and nested quotes overflow its stack; real documents stay far below.
 */
const maxMarkdownPrefix = 400;

/** The deepest HTML (raw or produced) a Markdown file may nest, as `HTMLToDocument`'s default. */
const maxMarkdownHtmlDepth = 512;

const linePrefix = /(?:[ \t>]|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))*/y;

/** The 1-based number of the first line whose container prefix is longer than `limit`, if any (one pass). */
function deepestLinePrefix(markdown: string, limit: number): number | undefined {
  let start = 0;
  let line = 1;
  while (start <= markdown.length) {
    linePrefix.lastIndex = start;
    linePrefix.test(markdown);
    const prefixEnd = linePrefix.lastIndex;
    const end = markdown.indexOf("\n", start);
    const lineEnd = end === -1 ? markdown.length : end;
    // A blank line of spaces nests nothing, however long.
    const blank = prefixEnd >= lineEnd - 1 && markdown.slice(start, prefixEnd).trim() === "";
    if (prefixEnd - start > limit && !blank) return line;
    if (end === -1) return undefined;
    start = end + 1;
    line += 1;
  }
  return undefined;
}

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
        const tooDeep = (what: string) =>
          new ConversionError(
            `${label}: ${described} ${what}; it is not a readable document (parsing it would take minutes or overflow the stack).`,
            { reason: "too_large", source: described },
          );
        const line = deepestLinePrefix(markdown, maxMarkdownPrefix);
        if (line !== undefined) {
          throw tooDeep(
            `nests quotes, lists or indentation more than ${maxMarkdownPrefix} characters deep (line ${line}), over the limit of ${maxMarkdownPrefix}`,
          );
        }
        const html = resources.markdown.parse(markdown, { async: false });
        if (htmlNestingDepth(html, maxMarkdownHtmlDepth) > maxMarkdownHtmlDepth) {
          throw tooDeep(
            `nests HTML elements more than ${maxMarkdownHtmlDepth} levels deep, over the limit of ${maxMarkdownHtmlDepth}`,
          );
        }
        const text = resources.toText(html);
        if (text.includes(depthCutMarker)) {
          throw tooDeep(`nests HTML elements too deeply, over the limit of ${maxMarkdownHtmlDepth}`);
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

/** A `MarkdownToDocument` instance. */
export type MarkdownToDocument = InstanceType<typeof MarkdownToDocument>;
