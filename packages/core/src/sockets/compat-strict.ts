import { z } from "zod";
import { defOf, finiteValues, type Primitive, type SenderAtom, senderAtoms } from "./compat-atoms.js";
import { checksImply, hasNoChecks } from "./compat-checks.js";
import { intersectionInto, isOptionalKey, objectInto, type Relation, recordInto } from "./compat-objects.js";
import { namedTypeName } from "./named-types.js";

/**
 * Strict socket type compatibility: true only when every value the sender may produce is accepted by the
 * receiver unchanged. Both sides are described by the values their schemas accept (a pipeline sends what
 * `run` returned). The answer errs on the side of "incompatible" where zod cannot tell (refinements,
 * custom schemas). Objects and records are compared in `compat-objects.ts`.
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
  const relation: Relation = {
    compatible: (from, to) => compatible(from, to, visiting),
    accepts: (atom, to) => accepts(atom, to, visiting),
  };
  if (s.type === "intersection") return intersectionInto(sender, receiver, relation);
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
      return s.type === "object" && objectInto(sender, receiver, relation);
    case "record":
      return recordInto(sender, receiver, relation);
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
