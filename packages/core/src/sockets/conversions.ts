import type { z } from "zod";
import { ComponentError } from "../errors/errors.js";

/**
 * The registry of conversion strategies: pluggable ways to connect sockets whose types are not strictly
 * compatible (`ChatMessage` → `string`, `T` → `T[]`). Core registers none; `@junction/llm` registers the
 * reference's message conversions when it is imported.
 */

/** What {@link checkCompatibility} gives a strategy to decide whether it applies. */
export interface ConversionHelpers {
  /** True when every value of `sender` is accepted by `receiver` without conversion. */
  isStrictlyCompatible(sender: z.ZodType, receiver: z.ZodType): boolean;
  /** The element schema when `schema` is an array (possibly wrapped in optional/default/readonly), else `undefined`. */
  arrayElement(schema: z.ZodType): z.ZodType | undefined;
}

/**
 * A way to convert values between two socket types that are not strictly compatible.
 *
 * @example
 * ```ts
 * registerConversion({
 *   name: "myapp.celsius_to_number",
 *   priority: 100,
 *   match: (sender, receiver, helpers) =>
 *     sender === celsiusSchema && helpers.isStrictlyCompatible(z.number(), receiver)
 *       ? (value) => (value as Celsius).degrees
 *       : undefined,
 * });
 * ```
 */
export interface ConversionStrategy {
  /** A unique, stable name, e.g. `"chat_message_to_string"`; prefix yours with your package. */
  readonly name: string;
  /** Lower numbers win when several strategies apply to the members of a receiver union. */
  readonly priority: number;
  /**
   * Returns the conversion of one value when the strategy applies to `sender` → `receiver`, else
   * `undefined`. Both are single (non-union) members; the conversion throws when a value cannot be
   * converted (for example an empty list to unwrap).
   */
  match(
    sender: z.ZodType,
    receiver: z.ZodType,
    helpers: ConversionHelpers,
  ): ((value: unknown) => unknown) | undefined;
}

const strategies = new Map<string, ConversionStrategy>();

/**
 * Registers a conversion strategy for every later compatibility check.
 *
 * Registering the same strategy object twice is a no-op (so a module may register on import); another
 * strategy under a taken name is an error.
 *
 * @param strategy - the strategy, with a unique `name`
 */
export function registerConversion(strategy: ConversionStrategy): void {
  const problems: string[] = [];
  if (typeof strategy !== "object" || strategy === null) {
    throw new ComponentError("registerConversion: expected a strategy object with name, priority and match.");
  }
  if (typeof strategy.name !== "string" || strategy.name.trim() === "") {
    problems.push("`name` must be a non-empty string");
  }
  if (typeof strategy.priority !== "number" || !Number.isFinite(strategy.priority)) {
    problems.push("`priority` must be a finite number");
  }
  if (typeof strategy.match !== "function") problems.push("`match` must be a function");
  if (problems.length > 0) {
    throw new ComponentError(`registerConversion: invalid strategy: ${problems.join("; ")}.`);
  }
  const existing = strategies.get(strategy.name);
  if (existing === strategy) return;
  if (existing !== undefined) {
    throw new ComponentError(
      `registerConversion: the name "${strategy.name}" is already registered for another strategy. Conversion names must be unique; prefix yours with your package name.`,
    );
  }
  strategies.set(strategy.name, strategy);
}

/** Every registered strategy, lowest priority first (ties by name, so the order never depends on imports). */
export function registeredConversions(): ConversionStrategy[] {
  return [...strategies.values()].sort(
    (a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}
