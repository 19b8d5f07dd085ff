import type { ASTNode } from "@marcbachmann/cel-js";
import { regexMatches } from "./cel-regex.js";

/**
 * Evaluation budgets of CEL expressions.
 *
 * CEL always terminates, but not always soon: nested comprehensions over list literals or inputs
 * multiply (`[…10].all(a, […10].all(b, …))` eight deep is 10^8 steps). Two limits bound every
 * evaluation:
 *
 * - **cost** — a static estimate made when the expression is compiled: every node costs 1, and a
 *   comprehension costs its range's size times its body. Sizes of list and map literals (also through
 *   `cel.bind` and `map`/`filter`) are known; an input's size is not and counts as 1 — the step budget
 *   covers what depends on inputs. Expressions over `maxCost` are refused before anything runs.
 * - **steps** — counted while evaluating: one per node evaluated, one per input value converted, one
 *   per 64 characters of every string and one per 8 elements of every list an operator or function
 *   builds, and 100 per evaluation error (errors inside `exists`/`all` and `||` are absorbed but cost). An evaluation that
 *   passes `maxSteps` stops with {@link CelBudgetError}.
 */

/** Default static cost limit of one expression. */
export const defaultMaxCost = 1_000_000;
/** Default runtime step limit of one evaluation. */
export const defaultMaxSteps = 1_000_000;

/** The limits of one expression's evaluation. */
export interface EvaluationLimits {
  /** The largest static cost estimate accepted when compiling. */
  readonly maxCost: number;
  /** The most steps one evaluation may take. */
  readonly maxSteps: number;
}

/** An evaluation took more than `maxSteps` steps. */
export class CelBudgetError extends Error {
  /** The limit that was passed. */
  readonly maxSteps: number;
  /** @param maxSteps - the limit */
  constructor(maxSteps: number) {
    super(
      `the evaluation took more than ${maxSteps} steps (limits.maxSteps, default ${defaultMaxSteps}); raise limits.maxSteps in the params if the inputs are really that large, or select what the expression needs upstream.`,
    );
    this.name = "CelBudgetError";
    this.maxSteps = maxSteps;
  }
}

// Evaluation is synchronous (no async functions are registered), so one meter serves every evaluation.
let steps = 0;
let limit = Number.POSITIVE_INFINITY;
/** Set once the budget is passed; thrown again (no new stack trace) by every later charge. */
let exceeded: CelBudgetError | undefined;

function charge(amount: number): void {
  steps += amount;
  if (steps > limit) {
    exceeded ??= new CelBudgetError(limit);
    throw exceeded;
  }
}

/** What one evaluation error costs: creating it (with its stack trace) is far dearer than a step. */
const errorCost = 100;
const charged = new WeakSet<object>();

function chargeError(error: unknown): void {
  if (error === exceeded || typeof error !== "object" || error === null || charged.has(error)) return;
  charged.add(error);
  charge(errorCost);
}

/**
 * Counts one step of work done for the running evaluation outside the AST (converting an input value
 * when it is first read); a no-op outside {@link withBudget}.
 *
 * @throws CelBudgetError when the budget is passed
 */
export function chargeStep(): void {
  charge(1);
}

/**
 * Runs `evaluate` with a step budget. Passing the budget is reported even when CEL's error absorption
 * (`true || error`, `exists` continuing past a failed element) swallowed it, and wins over an error
 * raised after it.
 */
export function withBudget<T>(maxSteps: number, evaluate: () => T): T {
  const saved = { steps, limit, exceeded };
  steps = 0;
  limit = maxSteps;
  exceeded = undefined;
  try {
    const result = evaluate();
    if (exceeded !== undefined) throw exceeded;
    return result;
  } catch (error) {
    throw exceeded ?? error;
  } finally {
    ({ steps, limit, exceeded } = saved);
  }
}

type Evaluate = (ev: unknown, ast: unknown, ctx: unknown) => unknown;
interface Meta {
  readonly alternate?: InstrumentedNode;
  readonly macro?: {
    evaluate: Evaluate;
    args?: unknown;
    var?: string;
    val?: InstrumentedNode;
    exp?: InstrumentedNode;
  };
  readonly evaluate: Evaluate;
}
/** The parts of a cel-js AST node this module uses (its evaluation entry point and metadata). */
interface InstrumentedNode {
  evaluate: Evaluate;
  readonly meta: Meta;
  readonly op: string;
  readonly args: unknown;
}
interface Evaluator {
  run(ast: unknown, ctx: unknown): unknown;
}

/** Operators whose result is read, not built: no size charge. */
const readers = new Set([
  "value",
  "id",
  ".",
  ".?",
  "[]",
  "[?]",
  "accuValue",
  "accuInc",
  "accuPush",
  "comprehension",
]);

/**
 * Instruments a checked AST in place: every node counts a step when evaluated (and charges for the
 * size of what it builds), and `matches()` runs on the linear-time engine.
 */
