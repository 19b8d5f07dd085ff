import { excerpt } from "@junction/core";
import { Optional, type ParseResult } from "@marcbachmann/cel-js";
import { defaultMaxSteps, estimateCost, instrument, literalPatterns, withBudget } from "./cel-budget.js";
import { celEnvironment } from "./cel-environment.js";
import { patternProblem } from "./cel-regex.js";
import { identifiers } from "./cel-variables.js";

/** A parsed, type-checked CEL expression, ready to evaluate many times. */
export interface CompiledExpression {
  /** The expression text. */
  readonly source: string;
  /** The free variables it reads, in order of first use. */
  readonly variables: readonly string[];
  /** The statically inferred result type (`"bool"`, `"string"`, `"dyn"`, ...). */
  readonly resultType: string;
  /** The static worst-case cost estimate (see `cel-budget.ts`); compare with `maxCost`. */
  readonly cost: number;
  /**
   * Evaluates the expression against CEL data (see `celContext`), stopping after `maxSteps` steps.
   *
   * @throws CelBudgetError when the evaluation takes more than `maxSteps` steps
   */
  evaluate(context: Readonly<Record<string, unknown>>, maxSteps?: number): unknown;
}

/** An expression that does not parse or does not type-check. */
export class CelCompileError extends Error {
  /** @param message - the parser's message, with the position marked */
  constructor(message: string) {
    super(message);
    this.name = "CelCompileError";
  }
}

const cacheLimit = 1_000;
const cache = new Map<string, CompiledExpression | CelCompileError>();

/**
 * Parses and type-checks a CEL expression, caching the result by its text (routers and adapters built
 * from the same document share compiled programs).
 *
 * @param source - the CEL expression
 * @throws {@link CelCompileError} with the parser's or checker's message
 */
export function compileExpression(source: string): CompiledExpression {
  let entry = cache.get(source);
  if (entry === undefined) {
    entry = compileUncached(source);
    if (cache.size >= cacheLimit) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(source, entry);
  }
  if (entry instanceof CelCompileError) throw entry;
  return entry;
}

function compileUncached(source: string): CompiledExpression | CelCompileError {
  if (typeof source !== "string" || source.trim() === "") {
    return new CelCompileError("the expression is empty.");
  }
  let program: ParseResult;
  try {
    program = celEnvironment.parse(source);
  } catch (error) {
    return new CelCompileError(errorText(error));
  }
  const { variables, builtins } = identifiers(program.ast);
  const typeNames = builtins.filter((name) => !["cel", "optional"].includes(name));
  const checked = program.check();
  if (!checked.valid) {
    const hint = typeNames
      .map(
        (name) =>
          `\nNote: "${name}" is CEL's type \`${name}\`, not a variable; name the variable differently.`,
      )
      .join("");
    return new CelCompileError(`${errorText(checked.error)}${hint}`);
  }
  const refused = literalPatterns(program.ast)
    .map(patternProblem)
    .filter((problem) => problem !== undefined);
  if (refused.length > 0) return new CelCompileError(refused.join("; "));
  instrument(program.ast);
  return Object.freeze({
    source,
    variables: Object.freeze(variables),
    resultType: checked.type ?? "dyn",
    cost: estimateCost(program.ast),
    evaluate: (context: Readonly<Record<string, unknown>>, maxSteps: number = defaultMaxSteps) =>
      withBudget(maxSteps, () => program(context)),
  });
}

/**
 * The message of a CEL error (which marks the position in the expression), bounded: a long source line
 * is cut to a window around the marked position, any other long line to an excerpt.
 */
export function errorText(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split("\n");
  const out: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const next = lines[index + 1];
    const source = /^(> *\d+ \| )/.exec(line);
    if (source !== null && next !== undefined && next.trimStart() === "^" && line.length > snippetWidth) {
      const gutter = source[1]!;
      const text = line.slice(gutter.length);
      const column = next.length - 1 - gutter.length;
      const start = Math.max(0, Math.min(column - snippetWidth / 2, text.length - snippetWidth));
      const end = Math.min(text.length, start + snippetWidth);
      const before = start > 0 ? "…" : "";
      out.push(`${gutter}${before}${text.slice(start, end)}${end < text.length ? "…" : ""}`);
      out.push(`${" ".repeat(gutter.length + before.length + column - start)}^`);
      index += 1;
      continue;
    }
    out.push(excerpt(line, 2 * snippetWidth));
  }
  return out.join("\n");
}

const snippetWidth = 120;

/**
 * Turns a CEL result into a native JavaScript value: `int` → `number` (a `bigint` only beyond
 * `Number.MAX_SAFE_INTEGER`), maps → plain objects, optionals → their value or `null`; values that
 * came unchanged from an input are returned as the original object (a `ChatMessage` stays a
 * `ChatMessage`).
 *
 * @param value - what the expression returned
 * @param original - finds the original object of an input copy
 */
export function celToNative(value: unknown, original: (view: unknown) => unknown): unknown {
  if (typeof value === "bigint") return bigintToNative(value);
  if (typeof value !== "object" || value === null) return value;
  const source = original(value);
  if (source !== undefined) return source;
  if (value instanceof Date || value instanceof Uint8Array) return value;
  if (value instanceof Optional) return value.hasValue() ? celToNative(value.value(), original) : null;
  if (Array.isArray(value) || value instanceof Set) {
    return Array.from(value as Iterable<unknown>, (item) => celToNative(item, original));
  }
  const out: Record<string, unknown> = {};
  if (value instanceof Map) {
    for (const [key, item] of value) define(out, String(key), celToNative(item, original));
    return out;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) {
    for (const key of Object.keys(value)) {
      define(out, key, celToNative((value as Record<string, unknown>)[key], original));
    }
    return out;
  }
  // CEL's own value types: unsigned ints, durations, types.
  const primitive: unknown = (value as { valueOf(): unknown }).valueOf();
  if (typeof primitive === "bigint") return bigintToNative(primitive);
  return String(value);
}

function bigintToNative(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
