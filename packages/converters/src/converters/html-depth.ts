/** Elements that never have children (a start tag is the whole element). */
const voidElements = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/**
 * Elements a parser closes by itself when a sibling starts (`<p>a<p>b`, `<li>`, table rows and cells);
 * pages often leave them open, so counting them would report sloppy pages as deep. Their nesting is
 * bounded by the elements around them (a list item needs a list, a cell a row in a table).
 */
const selfClosingByParser = new Set([
  "p",
  "li",
  "dt",
  "dd",
  "tr",
  "td",
  "th",
  "option",
  "optgroup",
  "rb",
  "rt",
  "rp",
  "tbody",
  "thead",
  "tfoot",
]);

/**
 * A tag, a comment, or a raw-text element (script, style, textarea, title) skipped whole. A tag stops
 * at the next `<`, so text full of `<` without `>` is scanned once, not once per `<`.
 */
const token =
  /<!--[\s\S]*?(?:-->|$)|<(script|style|textarea|title|xmp)\b[^<>]*>[\s\S]*?(?:<\/\1\s*>|$)|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)\b[^<>]*>/gi;

/**
 * The nesting depth of `html`'s elements, counted the way an HTML parser nests them (an end tag closes
 * the open elements down to the matching one; an end tag matching nothing open is ignored), without
 * building a tree, in one linear pass. It stops and returns as soon as the depth passes `limit`.
 *
 * Elements a parser closes implicitly (`p`, `li`, table rows and cells) and void elements (`br`, `img`)
 * are not counted, so the result can be lower than the tree's depth, never much higher.
 *
 * @param html - the page
 * @param limit - stop counting past this depth
 * @returns the deepest nesting found, or `limit + 1` when it passes `limit`
 */
export function htmlNestingDepth(html: string, limit: number): number {
  const stack: string[] = [];
  const open = new Map<string, number>();
  let deepest = 0;
  token.lastIndex = 0;
  for (let match = token.exec(html); match !== null; match = token.exec(html)) {
    const name = match[3]?.toLowerCase();
    if (name === undefined || voidElements.has(name) || selfClosingByParser.has(name)) continue;
    if (match[2] === "/") {
      if ((open.get(name) ?? 0) === 0) continue;
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        open.set(top, (open.get(top) ?? 1) - 1);
        if (top === name) break;
      }
      continue;
    }
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
    if (stack.length > deepest) {
      deepest = stack.length;
      if (deepest > limit) return deepest;
    }
  }
  return deepest;
}
