import { z } from "zod";
import { defOf, finiteValues, type SenderAtom } from "./compat-atoms.js";
import { hasNoChecks } from "./compat-checks.js";

/**
 * Structural compatibility of objects, records and object intersections. A stripping `z.object`
 * sender is assumed to carry only the keys it declares (as TypeScript assumes); loose and catchall
 * senders may carry more.
 */

/** The compatibility relation the object rules recurse into (bound to the current comparison). */
export interface Relation {
  /** Every value of `sender` is accepted by `receiver`. */
  compatible(sender: z.ZodType, receiver: z.ZodType): boolean;
  /** Every value of one sender atom is accepted by `receiver`. */
  accepts(atom: SenderAtom, receiver: z.ZodType): boolean;
}

/** True when an object key (or tuple item) declared with `schema` may be absent. */
export function isOptionalKey(schema: z.ZodType): boolean {
  const optin = (schema._zod as { optin?: string }).optin;
  return optin === "optional" || optin === "defaulted";
}

/** True when the sender's value for a key declared with `schema` may be absent. */
function mayBeAbsent(schema: z.ZodType): boolean {
  return (schema._zod as { optout?: string }).optout === "optional";
}

/**
 * The extra keys a sender object may carry: `"none"` for strict objects and (as TypeScript assumes) for
 * stripping ones, else the catchall schema (`unknown` for loose objects).
 */
function senderExtraKeys(schema: z.ZodType): z.ZodType | "none" {
  const catchall = (defOf(schema) as { catchall?: z.ZodType }).catchall;
  return catchall === undefined || defOf(catchall).type === "never" ? "none" : catchall;
}

/** The extra keys a receiver object accepts: `"any"` (stripped), `"none"` (strict) or the catchall schema. */
function receiverExtraKeys(schema: z.ZodType): z.ZodType | "none" | "any" {
  const catchall = (defOf(schema) as { catchall?: z.ZodType }).catchall;
  if (catchall === undefined) return "any";
  return defOf(catchall).type === "never" ? "none" : catchall;
}

export function objectInto(sender: z.ZodType, receiver: z.ZodType, relation: Relation): boolean {
  const senderShape = (defOf(sender) as unknown as { shape: Record<string, z.ZodType> }).shape;
  const receiverShape = (defOf(receiver) as unknown as { shape: Record<string, z.ZodType> }).shape;
  const senderExtra = senderExtraKeys(sender);
  const receiverExtra = receiverExtraKeys(receiver);
  for (const [key, expected] of Object.entries(receiverShape)) {
    const sent = Object.hasOwn(senderShape, key) ? senderShape[key] : undefined;
    if (sent === undefined) {
      // Not declared by the sender: absent, or (catchall senders) present with a catchall value.
      if (!isOptionalKey(expected)) return false;
      if (senderExtra !== "none" && !relation.compatible(senderExtra, expected)) return false;
      continue;
    }
    if (mayBeAbsent(sent) && !isOptionalKey(expected)) return false;
    if (!relation.compatible(sent, expected)) return false;
  }
  if (receiverExtra === "any") return true;
  for (const [key, sent] of Object.entries(senderShape)) {
    if (Object.hasOwn(receiverShape, key)) continue;
    if (receiverExtra === "none" || !relation.compatible(sent, receiverExtra)) return false;
  }
  if (senderExtra === "none") return true;
  return receiverExtra !== "none" && relation.compatible(senderExtra, receiverExtra);
}

export function recordInto(sender: z.ZodType, receiver: z.ZodType, relation: Relation): boolean {
  const r = defOf(receiver) as unknown as { keyType: z.ZodType; valueType: z.ZodType };
  const receiverKeys = finiteValues(r.keyType);
  const exhaustive = receiverKeys !== undefined && !isPartial(receiver);
  const s = defOf(sender);
  if (s.type === "record") {
    if (!relation.compatible(s.keyType as z.ZodType, r.keyType)) return false;
    if (!relation.compatible(s.valueType as z.ZodType, r.valueType)) return false;
    if (!exhaustive) return true;
    // Every key the receiver requires must be one the sender always writes.
    const senderKeys = finiteValues(s.keyType as z.ZodType);
    return (
      senderKeys !== undefined && !isPartial(sender) && receiverKeys.every((key) => senderKeys.includes(key))
    );
  }
  if (s.type !== "object") return false;
  const shape = s.shape as Record<string, z.ZodType>;
  for (const [key, sent] of Object.entries(shape)) {
    if (!relation.accepts({ kind: "value", value: key }, r.keyType)) return false;
    if (!relation.compatible(sent, r.valueType)) return false;
  }
  const senderExtra = senderExtraKeys(sender);
  if (
    senderExtra !== "none" &&
    !(acceptsAnyString(r.keyType) && relation.compatible(senderExtra, r.valueType))
  ) {
    return false;
  }
  if (!exhaustive) return true;
  return receiverKeys.every((key) => {
    const sent = typeof key === "string" && Object.hasOwn(shape, key) ? shape[key] : undefined;
    return sent !== undefined && !mayBeAbsent(sent);
  });
}

/** True when a record's key schema accepts every string (plain `z.string()` or a top type). */
function acceptsAnyString(keyType: z.ZodType): boolean {
  const type = defOf(keyType).type;
  return type === "any" || type === "unknown" || (type === "string" && hasNoChecks(keyType));
}

function isPartial(record: z.ZodType): boolean {
  return (defOf(record) as { partial?: boolean }).partial === true;
}

const mergedObjects = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A value of `A & B` is a value of A and of B, so either side fitting is enough, except for objects:
 * `{a} & {b}` carries both keys, so two object sides are merged into one object first.
 */
export function intersectionInto(sender: z.ZodType, receiver: z.ZodType, relation: Relation): boolean {
  const { left, right } = defOf(sender) as unknown as { left: z.ZodType; right: z.ZodType };
  const leftIsObject = defOf(left).type === "object";
  const rightIsObject = defOf(right).type === "object";
  if (!leftIsObject && !rightIsObject) {
    return relation.compatible(left, receiver) || relation.compatible(right, receiver);
  }
  if (!leftIsObject || !rightIsObject) return false;
  let merged = mergedObjects.get(sender);
  if (merged === undefined) {
    const leftShape = (defOf(left) as unknown as { shape: Record<string, z.ZodType> }).shape;
    const rightShape = (defOf(right) as unknown as { shape: Record<string, z.ZodType> }).shape;
    const shape: Record<string, z.ZodType> = { ...leftShape };
    for (const [key, value] of Object.entries(rightShape)) {
      const existing = shape[key];
      shape[key] = existing === undefined ? value : z.intersection(existing, value);
    }
    // Extra keys: a strict side forbids them, a stripping side lets the other side's catchall decide.
    const extras = [receiverExtraKeys(left), receiverExtraKeys(right)];
    const typed = extras.filter((extra): extra is z.ZodType => typeof extra !== "string");
    const catchall =
      extras.includes("none") || typed.length === 0
        ? undefined
        : typed.reduce((all: z.ZodType, extra) => z.intersection(all, extra));
    merged = catchall === undefined ? z.object(shape) : z.object(shape).catchall(catchall);
    mergedObjects.set(sender, merged);
  }
  return relation.compatible(merged, receiver);
}
