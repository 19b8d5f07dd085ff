import { compareDates, dateFromJs, looksLikeIsoDate, type ParsedDate, parseIsoDate } from "./iso-date.js";

/**
 * Python's `==` on JSON-like values, as Haystack's filters use it: `None` equals only `None` (a missing
 * field is `None`); numbers compare by value and booleans count as the integers 0 and 1 (`True == 1`);
 * lists and objects compare deeply; other class instances are equal when they have the same class and
 * equal own fields.
 */
export function pythonEquals(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  if (b === undefined || b === null) return false;
  if (isNumeric(a) && isNumeric(b)) return numericCompare(a, b) === 0;
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!pythonEquals(a[index], b[index])) return false;
    return true;
  }
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  if (a === b) return true;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) && !(isPlainObject(a) && isPlainObject(b))) {
    return false;
  }
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  for (const key of keysA) {
    if (!Object.hasOwn(recordB, key) || !pythonEquals(recordA[key], recordB[key])) return false;
  }
  return true;
}

/**
 * Haystack's `==` in filters: Python equality, or two ISO 8601 dates (strings or `Date`s) that denote
 * the same instant.
 */
export function filterEquals(a: unknown, b: unknown): boolean {
  if (pythonEquals(a, b)) return true;
  const first = equalityDate(a);
  if (first === undefined) return false;
  const second = equalityDate(b);
  return second !== undefined && compareDates(first, second) === 0;
}

function equalityDate(value: unknown): ParsedDate | undefined {
  if (value instanceof Date) return dateFromJs(value);
  return looksLikeIsoDate(value) ? parseIsoDate(value) : undefined;
}

/** Why two values cannot be ordered; the caller turns it into a `FilterError`. */
export class OrderingProblem {
  /** @param message - what cannot be compared and how to fix it */
  constructor(readonly message: string) {}
}

/**
 * Python's ordering as Haystack's `> >= < <=` use it: `undefined` when either side is missing or null
 * (the comparison is false); when either side is a string both sides must be ISO dates; numbers and
 * booleans compare as numbers; anything else cannot be ordered. Returns -1, 0, 1, `NaN` (never true),
 * or an {@link OrderingProblem}.
 */
export function pythonOrder(value: unknown, filterValue: unknown): number | undefined | OrderingProblem {
  if (value === undefined || value === null || filterValue === undefined || filterValue === null)
    return undefined;
  if (typeof value === "string" || typeof filterValue === "string") {
    const a = orderingDate(value);
    const b = orderingDate(filterValue);
    if (a === undefined || b === undefined) {
      return new OrderingProblem(
        `cannot compare ${describe(value)} with ${describe(filterValue)} using '>', '>=', '<', '<='. ` +
          "Strings are only comparable if they are ISO formatted dates (2024-05-01 or 2024-05-01T12:00:00+02:00).",
      );
    }
    return compareDates(a, b);
  }
  if (value instanceof Date && filterValue instanceof Date)
    return compareDates(dateFromJs(value), dateFromJs(filterValue));
  if (Array.isArray(filterValue)) {
    return new OrderingProblem(
      "a list cannot be compared using '>', '>=', '<', '<='. Compare with a number or an ISO date.",
    );
  }
  if (isNumeric(value) && isNumeric(filterValue)) return numericCompare(value, filterValue);
  return new OrderingProblem(
    `cannot order ${describe(value)} against ${describe(filterValue)}: '>', '>=', '<', '<=' compare numbers with numbers and ISO dates with ISO dates.`,
  );
}

function orderingDate(value: unknown): ParsedDate | undefined {
  if (value instanceof Date) return dateFromJs(value);
  return typeof value === "string" ? parseIsoDate(value) : undefined;
}

type Numeric = number | bigint | boolean;

function isNumeric(value: unknown): value is Numeric {
  return typeof value === "number" || typeof value === "bigint" || typeof value === "boolean";
}

/** Compares two numbers exactly, also a `bigint` with a `number`; `NaN` when either is NaN. */
function numericCompare(a: Numeric, b: Numeric): number {
  const x = typeof a === "boolean" ? Number(a) : a;
  const y = typeof b === "boolean" ? Number(b) : b;
  if (typeof x === "number" && typeof y === "number")
    return x === y ? 0 : x < y ? -1 : x > y ? 1 : Number.NaN;
  if (typeof x === "bigint" && typeof y === "bigint") return x === y ? 0 : x < y ? -1 : 1;
  const [big, small, sign] = typeof x === "bigint" ? [x, y as number, 1] : [y as bigint, x as number, -1];
  if (Number.isNaN(small)) return Number.NaN;
  if (!Number.isFinite(small)) return small > 0 ? -sign : sign;
  const floor = BigInt(Math.floor(small));
  if (big !== floor) return big > floor ? sign : -sign;
  return Number.isInteger(small) ? 0 : -sign;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a date";
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${String(value)}`;
}
