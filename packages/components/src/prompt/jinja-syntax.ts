/**
 * Jinja written in a Liquid template. Haystack's prompt templates are Jinja; most of a RAG template
 * (`{{ question }}`, `{% for doc in documents %}{{ doc.content }}{% endfor %}`) is the same in Liquid,
 * but some Jinja fails to parse with a message that does not say why, and some parses and then means
 * something else: `loop.index` and `x is not none` become input variables named `loop`, `is` and
 * `none`, and `q[:5]` prints nothing. These are found here, inside `{{ … }}` and `{% … %}` only and
 * outside string literals (the prompt's own text is never read), so that the error names the Jinja
 * and its Liquid spelling.
 */

/** One Jinja construct and how Liquid writes it. */
interface JinjaConstruct {
  readonly pattern: RegExp;
  /** The construct as the user wrote it. */
  readonly jinja: string;
  /** How to write it in Liquid. */
  readonly liquid: string;
  /** True when Liquid parses it without an error but reads it differently. */
  readonly silent: boolean;
}

const constructs: readonly JinjaConstruct[] = [
  {
    pattern: /\|\s*[A-Za-z_]\w*\s*\(/,
    jinja: "filter arguments in parentheses (`| join(', ')`)",
    liquid: "`| join: ', '`",
    silent: false,
  },
  { pattern: /^\{%-?\s*set\s/, jinja: "`{% set x = … %}`", liquid: "`{% assign x = … %}`", silent: false },
  { pattern: /^\{%-?\s*elif\b/, jinja: "`{% elif %}`", liquid: "`{% elsif %}`", silent: false },
  { pattern: /\s~\s/, jinja: "`a ~ b`", liquid: "`a | append: b`", silent: false },
  { pattern: /\|\s*length\b/, jinja: "`| length`", liquid: "`| size`", silent: false },
  {
    pattern: /\|\s*(upper|lower|trim)\b/,
    jinja: "`| upper`, `| lower`, `| trim`",
    liquid: "`| upcase`, `| downcase`, `| strip`",
    silent: false,
  },
  { pattern: /\|\s*tojson\b/, jinja: "`| tojson`", liquid: "`| json`", silent: false },
  {
    pattern: /\bloop\.(index0?|revindex0?|first|last|length)\b/,
    jinja: "`loop.index` (`loop.first`, `loop.last`, …)",
    liquid: "`forloop.index` (`forloop.first`, `forloop.last`, …)",
    silent: true,
  },
  {
    pattern: /\bis\s+(not\s+)?(none|defined|undefined)\b/,
    jinja: "`x is not none` / `x is defined`",
    liquid: "`x != nil`",
    silent: true,
  },
  {
    // No two `\s*` side by side: a long run of spaces must not make the search quadratic.
    pattern: /\[\s*(?:-?\d+\s*)?:\s*(?:-?\d+\s*)?\]/,
    jinja: "slices (`text[:5]`, `messages[-1:]`)",
    liquid: "`| slice: 0, 5` (`| slice: -1` for the last item)",
    silent: true,
  },
];

/**
 * The tags and outputs of a template, their string literals emptied: where Jinja can hide. One pass
 * with `indexOf` (linear in the template's length, also for a hostile `{{{{{{…` with nothing closed).
 */
function markup(source: string): string[] {
  const pieces: string[] = [];
  let at = 0;
  for (;;) {
    const output = source.indexOf("{{", at);
    const tag = source.indexOf("{%", at);
    if (output === -1 && tag === -1) break;
    const start = output === -1 ? tag : tag === -1 ? output : Math.min(output, tag);
    const close = source.indexOf(start === output ? "}}" : "%}", start + 2);
    if (close === -1) break;
    pieces.push(source.slice(start, close + 2).replace(/"[^"]*"|'[^']*'/g, '""'));
    at = close + 2;
  }
  return pieces;
}

/** The Jinja constructs found in the template's tags and outputs (each once). */
function jinjaConstructs(source: string, onlySilent: boolean): JinjaConstruct[] {
  const found = new Set<JinjaConstruct>();
  for (const piece of markup(source))
    for (const construct of constructs)
      if ((construct.silent || !onlySilent) && construct.pattern.test(piece)) found.add(construct);
  return [...found];
}

function spellings(found: readonly JinjaConstruct[]): string {
  return found.map((construct) => `write ${construct.liquid} for ${construct.jinja}`).join("; ");
}

const table = "the Jinja → Liquid table is in docs/builtin-components.md";

/**
 * A sentence to add to a parse error when the template holds Jinja that Liquid spells differently;
 * `undefined` when none is found.
 */
export function jinjaParseHint(source: string): string | undefined {
  const found = jinjaConstructs(source, false);
  if (found.length === 0) return undefined;
  return `Templates are Liquid, not Jinja: ${spellings(found)} (${table}).`;
}

/**
 * The problem with a template that parses but holds Jinja that Liquid reads differently (an input
 * variable named `loop`, a slice that prints nothing); `undefined` when there is none.
 */
export function jinjaMisreadProblem(source: string): string | undefined {
  const found = jinjaConstructs(source, true);
  if (found.length === 0) return undefined;
  return `it is read as Liquid, where this Jinja would not mean what it says: ${spellings(found)} (${table}).`;
}
