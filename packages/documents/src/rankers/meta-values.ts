/** How `MetaFieldRanker` parses string meta values before sorting. */
export const metaValueTypes = ["float", "int", "date"] as const;

/** One of {@link metaValueTypes}. */
export type MetaValueType = (typeof metaValueTypes)[number];

/** Python's `float(str)`: surrounding whitespace, `_` between digits, `inf`/`nan`; else an error. */
function parseFloatValue(value: string): number {
  const trimmed = value.trim();
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(trimmed);
  if (special !== null) {
    if ((special[2] ?? "").toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[+-]?(\d(_?\d)*)?(\.(\d(_?\d)*)?)?([eE][+-]?\d(_?\d)*)?$/.test(trimmed) || !/\d/.test(trimmed)) {
    throw new Error(`could not convert string to float: '${value}'`);
  }
  return Number(trimmed.replaceAll("_", ""));
}

/** Python's `int(str)`: an optionally signed run of digits (with `_` between digits). */
function parseIntValue(value: string): number {
  const trimmed = value.trim();
  if (!/^[+-]?\d(_?\d)*$/.test(trimmed))
    throw new Error(`invalid literal for int() with base 10: '${value}'`);
  return Number(trimmed.replaceAll("_", ""));
}

const isoWithoutZone = /^\s*\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*$/;
const withZone = /(Z|[+-]\d{2}:?\d{2}|\b(GMT|UTC|UT|[ECMP][SD]T))\s*$/i;

/**
 * A date string (what `Date.parse` reads: ISO 8601 and RFC 2822) as epoch milliseconds. A date-time
 * without a zone is read as UTC, not local time: dateutil gives a naive datetime, and naive values
 * compare by their clock reading, whatever the machine's time zone.
 */
function parseDateValue(value: string): number {
  const time = Date.parse(isoWithoutZone.test(value) ? `${value.trim().replace(" ", "T")}Z` : value);
  if (Number.isNaN(time)) throw new Error(`String does not contain a date: '${value}'`);
  return time;
}

/**
 * True when some date strings name a time zone and others do not: Python cannot order an aware
 * datetime against a naive one (`TypeError`), so Haystack keeps the incoming order then.
 */
export function mixesZonedAndNaiveDates(values: readonly string[]): boolean {
  let zoned = false;
  let naive = false;
  for (const value of values) {
    if (withZone.test(value.trim())) zoned = true;
    else naive = true;
  }
  return zoned && naive;
}

/**
 * Parses every value as `type`.
 *
 * @throws the first value that does not parse (the caller falls back to the raw values, as Haystack)
 */
export function parseMetaValues(values: readonly string[], type: MetaValueType): number[] {
  const parse = type === "float" ? parseFloatValue : type === "int" ? parseIntValue : parseDateValue;
  return values.map(parse);
}

/** The kind of a sortable meta value, or `undefined` when Python could not order it with others. */
function kindOf(value: unknown): "number" | "string" | undefined {
  if (typeof value === "number" || typeof value === "boolean") return "number";
  if (typeof value === "string") return "string";
  return undefined;
}

/**
 * Compares two strings by code point, as Python does (JavaScript's `<` compares UTF-16 code units, which
 * puts an emoji before U+E000–U+FFFF). Only the first differing unit matters: if both are at or above
 * U+D800, surrogates move above the BMP's private-use and compatibility blocks.
 */
function compareStrings(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    let left = a.charCodeAt(index);
    let right = b.charCodeAt(index);
    if (left === right) continue;
    if (left >= 0xd800 && right >= 0xd800) {
      left += left < 0xe000 ? 0x2000 : -0x800;
      right += right < 0xe000 ? 0x2000 : -0x800;
    }
    return left - right;
  }
  return a.length - b.length;
}

/**
 * Orders `values` as Python's `sorted(..., reverse=descending)` would (stable: equal values keep their
 * order), returning the indices; `undefined` when the values cannot be compared with each other (mixed
 * kinds, or lists, objects and nulls) — where Python raises a `TypeError`.
 */
export function sortIndices(values: readonly unknown[], descending: boolean): number[] | undefined {
  const indices = values.map((_, index) => index);
  if (values.length < 2) return indices;
  const kind = kindOf(values[0]);
  if (kind === undefined || values.some((value) => kindOf(value) !== kind)) return undefined;
  const compare =
    kind === "number"
      ? (a: unknown, b: unknown) => Number(a) - Number(b)
      : (a: unknown, b: unknown) => compareStrings(a as string, b as string);
  return indices.sort(
    (a, b) => (descending ? compare(values[b], values[a]) : compare(values[a], values[b])) || 0,
  );
}
