import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { describeDepthLimit, maxSnapshotDepth } from "./value-limits.js";

/**
 * Canonical JSON: object keys sorted, no whitespace, `undefined` properties left out. Two equal values
 * always give the same text, so hashes and signatures over it are stable across processes.
 *
 * @throws TypeError for values JSON cannot hold (functions, bigints, symbols, cycles, non-finite numbers)
 *   and for nesting deeper than a run snapshot may have (`maxValueDepth` plus the snapshot's own levels)
 */
export function canonicalJSON(value: unknown): string {
  return write(value, new Set(), true);
}

function write(value: unknown, seen: Set<object>, callToJSON: boolean): string {
  // `seen` holds the objects being written: its size is the depth.
  if (seen.size > maxSnapshotDepth) {
    throw new TypeError(
      `canonicalJSON: the value is nested deeper than ${describeDepthLimit(maxSnapshotDepth)}; values in a run may nest at most ${describeDepthLimit()}.`,
    );
  }
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJSON: ${value} has no JSON form.`);
      return JSON.stringify(value);
    case "object":
      break;
    default:
      throw new TypeError(`canonicalJSON: a ${typeof value} has no JSON form.`);
  }
  const object = value as object;
  // As JSON.stringify: toJSON is called on the value, not again on what it returned.
  if (callToJSON && typeof (object as { toJSON?: unknown }).toJSON === "function") {
    return write((object as { toJSON(): unknown }).toJSON(), seen, false);
  }
  if (seen.has(object)) throw new TypeError("canonicalJSON: the value contains a cycle.");
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      return `[${object.map((item) => (item === undefined ? "null" : write(item, seen, true))).join(",")}]`;
    }
    const record = object as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      if (item === undefined || typeof item === "function") continue;
      parts.push(`${JSON.stringify(key)}:${write(item, seen, true)}`);
    }
    return `{${parts.join(",")}}`;
  } finally {
    seen.delete(object);
  }
}

/** `"sha256:<hex>"` of the canonical JSON of `value`. */
export function hashJSON(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJSON(value)).digest("hex")}`;
}

/** `"hmac-sha256:<hex>"` of `text` under `secret`. */
export function hmac(text: string, secret: string | Uint8Array): string {
  return `hmac-sha256:${createHmac("sha256", secret).update(text).digest("hex")}`;
}

/** Compares two signatures in constant time. */
export function sameSignature(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
