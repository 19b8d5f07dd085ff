import { z } from "zod";
import { defOf, finiteValues, type Primitive, type SenderAtom, senderAtoms } from "./compat-atoms.js";
import { checksImply, hasNoChecks } from "./compat-checks.js";
import { namedTypeName } from "./named-types.js";

/**
 * Strict socket type compatibility: true only when every value the sender may produce is accepted by the
 * receiver unchanged. Both sides are described by the values their schemas accept (a pipeline sends what
 * `run` returned). The answer errs on the side of "incompatible" where zod cannot tell (refinements,
 * custom schemas). One assumption is taken from TypeScript: a stripping `z.object` sender carries only
 * the keys it declares.
 */

/** Pairs under comparison on the current path: recursive schemas are compatible if no step disagrees. */
type Visiting = Map<z.ZodType, Set<z.ZodType>>;

/**
 * True when every value `sender` may produce is accepted by `receiver` without conversion.
 *
 * @param sender - the output socket's schema
 * @param receiver - the input socket's schema
 */
export function isStrictlyCompatible(sender: z.ZodType, receiver: z.ZodType): boolean {
  return compatible(sender, receiver, new Map());
}

function compatible(sender: z.ZodType, receiver: z.ZodType, visiting: Visiting): boolean {
  if (sender === receiver || isTop(receiver)) return true;
  let receivers = visiting.get(sender);
  if (receivers?.has(receiver)) return true;
  if (receivers === undefined) {
    receivers = new Set();
    visiting.set(sender, receivers);
  }
  receivers.add(receiver);
  try {
    return senderAtoms(sender).every((atom) => accepts(atom, receiver, visiting));
  } finally {
    receivers.delete(receiver);
  }
}

function isTop(schema: z.ZodType): boolean {
  const type = defOf(schema).type;
  return type === "any" || type === "unknown";
}

/** Whether `receiver` accepts every value of one sender atom. */
function accepts(atom: SenderAtom, receiver: z.ZodType, visiting: Visiting): boolean {
  if (atom.kind === "schema" && atom.schema === receiver) return true;
  if (isTop(receiver)) return true;
  if (namedTypeName(receiver) !== undefined) return false; // named types compare by identity only
  const def = defOf(receiver);
  const isValue = (value: Primitive) => atom.kind === "value" && atom.value === value;
  switch (def.type) {
    case "optional":
    case "default":
    case "prefault":
      return isValue(undefined) || accepts(atom, def.innerType as z.ZodType, visiting);
    case "nullable":
      return isValue(null) || accepts(atom, def.innerType as z.ZodType, visiting);
    case "nonoptional":
      return !isValue(undefined) && accepts(atom, def.innerType as z.ZodType, visiting);
    case "readonly":
    case "catch":
      return accepts(atom, def.innerType as z.ZodType, visiting);
    case "lazy":
      return accepts(atom, def.getter() as z.ZodType, visiting);
    case "pipe": {
      const first = def.in as z.ZodType;
      const second = def.out as z.ZodType;
      // A transform is assumed total; any other second stage must accept what the first stage outputs,
      // which is the sender's value itself when the first stage is a plain primitive.
      return (
        accepts(atom, first, visiting) &&
        (defOf(second).type === "transform" ||
          compatible(first, second, visiting) ||
          (primitiveKinds.has(defOf(first).type) && accepts(atom, second, visiting)))
      );
    }
    case "union":
      return def.options.some((option) => accepts(atom, option as z.ZodType, visiting));
    case "intersection":
      return (
        accepts(atom, def.left as z.ZodType, visiting) && accepts(atom, def.right as z.ZodType, visiting)
      );
    default:
      return atom.kind === "value"
        ? acceptsValue(atom.value, receiver)
        : acceptsSchema(atom.schema, receiver, visiting);
  }
}

/** Schemas that output exactly the value they accepted. */
const primitiveKinds = new Set([
  "string",
  "number",
  "boolean",
  "bigint",
  "literal",
  "enum",
  "template_literal",
]);