export function instrument(root: ASTNode): void {
  forEachNode(root as unknown as InstrumentedNode, (node) => {
    if (Object.hasOwn(node, "evaluate") && (node.evaluate as { instrumented?: true }).instrumented) return;
    const meta = node.meta;
    const measures = !readers.has(node.op);
    const isMatches =
      node.op === "rcall" &&
      Array.isArray(node.args) &&
      node.args[0] === "matches" &&
      (node.args[2] as unknown[]).length === 1;
    const original: Evaluate = (ev, ast, ctx) => {
      if (meta.alternate !== undefined) return meta.alternate.evaluate(ev, meta.alternate, ctx);
      if (meta.macro !== undefined) return meta.macro.evaluate(ev, meta.macro, ctx);
      return meta.evaluate(ev, ast, ctx);
    };
    const evaluate: Evaluate = isMatches
      ? (ev, ast, ctx) => {
          charge(1);
          const [, receiver, [pattern]] = node.args as [string, InstrumentedNode, InstrumentedNode[]];
          const text = (ev as Evaluator).run(receiver, ctx);
          const regex = (ev as Evaluator).run(pattern, ctx);
          if (typeof text !== "string" || typeof regex !== "string") return original(ev, ast, ctx);
          charge(text.length >>> 6);
          return regexMatches(text, regex);
        }
      : measures
        ? (ev, ast, ctx) => {
            charge(1);
            let result: unknown;
            try {
              result = original(ev, ast, ctx);
            } catch (error) {
              chargeError(error);
              throw error;
            }
            if (typeof result === "string") {
              if (result.length > 64) charge(result.length >>> 6);
            } else if (Array.isArray(result) && result.length > 8) charge(result.length >>> 3);
            return result;
          }
        : (ev, ast, ctx) => {
            charge(1);
            return original(ev, ast, ctx);
          };
    (evaluate as { instrumented?: true }).instrumented = true;
    node.evaluate = evaluate;
  });
}

function isNode(value: unknown): value is InstrumentedNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value && "meta" in value;
}

/**
 * The patterns of `matches()` calls written as string literals (checked when the expression is
 * compiled; patterns that come from inputs are checked when they are used).
 */
export function literalPatterns(root: ASTNode): string[] {
  const patterns: string[] = [];
  forEachNode(root as unknown as InstrumentedNode, (node) => {
    if (node.op !== "rcall" || !Array.isArray(node.args) || node.args[0] !== "matches") return;
    const [pattern] = node.args[2] as unknown[];
    if (isNode(pattern) && pattern.op === "value" && typeof pattern.args === "string")
      patterns.push(pattern.args);
  });
  return patterns;
}

/** Visits every node of an AST, including macro expansions (`alternate`) and macro arguments. */
function forEachNode(root: InstrumentedNode, visit: (node: InstrumentedNode) => void): void {
  const seen = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (!isNode(value)) continue;
    visit(value);
    const { meta, op, args } = value;
    if (meta.alternate !== undefined) stack.push(meta.alternate);
    if (meta.macro !== undefined) {
      stack.push(meta.macro.args, meta.macro.val, meta.macro.exp);
    }
    if (op === "comprehension") {
      const { iterable, init, step } = args as { iterable: unknown; init: unknown; step: unknown };
      stack.push(iterable, init, step);
    } else stack.push(args);
  }
}

interface Estimate {
  /** Worst-case steps. */
  readonly cost: number;
  /** Elements, when the value is a list or map of known size (1 when unknown). */
  readonly size: number;
}

/**
 * The static cost estimate of a checked expression (see the module comment). Saturates at
 * `Number.MAX_SAFE_INTEGER`.
 */
export function estimateCost(root: ASTNode): number {
  return estimate(root as unknown as InstrumentedNode, new Map()).cost;
}

const cap = Number.MAX_SAFE_INTEGER;
const add = (a: number, b: number) => Math.min(cap, a + b);
const times = (a: number, b: number) => Math.min(cap, a * b);

function estimate(node: InstrumentedNode, bound: ReadonlyMap<string, number>): Estimate {
  const { meta, op, args } = node;
  if (meta.alternate !== undefined) return estimate(meta.alternate, bound);
  const macro = meta.macro;
  if (macro !== undefined) {
    if (macro.var !== undefined && macro.val !== undefined && macro.exp !== undefined) {
      const value = estimate(macro.val, bound);
      const body = estimate(macro.exp, new Map([...bound, [macro.var, value.size]]));
      return { cost: add(1, add(value.cost, body.cost)), size: body.size };
    }
    return { cost: add(1, sumChildren(macro.args, bound).cost), size: 1 };
  }
  switch (op) {
    case "value":
    case "accuValue":
    case "accuInc":
      return { cost: 1, size: 1 };
    case "id":
      return { cost: 1, size: bound.get(args as string) ?? 1 };
    case "list": {
      const items = args as InstrumentedNode[];
      return { cost: add(1, sumChildren(items, bound).cost), size: Math.max(1, items.length) };
    }
    case "map": {
      const entries = args as unknown[];
      return { cost: add(1, sumChildren(entries, bound).cost), size: Math.max(1, entries.length) };
    }
    case "+": {
      const [left, right] = (args as InstrumentedNode[]).map((child) => estimate(child, bound)) as [
        Estimate,
        Estimate,
      ];
      return { cost: add(1, add(left.cost, right.cost)), size: add(left.size, right.size) };
    }
    case "comprehension": {
      const { iterable, init, step, iterVarName, kind } = args as {
        iterable: InstrumentedNode;
        init: InstrumentedNode;
        step: InstrumentedNode;
        iterVarName: string;
        kind?: string;
      };
      const range = estimate(iterable, bound);
      const inner = new Map(bound);
      inner.set(iterVarName, 1);
      const body = estimate(step, inner);
      const cost = add(
        1,
        add(range.cost, add(estimate(init, bound).cost, times(range.size, add(1, body.cost)))),
      );
      return { cost, size: kind === "quantifier" ? 1 : range.size };
    }
    default:
      return { cost: add(1, sumChildren(args, bound).cost), size: 1 };
  }
}

function sumChildren(value: unknown, bound: ReadonlyMap<string, number>): Estimate {
  if (isNode(value)) return estimate(value, bound);
  if (!Array.isArray(value)) return { cost: 0, size: 1 };
  let cost = 0;
  for (const item of value) cost = add(cost, sumChildren(item, bound).cost);
  return { cost, size: 1 };
}
