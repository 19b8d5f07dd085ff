/**
 * ISO 8601 dates as Haystack's filters read them (Python's `datetime.fromisoformat`): a date, an
 * optional time, an optional UTC offset. A date without an offset is "naive"; comparing a naive date
 * with an aware one gives the naive date the other's offset (Haystack's default,
 * `strict_datetime_comparison=False`).
 */

/** A parsed date: the wall-clock time as milliseconds since the epoch read as UTC, plus its offset. */
export interface ParsedDate {
  /** Wall-clock time, as if it were UTC, in whole milliseconds. */
  readonly wallMs: number;
  /** Microseconds below the millisecond (0–999): Python datetimes keep microseconds. */
  readonly micros: number;
  /** The UTC offset in milliseconds, or `null` for a naive date. */
  readonly offsetMs: number | null;
}

const isoPattern =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[Tt ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?(Z|z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d+)?)?)?)?)?$/;

const offsetPattern = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?$/;

/**
 * Haystack's cheap pre-check for `==` date equality: a full `YYYY-MM-DD` prefix followed by nothing or
 * `T`, `t` or a space. Only strings passing it are compared as dates by `==`.
 */
export function looksLikeIsoDate(value: unknown): value is string {
  if (typeof value !== "string" || value.length < 10) return false;
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return false;
  return value.length === 10 || value[10] === "T" || value[10] === "t" || value[10] === " ";
}

/** Parses an ISO 8601 date string; `undefined` when it is not one (or names an impossible date). */
export function parseIsoDate(text: string): ParsedDate | undefined {
  const match = isoPattern.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fractionMicros = Number(`${fraction ?? ""}000000`.slice(0, 6));
  let offsetMs: number | null = null;
  if (zone !== undefined) {
    if (zone === "Z" || zone === "z") offsetMs = 0;
    else {
      const offset = offsetPattern.exec(zone);
      if (offset === null) return undefined;
      const [, sign, oh, om, os, ofraction] = offset;
      const hours = Number(oh);
      const minutes = Number(om ?? 0);
      const seconds = Number(os ?? 0);
      if (minutes > 59 || seconds > 59) return undefined;
      const magnitude =
        ((hours * 60 + minutes) * 60 + seconds) * 1000 + Number(`${ofraction ?? ""}000`.slice(0, 3));
      if (magnitude >= 86_400_000) return undefined;
      offsetMs = sign === "-" ? -magnitude : magnitude;
    }
  }
  const days = daysFromCivil(year, month, day);
  const wallMs =
    ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + Math.floor(fractionMicros / 1000);
  return { wallMs, micros: fractionMicros % 1000, offsetMs };
}

/** A JavaScript `Date` as an aware (UTC) date. */
export function dateFromJs(date: Date): ParsedDate {
  return { wallMs: date.getTime(), micros: 0, offsetMs: 0 };
}

/**
 * Compares two dates as instants (-1, 0, 1), or `NaN` when either is an invalid `Date`. A naive date
 * takes the other's offset; two naive dates compare by wall-clock time.
 */
export function compareDates(a: ParsedDate, b: ParsedDate): number {
  const offsetA = a.offsetMs ?? b.offsetMs ?? 0;
  const offsetB = b.offsetMs ?? a.offsetMs ?? 0;
  const instantA = a.wallMs - offsetA;
  const instantB = b.wallMs - offsetB;
  if (Number.isNaN(instantA) || Number.isNaN(instantB)) return Number.NaN;
  if (instantA !== instantB) return instantA < instantB ? -1 : 1;
  return a.micros === b.micros ? 0 : a.micros < b.micros ? -1 : 1;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