/** Receiver kinds whose checks can be evaluated on a literal value by parsing it. */
const parseableKinds = new Set([
  "string",
  "number",
  "boolean",
  "bigint",
  "symbol",
  "null",
  "undefined",
  "void",
  "nan",
  "literal",
  "enum",
  "template_literal",
]);

function acceptsValue(value: Primitive, receiver: z.ZodType): boolean {
  const values = finiteValues(receiver);
  if (values !== undefined) return values.includes(value);
  if (!parseableKinds.has(defOf(receiver).type)) return false;
  try {
    return z.safeParse(receiver, value).success;
  } catch {
    return false; // async refinements cannot be decided here
  }
}

/** A non-union sender schema into a receiver that is not a wrapper or a union. */
function acceptsSchema(sender: z.ZodType, receiver: z.ZodType, visiting: Visiting): boolean {
  const s = defOf(sender);
  const r = defOf(receiver);
  if (s.type === "intersection") return intersectionInto(sender, receiver, visiting);
  switch (r.type) {
    case "string":
      return (
        (s.type === "string" && checksImply(sender, receiver)) ||
        (s.type === "template_literal" && hasNoChecks(receiver))
      );
    case "number":
    case "bigint":
    case "date":
    case "file":
      return s.type === r.type && checksImply(sender, receiver);
    case "boolean":
    case "symbol":
    case "nan":
      return s.type === r.type;
    case "template_literal":
      return s.type === "template_literal" && samePattern(sender, receiver);
    case "array":
      return arrayInto(sender, receiver, r.element as z.ZodType, visiting);
    case "tuple":
      return tupleInto(sender, r.items as z.ZodType[], r.rest as z.ZodType | null, visiting);
    case "set":
      return (
        s.type === "set" &&
        compatible(s.valueType as z.ZodType, r.valueType as z.ZodType, visiting) &&
        checksImply(sender, receiver)
      );
    case "map":
      return (
        s.type === "map" &&
        compatible(s.keyType as z.ZodType, r.keyType as z.ZodType, visiting) &&
        compatible(s.valueType as z.ZodType, r.valueType as z.ZodType, visiting) &&
        checksImply(sender, receiver)
      );
    case "object":
      return s.type === "object" && objectInto(sender, receiver, visiting);
    case "record":
      return recordInto(sender, receiver, visiting);
    case "promise":
      return s.type === "promise" && compatible(s.innerType as z.ZodType, r.innerType as z.ZodType, visiting);
    case "function":
      // Parameters are contravariant, the result covariant.
      return (
        s.type === "function" &&
        compatible(r.input as z.ZodType, s.input as z.ZodType, visiting) &&
        compatible(s.output as z.ZodType, r.output as z.ZodType, visiting)
      );
    default:
      // custom / instanceof (when not the identical schema), transform, never, literal or enum with a
      // non-finite sender, and anything unknown: incompatible.
      return false;
  }
}

const mergedObjects = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A value of `A & B` is a value of A and of B, so either side fitting is enough, except for objects:
 * `{a} & {b}` carries both keys, so two object sides are merged into one object first.
 */
