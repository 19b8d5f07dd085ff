import { compile, type HtmlToTextOptions } from "html-to-text";

/** Elements that are page furniture or code, not readable text. */
const skipped = [
  "head",
  "nav",
  "footer",
  "aside",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "form",
  "button",
  "iframe",
  "img",
];

/**
 * Marks where html-to-text stopped walking deeper than {@link treeDepthLimit}; never in real text.
 */
export const depthCutMarker = "\u0000junction-depth-cut\u0000";

/**
 * The deepest tree html-to-text walks (it recurses per level and overflows the stack near 3,000); the
 * converter refuses deeper pages up front, this is the backstop for what its scan does not count.
 */
const treeDepthLimit = 1200;

/** No truncation by html-to-text (it would warn on the console); converters check `maxHtmlBytes` first. */
const limits = {
  maxDepth: treeDepthLimit,
  ellipsis: depthCutMarker,
  maxInputLength: Number.MAX_SAFE_INTEGER,
};

function options(keepLinks: boolean, baseSelector: string): HtmlToTextOptions {
  return {
    wordwrap: false,
    limits,
    baseElements: { selectors: [baseSelector], returnDomByDefault: true },
    selectors: [
      { selector: "a", options: { ignoreHref: !keepLinks, hideLinkHrefIfSameAsText: true } },
      ...skipped.map((selector) => ({ selector, format: "skip" })),
      ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
      { selector: "ul", options: { itemPrefix: "- " } },
      { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
    ],
  };
}

/**
 * Builds the HTML → text function of a converter: line breaks between blocks, lists as `- item`, tables
 * as aligned columns; navigation, footers, asides, scripts, styles, forms and images are dropped. With
 * `mainContent`, only the page's `<main>` (or, without one, its first `<article>`) is kept when present.
 *
 * @param keepLinks - write link targets after their text (`text [https://…]`)
 * @param mainContent - keep only `<main>` / `<article>` when the page has one
 */
export function htmlToTextConverter(keepLinks: boolean, mainContent: boolean): (html: string) => string {
  const whole = compile(options(keepLinks, "body"));
  if (!mainContent) return whole;
  const main = compile(options(keepLinks, "main"));
  const article = compile(options(keepLinks, "article"));
  return (html) => {
    if (/<main[\s>]/i.test(html)) return main(html);
    if (/<article[\s>]/i.test(html)) return article(html);
    return whole(html);
  };
}

const titleOpen = /<title\b[^>]*>/i;
const titleClose = /<\/title\s*>/i;
const plain = compile({ wordwrap: false, limits });

/** The text of the page's `<title>` (entities decoded, whitespace collapsed), or `undefined`. */
export function htmlTitle(html: string): string | undefined {
  const open = titleOpen.exec(html);
  if (open === null) return undefined;
  const start = open.index + open[0].length;
  const rest = html.slice(start, start + 10_000);
  const close = titleClose.exec(rest);
  if (close === null) return undefined;
  const title = plain(rest.slice(0, close.index)).replaceAll(depthCutMarker, "").replace(/\s+/g, " ").trim();
  return title === "" ? undefined : title;
}
