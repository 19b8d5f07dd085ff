/**
 * Python's whitespace: the characters `str.isspace()` accepts, which are also what `\s` matches in a
 * Python `str` regex and what `str.split()` / `str.strip()` cut at. JavaScript's `\s` differs: it lacks
 * the information separators U+001C–U+001F and NEL (U+0085), and adds the BOM (U+FEFF), which Python
 * treats as text. Haystack's components split, strip and match with Python's set, so Junction's do too.
 */

/** The body of a regex character class matching one Python whitespace character. */
export const pythonWhitespaceClass =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const isSpace = new RegExp(`^[${pythonWhitespaceClass}]$`);
const nonSpaceRuns = new RegExp(`[^${pythonWhitespaceClass}]+`, "g");

/** True when `char` (one UTF-16 code unit) is Python whitespace. */
export function isPythonWhitespace(char: string): boolean {
  return isSpace.test(char);
}

/** Python's `str.strip()`: removes Python whitespace from both ends (a scan, no backtracking regex). */
export function pythonStrip(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace.test(value.charAt(start))) start += 1;
  while (end > start && isSpace.test(value.charAt(end - 1))) end -= 1;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** `len(text.split())` in Python: the number of runs of non-whitespace. */
export function pythonWordCount(text: string): number {
  nonSpaceRuns.lastIndex = 0;
  let count = 0;
  while (nonSpaceRuns.exec(text) !== null) count += 1;
  return count;
}

/**
 * A fresh global regex matching runs of Python non-whitespace (Python's `\S+`), for scans that set
 * `lastIndex` themselves.
 */
export function pythonWordPattern(): RegExp {
  return new RegExp(`[^${pythonWhitespaceClass}]+`, "g");
}
