/**
 * The parts of Python's `re` syntax that Haystack pipelines commonly use and JavaScript spells
 * differently, translated so a `DocumentCleaner` configured for Haystack works unchanged:
 *
 * - leading inline flags `(?i)`, `(?m)`, `(?s)` (and `a`, `L`, `u`, which change nothing here) become
 *   RegExp flags; `(?x)` (verbose) is refused;
 * - named groups `(?P<name>…)` and back-references `(?P=name)` become `(?<name>…)` and `\k<name>`;
 * - in replacements, `\1`, `\g<1>` and `\g<name>` become `$1` and `$<name>` (JavaScript's `$1` works
 *   too), and the escapes `\n`, `\t`, `\r`, `\\` become the characters Python's `re.sub` puts there.
 *
 * Character classes keep JavaScript's meaning (`\w`, `\d` and `\b` are ASCII-only there).
 */

/** A pattern ready for `new RegExp(source, flags)`. */
export interface TranslatedPattern {
  readonly source: string;
  readonly flags: string;
}

const leadingFlags = /^\(\?([aiLmsux]+)\)/;

/**
 * Translates a Python pattern (see the module comment); a JavaScript pattern passes through unchanged.
 *
 * @throws Error for the verbose flag `(?x)`, which has no JavaScript equivalent
 */
export function translatePythonPattern(pattern: string): TranslatedPattern {
  let source = pattern;
  const flags = new Set<string>(["g"]);
  const inline = leadingFlags.exec(source);
  if (inline !== null) {
    for (const flag of inline[1] ?? "") {
      if (flag === "x")
        throw new Error("the verbose flag (?x) has no JavaScript equivalent; write the pattern without it");
      if (flag === "i" || flag === "m" || flag === "s") flags.add(flag);
    }
    source = source.slice(inline[0].length);
  }
  source = source
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, "(?<$1>")
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, "\\k<$1>");
  return { source, flags: [...flags].join("") };
}

const pythonEscapes: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "\\": "\\" };

/**
 * Translates a Python `re.sub` replacement: group references to JavaScript's `$` form and the common
 * escapes to their characters. A replacement without backslashes is returned unchanged.
 */
export function translatePythonReplacement(replacement: string): string {
  if (!replacement.includes("\\")) return replacement;
  return replacement.replace(
    /\\(g<([A-Za-z_][A-Za-z0-9_]*|\d+)>|\d{1,2}|[ntr\\])/g,
    (match, sequence: string, group?: string) => {
      if (group !== undefined) {
        if (group === "0") return "$&";
        return /^\d+$/.test(group) ? `$${group}` : `$<${group}>`;
      }
      if (/^\d/.test(sequence)) return `$${sequence}`;
      return pythonEscapes[sequence] ?? match;
    },
  );
}
