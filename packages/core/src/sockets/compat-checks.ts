import type { z } from "zod";

/**
 * Whether the checks (refinements) of a sender schema imply those of a receiver schema of the same kind.
 *
 * `z.string().min(3)` into `z.string().min(1)` is fine; `z.string()` into `z.string().min(1)` is not,
 * because the sender may produce `""`. Known bounds are compared numerically; every other check must be
 * present on the sender too (the same check, or one with an equal definition). Checks that only rewrite
 * values (`trim`, `toLowerCase`) never reject and are ignored on the receiver.
 */

interface CheckDef {
  readonly check: string;
  readonly [key: string]: unknown;
}

/** The checks a schema applies: its own (format schemas such as `z.int()`, `z.email()`) and `def.checks`. */
function checksOf(schema: z.ZodType): CheckDef[] {
  const def = schema._zod.def as { check?: string; checks?: readonly { _zod: { def: unknown } }[] };
  const checks: CheckDef[] = [];
  if (typeof def.check === "string") checks.push(def as CheckDef);
  for (const check of def.checks ?? []) checks.push(check._zod.def as CheckDef);
  return checks;
}

/** Integer formats that are contained in `safeint`. */
const safeIntegerFormats = new Set(["safeint", "int32", "uint32"]);

/** The range of each integer format (so `z.int()` implies `>= -(2^53 - 1)`, as JSON Schema writes it). */
const formatRanges: Record<string, readonly [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
};

function boundImplied(sender: CheckDef, receiver: CheckDef): boolean {
  const range = sender.check === "number_format" ? formatRanges[String(sender.format)] : undefined;
  if (range === undefined) return false;
  const limit = num(receiver, "value");
  const inclusive = receiver.inclusive === true;
  if (receiver.check === "greater_than") return range[0] > limit || (inclusive && range[0] === limit);
  if (receiver.check === "less_than") return range[1] < limit || (inclusive && range[1] === limit);
  return false;
}

function num(def: CheckDef, key: string): number {
  const value = def[key];
  return typeof value === "number" ? value : Number(value);
}

function lengthBounds(def: CheckDef): { min: number; max: number } | undefined {
  switch (def.check) {
    case "min_length":
    case "min_size":
      return { min: num(def, "minimum"), max: Number.POSITIVE_INFINITY };
    case "max_length":
    case "max_size":
      return { min: 0, max: num(def, "maximum") };
    case "length_equals":
      return { min: num(def, "length"), max: num(def, "length") };
    case "size_equals":
      return { min: num(def, "size"), max: num(def, "size") };
    default:
      return undefined;
  }
}

function implies(sender: CheckDef, receiver: CheckDef): boolean {
  if (sender === receiver) return true;
  const receiverBounds = lengthBounds(receiver);
  const senderBounds = lengthBounds(sender);
  if (receiverBounds !== undefined && senderBounds !== undefined) {
    const sizeKind = (check: string) => check.endsWith("_size") || check === "size_equals";
    if (sizeKind(sender.check) !== sizeKind(receiver.check)) return false;
    if (receiver.check === "min_length" || receiver.check === "min_size")
      return senderBounds.min >= receiverBounds.min;
    if (receiver.check === "max_length" || receiver.check === "max_size")
      return senderBounds.max <= receiverBounds.max;
    return senderBounds.min === receiverBounds.min && senderBounds.max === receiverBounds.max;
  }
  if (sender.check !== receiver.check) return boundImplied(sender, receiver);
  switch (receiver.check) {
    case "greater_than": {
      const s = num(sender, "value");
      const r = num(receiver, "value");
      return s > r || (s === r && (receiver.inclusive === true || sender.inclusive !== true));
    }
    case "less_than": {
      const s = num(sender, "value");
      const r = num(receiver, "value");
      return s < r || (s === r && (receiver.inclusive === true || sender.inclusive !== true));
    }
    case "multiple_of":
      return num(sender, "value") % num(receiver, "value") === 0;
    case "number_format":
      return (
        sender.format === receiver.format ||
        (receiver.format === "safeint" && safeIntegerFormats.has(String(sender.format)))
      );
    case "string_format":
      return sender.format === receiver.format && samePattern(sender.pattern, receiver.pattern);
    default:
      return deepEqual(sender, receiver);
  }
}

function samePattern(a: unknown, b: unknown): boolean {
  if (a instanceof RegExp && b instanceof RegExp) return a.source === b.source && a.flags === b.flags;
  return a === b;
}

/** Structural equality of check definitions; functions by reference, regular expressions by source. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof RegExp || b instanceof RegExp) return samePattern(a, b);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) =>
    deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * True when every value that passes the sender's checks passes the receiver's checks (both schemas of
 * the same kind, e.g. two `string` schemas).
 *
 * @param sender - the sender's schema
 * @param receiver - the receiver's schema
 */
export function checksImply(sender: z.ZodType, receiver: z.ZodType): boolean {
  const receiverChecks = checksOf(receiver).filter((check) => check.check !== "overwrite");
  if (receiverChecks.length === 0) return true;
  const senderChecks = checksOf(sender);
  return receiverChecks.every((required) => senderChecks.some((present) => implies(present, required)));
}

/** True when the schema applies no rejecting check (so any value of its kind passes). */
export function hasNoChecks(schema: z.ZodType): boolean {
  return checksOf(schema).every((check) => check.check === "overwrite");
}
