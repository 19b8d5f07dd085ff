import type { z } from "zod";

/**
 * Socket type compatibility. (Interim implementation: identical schemas, and `any`/`unknown` receivers.
 * The full rules of issue #3 replace the body of `checkCompatibility`; the signature is fixed.)
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
 * @param sender - the output socket's schema
 * @param receiver - the input socket's schema (for variadic sockets, the element schema)
 */
export function checkCompatibility(sender: z.ZodType, receiver: z.ZodType): Compatibility {
  if (sender === receiver) return { compatible: true };
  const receiverType = receiver._zod.def.type;
  if (receiverType === "any" || receiverType === "unknown") return { compatible: true };
  return { compatible: sender._zod.def.type === receiverType && sender._zod.def.type !== "custom" };
}
