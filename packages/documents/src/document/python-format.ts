/**
 * Python's text forms that Haystack's document id hashes, copied bit for bit: `repr(float)`,
 * `repr(bytes)`, `repr(list)` of floats, and `json.dumps(value, sort_keys=True, default=str)` with its
 * defaults (`", "` and `": "` separators, `ensure_ascii`, `NaN` / `Infinity`).
 *
 * JavaScript has one number type, so an integral number prints as a Python `int` when
 * |n| ≤ 2^53 (what a JSON integer becomes in Python) and as a `float` otherwise; `-0` prints as the
 * float `-0.0`. Use a `bigint` for an integer beyond 2^53.
 */

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const [mantissa = "", exponentText = "0"] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const decimalPoint = exponent + 1;
  if (decimalPoint > 16 || decimalPoint < -3) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const absExponent = Math.abs(exponent);
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? "-" : "+"}${absExponent < 10 ? "0" : ""}${absExponent}`;
  }
  if (decimalPoint <= 0) return `${sign}0.${"0".repeat(-decimalPoint)}${digits}`;
  if (decimalPoint >= digits.length) return `${sign}${digits}${"0".repeat(decimalPoint - digits.length)}.0`;
  return `${sign}${digits.slice(0, decimalPoint)}.${digits.slice(decimalPoint)}`;
}

/** A JavaScript number as Python prints it: an `int` when integral and |n| ≤ 2^53 (not `-0`), else `repr(float)`. */
export function pythonNumberRepr(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) <= 2 ** 53 && !Object.is(value, -0)) return String(value);
  return pythonFloatRepr(value);
}

/** Python's `repr(list_of_floats)`, e.g. `[0.1, 1e-07]` (every element printed as a float). */
export function pythonFloatListRepr(values: readonly number[]): string {
  return `[${values.map(pythonFloatRepr).join(", ")}]`;
}

/** Python's `repr(bytes)`: `b'...'`, or `b"..."` when the bytes hold `'` but no `"`. */
export function pythonBytesRepr(data: Uint8Array): string {
  const single = 0x27;
  const double = 0x22;
  const quote = data.includes(single) && !data.includes(double) ? '"' : "'";
  let out = `b${quote}`;
  for (const byte of data) {
    if (byte === 0x5c) out += "\\\\";
    else if (byte === 0x09) out += "\\t";
    else if (byte === 0x0a) out += "\\n";
    else if (byte === 0x0d) out += "\\r";
    else if (byte === single && quote === "'") out += "\\'";
    else if (byte < 0x20 || byte >= 0x7f) out += `\\x${byte.toString(16).padStart(2, "0")}`;
    else out += String.fromCharCode(byte);
  }
  return `${out}${quote}`;
}

/** Python's `str(datetime)` of an aware UTC datetime: `2024-05-01 12:30:00+00:00` (microseconds when set). */
export function pythonDatetimeStr(date: Date): string {
  const iso = date.toISOString();
  const milliseconds = date.getUTCMilliseconds();
  const fraction = milliseconds === 0 ? "" : `.${String(milliseconds * 1000).padStart(6, "0")}`;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00:00`;
}

/**
 * Python's `json.dumps(value, sort_keys=True, default=str)`. Keys are sorted by code point at every
 * level; non-ASCII characters are written as `\uXXXX` (surrogate pairs for astral characters). Values
 * JSON cannot hold take Python's `str()`: a `Date` as a UTC datetime, a `Uint8Array` as `b'...'`, a
 * `bigint` exactly; an object with `toJSON` is written as what it returns; `undefined` object entries
 * are left out (as `JSON.stringify` does) and `undefined` list items are `null`.
 */
export function pythonJsonDumps(value: unknown): string {
  return dumps(value, []);
}

/** How deeply nested a value may be (Python's `json.dumps` raises `RecursionError` near 1,000 too). */
const maxJsonDepth = 1000;

/** `ancestors` holds the objects and lists being written, to refuse a cycle as Python does. */
function dumps(value: unknown, ancestors: object[]): string {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (value === Number.POSITIVE_INFINITY) return "Infinity";
    if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
    return pythonNumberRepr(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return pythonJsonString(value);
  if (value instanceof Date) return pythonJsonString(pythonDatetimeStr(value));
  if (value instanceof Uint8Array) return pythonJsonString(pythonBytesRepr(value));
  if (typeof value !== "object") return pythonJsonString(String(value));
  if (ancestors.includes(value)) {
    throw new TypeError(
      "Document: meta holds a circular reference (an object that contains itself), which has no JSON form. Give the document plain data.",
    );
  }
  if (ancestors.length >= maxJsonDepth) {
    throw new TypeError(
      `Document: meta is nested more than ${maxJsonDepth} levels deep, which has no JSON form Haystack can write. Flatten it.`,
    );
  }
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item) => dumps(item, ancestors)).join(", ")}]`;
    const withToJSON = value as { toJSON?: unknown };
    if (typeof withToJSON.toJSON === "function") {
      return dumps((withToJSON.toJSON as () => unknown)(), ancestors);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort(compareCodePoints);
    return `{${keys.map((key) => `${pythonJsonString(key)}: ${dumps(record[key], ancestors)}`).join(", ")}}`;
  } finally {
    ancestors.pop();
  }
}

/** Orders strings by Unicode code point, as Python sorts `str` (JavaScript's default sort uses UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x === y) continue;
    const surrogateX = x >= 0xd800 && x <= 0xdfff;
    const surrogateY = y >= 0xd800 && y <= 0xdfff;
    if (surrogateX !== surrogateY) return surrogateX ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

const shortEscapes: Record<number, string> = {
  34: '\\"',
  92: "\\\\",
  10: "\\n",
  13: "\\r",
  9: "\\t",
  8: "\\b",
  12: "\\f",
};

/** A string as Python's `json.dumps` writes it with `ensure_ascii=True`. */
function pythonJsonString(text: string): string {
  let out = '"';
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const short = shortEscapes[code];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += text[index];
  }
  return `${out}"`;
}
