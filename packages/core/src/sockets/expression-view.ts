/**
 * How a class's instances look to router expressions (CEL) and prompt templates (Liquid).
 *
 * Expressions and templates see plain data, never live objects. By default a class instance is seen
 * as its `toJSON()` (its storage and wire form) or its own data properties. A class whose storage form
 * is not what a template author expects defines a method under this symbol returning the plain data to
 * show instead: a `Document` stores a flattened `to_dict` shape but templates read `doc.meta.url`.
 *
 * @example
 * ```ts
 * class Money {
 *   constructor(readonly cents: number) {}
 *   [expressionView]() { return { amount: this.cents / 100 }; }
 * }
 * ```
 */
export const expressionView: unique symbol = Symbol.for("junction.expressionView");

/** A value that says how it looks to expressions and templates (see {@link expressionView}). */
export interface ExpressionViewable {
  /** The plain data (null, booleans, numbers, strings, Date, Uint8Array, arrays, objects) to show. */
  [expressionView](): unknown;
}

/** The expression view of `value` when its class defines one, else `undefined`. */
export function expressionViewOf(value: object): { readonly data: unknown } | undefined {
  const method = (value as Partial<ExpressionViewable>)[expressionView];
  return typeof method === "function" ? { data: method.call(value) } : undefined;
}