function intersectionInto(sender: z.ZodType, receiver: z.ZodType, visiting: Visiting): boolean {
  const { left, right } = defOf(sender) as unknown as { left: z.ZodType; right: z.ZodType };
  const leftIsObject = defOf(left).type === "object";
  const rightIsObject = defOf(right).type === "object";
  if (!leftIsObject && !rightIsObject) {
    return compatible(left, receiver, visiting) || compatible(right, receiver, visiting);
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
  return compatible(merged, receiver, visiting);
}

function samePattern(a: z.ZodType, b: z.ZodType): boolean {
  const patternA = (a._zod as { pattern?: RegExp }).pattern;
  const patternB = (b._zod as { pattern?: RegExp }).pattern;
  return patternA !== undefined && patternB !== undefined && patternA.source === patternB.source;
}

function arrayInto(sender: z.ZodType, receiver: z.ZodType, element: z.ZodType, visiting: Visiting): boolean {
  const s = defOf(sender);
  if (s.type === "array") {
    return compatible(s.element as z.ZodType, element, visiting) && checksImply(sender, receiver);
  }
  if (s.type === "tuple" && hasNoChecks(receiver)) {
    const parts = [...(s.items as z.ZodType[]), ...(s.rest === null ? [] : [s.rest as z.ZodType])];
    return parts.every((part) => compatible(part, element, visiting));
  }
  return false;
}

function tupleInto(
  sender: z.ZodType,
  items: readonly z.ZodType[],
  rest: z.ZodType | null,
  visiting: Visiting,
): boolean {
  const s = defOf(sender);
  if (s.type === "array") {
    // An array of unknown length fits only a tuple that is all rest.
    return items.length === 0 && rest !== null && compatible(s.element as z.ZodType, rest, visiting);
  }
  if (s.type !== "tuple") return false;
  const senderItems = s.items as z.ZodType[];
  const senderRest = s.rest as z.ZodType | null;
  if (senderRest !== null && rest === null) return false;
  const length = Math.max(senderItems.length, items.length);
  for (let index = 0; index < length; index++) {
    const sent = senderItems[index] ?? senderRest;
    const expected = items[index] ?? rest;
    if (expected === null) return false; // the sender may have more items than the receiver allows
    if (sent === null) {
      // The sender's tuple ends here: the receiver's item must be optional.
      if (!isOptionalKey(expected)) return false;
      continue;
    }
    if (!compatible(sent, expected, visiting)) return false;
  }
  return senderRest === null || rest === null || compatible(senderRest, rest, visiting);
}

/** True when an object key (or tuple item) declared with `schema` may be absent. */
function isOptionalKey(schema: z.ZodType): boolean {
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

function objectInto(sender: z.ZodType, receiver: z.ZodType, visiting: Visiting): boolean {
  const senderShape = (defOf(sender) as unknown as { shape: Record<string, z.ZodType> }).shape;
  const receiverShape = (defOf(receiver) as unknown as { shape: Record<string, z.ZodType> }).shape;
  const senderExtra = senderExtraKeys(sender);
  const receiverExtra = receiverExtraKeys(receiver);
  for (const [key, expected] of Object.entries(receiverShape)) {
    const sent = Object.hasOwn(senderShape, key) ? senderShape[key] : undefined;
    if (sent === undefined) {
      // Not declared by the sender: absent, or (catchall senders) present with a catchall value.
      if (!isOptionalKey(expected)) return false;
      if (senderExtra !== "none" && !compatible(senderExtra, expected, visiting)) return false;
      continue;
    }
    if (mayBeAbsent(sent) && !isOptionalKey(expected)) return false;
    if (!compatible(sent, expected, visiting)) return false;
  }
  if (receiverExtra === "any") return true;
  for (const [key, sent] of Object.entries(senderShape)) {
    if (Object.hasOwn(receiverShape, key)) continue;
    if (receiverExtra === "none" || !compatible(sent, receiverExtra, visiting)) return false;
  }
  if (senderExtra === "none") return true;
  return receiverExtra !== "none" && compatible(senderExtra, receiverExtra, visiting);
}

function recordInto(sender: z.ZodType, receiver: z.ZodType, visiting: Visiting): boolean {
  const r = defOf(receiver) as unknown as { keyType: z.ZodType; valueType: z.ZodType };
  const receiverKeys = finiteValues(r.keyType);
  const exhaustive = receiverKeys !== undefined && !isPartial(receiver);
  const s = defOf(sender);
  if (s.type === "record") {
    if (!compatible(s.keyType as z.ZodType, r.keyType, visiting)) return false;
    if (!compatible(s.valueType as z.ZodType, r.valueType, visiting)) return false;
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
    if (!accepts({ kind: "value", value: key }, r.keyType, visiting)) return false;
    if (!compatible(sent, r.valueType, visiting)) return false;
  }
  const senderExtra = senderExtraKeys(sender);
  if (
    senderExtra !== "none" &&
    !(acceptsAnyString(r.keyType) && compatible(senderExtra, r.valueType, visiting))
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
  return isTop(keyType) || (type === "string" && hasNoChecks(keyType));
}

function isPartial(record: z.ZodType): boolean {
  return (defOf(record) as { partial?: boolean }).partial === true;
}
