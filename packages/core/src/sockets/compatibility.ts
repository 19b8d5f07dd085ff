import { z } from "zod";
import { defOf } from "./compat-atoms.js";
import { isStrictlyCompatible } from "./compat-strict.js";
import { type ConversionHelpers, type ConversionStrategy, registeredConversions } from "./conversions.js";
import { namedTypeName } from "./named-types.js";
import { kindWrappers, unwrapSchema } from "./unwrap.js";

/**
 * Socket type compatibility: strict rules first (see `compat-strict.ts`), then the registered
 * conversion strategies.
 */

/** A registered way to turn a sender's value into what a receiver accepts (e.g. ChatMessage → string). */
export interface Conversion {
  /** A stable name, e.g. `"chat_message_to_string"`. */
  readonly name: string;
  /** Lower numbers win when several conversions apply. */
  readonly priority: number;
  /** Converts one value at run time; throws when the value cannot be converted. */
  convert(value: unknown): unknown;
}

/** The answer of {@link checkCompatibility}. */
export interface Compatibility {
  /** True when every value the sender may produce is accepted by the receiver (possibly after `conversion`). */
  readonly compatible: boolean;
  /** Set when the values must be converted on the way. */
  readonly conversion?: Conversion | undefined;
}

/**
 * Whether values of `sender` can flow into a socket of type `receiver`.
 *
 * The answer is sound: "compatible" without a conversion means every value the sender may produce is
 * accepted by the receiver. Identical schemas, `any`/`unknown` receivers, literals and enums into their
 * base type or a wider enum (in any order), arrays and tuples element-wise, objects structurally,
 * unions on either side, `T` into `T | undefined`/`T | null`, named types by identity and records are
 * understood; refinements on the receiver must be implied by the sender's. Only when no strict rule
 * applies are the registered conversion strategies consulted: every member of a sender union must be
 * converted by the same strategy, and among the members of a receiver union the lowest priority wins.
 *
 * @param sender - the output socket's schema
 * @param receiver - the input socket's schema (for variadic sockets, the element schema)
 * @example
 * ```ts
 * checkCompatibility(z.literal("a"), z.enum(["b", "a"])); // { compatible: true }
 * checkCompatibility(z.string().optional(), z.string());  // { compatible: false }
 * ```
 */
export function checkCompatibility(sender: z.ZodType, receiver: z.ZodType): Compatibility {
  if (isStrictlyCompatible(sender, receiver)) return { compatible: true };
  const conversion = findConversion(sender, receiver);
  return conversion === undefined ? { compatible: false } : { compatible: true, conversion };
}

const helpers: ConversionHelpers = Object.freeze({ isStrictlyCompatible, arrayElement });

function arrayElement(schema: z.ZodType): z.ZodType | undefined {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    if (namedTypeName(current) !== undefined) return undefined;
    const def = defOf(current);
    if (def.type === "array") return def.element as z.ZodType;
    if (def.type === "lazy") current = def.getter() as z.ZodType;
    else if (kindWrappers.has(def.type)) current = unwrapSchema(current, kindWrappers);
    else return undefined;
  }
  return undefined;
}

/**
 * The members of a union for conversion purposes: union options, `T | undefined` for optionals,
 * `T | null` for nullables; output-side wrappers are looked through. Named types are never split.
 */
function members(schema: z.ZodType, side: "sender" | "receiver", out: z.ZodType[] = []): z.ZodType[] {
  if (namedTypeName(schema) !== undefined) {
    out.push(schema);
    return out;
  }
  const def = defOf(schema);
  switch (def.type) {
    case "union":
      for (const option of def.options) members(option as z.ZodType, side, out);
      return out;
    case "optional":
      out.push(z.undefined());
      return members(def.innerType as z.ZodType, side, out);
    case "nullable":
      out.push(z.null());
      return members(def.innerType as z.ZodType, side, out);
    case "default":
    case "prefault":
      if (side === "receiver") out.push(z.undefined());
      return members(def.innerType as z.ZodType, side, out);
    case "readonly":
    case "catch":
      return members(def.innerType as z.ZodType, side, out);
    default:
      out.push(schema);
      return out;
  }
}

interface Match {
  readonly strategy: ConversionStrategy;
  readonly convert: (value: unknown) => unknown;
}

/** The best strategy for one (non-union) sender member into any member of the receiver. */
function bestMatch(
  sender: z.ZodType,
  receivers: readonly z.ZodType[],
  strategies: readonly ConversionStrategy[],
): Match | undefined {
  for (const strategy of strategies) {
    for (const receiver of receivers) {
      const convert = strategy.match(sender, receiver, helpers);
      if (typeof convert === "function") return { strategy, convert };
    }
  }
  return undefined;
}

function findConversion(sender: z.ZodType, receiver: z.ZodType): Conversion | undefined {
  const strategies = registeredConversions();
  if (strategies.length === 0) return undefined;
  const receivers = [...new Set([receiver, ...members(receiver, "receiver")])];
  const matches: { member: z.ZodType; match: Match }[] = [];
  for (const member of members(sender, "sender")) {
    // A member that needs no conversion cannot share a strategy with one that does: `str | ChatMessage`
    // into `str` is rejected, as the value cannot be told apart without guessing.
    if (isStrictlyCompatible(member, receiver)) return undefined;
    const match = bestMatch(member, receivers, strategies);
    if (match === undefined) return undefined;
    matches.push({ member, match });
  }
  const first = matches[0];
  if (first === undefined) return undefined;
  const strategy = first.match.strategy;
  if (matches.some(({ match }) => match.strategy !== strategy)) return undefined;
  const converters = new Set(matches.map(({ match }) => match.convert));
  const convert =
    converters.size === 1
      ? first.match.convert
      : (value: unknown) => {
          const owner = matches.find(({ member }) => z.safeParse(member, value).success) ?? first;
          return owner.match.convert(value);
        };
  return Object.freeze({ name: strategy.name, priority: strategy.priority, convert });
}
