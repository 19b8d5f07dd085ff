import { excerpt, isReservedName, quoteExcerpt, reservedNameMessage } from "@junction/core";
import { z } from "zod";
import { defaultMaxCost, defaultMaxSteps, type EvaluationLimits } from "./cel/cel-budget.js";
import { CelCompileError, type CompiledExpression, compileExpression } from "./cel/cel-expression.js";
import { overloadHint, pythonLiteralVariables, slipHints } from "./cel/cel-hints.js";
import { socketTypeParam } from "./socket-type.js";

/**
 * The params of `ConditionalRouter`: the route list, its validation (collecting every problem with its
 * path), and the compiled form the router runs.
 */

/** The message of a route field that is missing or of the wrong kind, naming the field and what it holds. */
const routeField =
  (field: string, holds: string) =>
  (issue: { input: unknown }): string =>
    issue.input === undefined
      ? `the route has no "${field}". Every route needs condition, output, outputName and outputType; "${field}" is ${holds}.`
      : `"${field}" must be ${holds}.`;

const oneOrMany = (field: string, holds: string) =>
  z.union([z.string(), z.array(z.string()).min(1)], { error: routeField(field, holds) });

/** The params schema of one route. */
export const routeSchema = z.strictObject({
  /** A CEL expression that evaluates to a `bool`. */
  condition: z.string({
    error: routeField("condition", 'a CEL expression that evaluates to a bool (e.g. "x > 0")'),
  }),
  /** A CEL expression per output (or, with `outputPassthrough`, an input name). */
  output: oneOrMany("output", "a CEL expression (or a list, one per output) giving the value to send"),
  /** The output socket name(s). */
  outputName: oneOrMany("outputName", "the output socket name (or a list, one per output)"),
  /** The output socket type(s): zod schemas, or JSON Schema in documents. */
  outputType: z.union([socketTypeParam, z.array(socketTypeParam).min(1)], {
    error: routeField(
      "outputType",
      "the output socket type: a zod schema such as z.string() (or a list, one per output)",
    ),
  }),
  /** When true, `output` names inputs whose values are forwarded untouched. */
  outputPassthrough: z.boolean().optional(),
});

/**
 * The `limits` param of `ConditionalRouter` and `OutputAdapter`: the evaluation budget of their
 * expressions (see docs/builtin-components.md). Absent keys take the defaults.
 */
export const limitsSchema = z
  .strictObject({
    /** The largest static worst-case cost estimate accepted (default 1,000,000). */
    maxCost: z.number().int().positive().optional(),
    /** The most steps one evaluation may take (default 1,000,000). */
    maxSteps: z.number().int().positive().optional(),
  })
  .optional();

/** The `limits` param with defaults filled in. */
export function resolveLimits(limits: z.output<typeof limitsSchema>): EvaluationLimits {
  return { maxCost: limits?.maxCost ?? defaultMaxCost, maxSteps: limits?.maxSteps ?? defaultMaxSteps };
}

/**
 * The problem of an expression whose static cost estimate is over `maxCost`, or `undefined`.
 *
 * @param what - names the expression in the message (`route 0 ("a"): the condition`)
 */
export function costProblem(
  expression: CompiledExpression,
  maxCost: number,
  what: string,
): string | undefined {
  if (expression.cost <= maxCost) return undefined;
  return `${what} has an estimated worst-case cost of ${expression.cost} steps, over limits.maxCost (${maxCost}; default ${defaultMaxCost}). Nested comprehensions (all, exists, map, filter) over list literals multiply; simplify the expression, or raise limits.maxCost in the params.`;
}

/**
 * The problem of an expression that reads a variable named `__proto__`, `constructor` or `prototype`
 * (variables become input sockets), or `undefined`.
 */
export function reservedVariables(expression: CompiledExpression, what: string): string | undefined {
  const reserved = expression.variables.find(isReservedName);
  if (reserved === undefined) return undefined;
  return `${what} reads the variable "${reserved}", but variables become input sockets and ${reservedNameMessage(reserved, "an input socket name")}`;
}

/** One route as the constructor accepts it. */
export type RouteInput = z.input<typeof routeSchema>;
/** One route after validation (socket types as zod schemas). */
export type Route = z.output<typeof routeSchema>;

/** One output of a compiled route. */
export interface CompiledOutput {
  /** The output socket name. */
  readonly name: string;
  /** The socket type. */
  readonly type: z.ZodType;
  /** The compiled output expression (absent for passthrough outputs). */
  readonly expression: CompiledExpression | undefined;
  /** The input forwarded by a passthrough output. */
  readonly passthrough: string | undefined;
}

/** A route ready to run. */
export interface CompiledRoute {
  /** Its index in `routes`. */
  readonly index: number;
  /** How messages name it: `route 0 ("query")`. */
  readonly label: string;
  /** The compiled condition. */
  readonly condition: CompiledExpression;
  /** Its outputs, in declaration order. */
  readonly outputs: readonly CompiledOutput[];
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

function list<T>(value: T | readonly T[]): readonly T[] {
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

/** How messages name a route. */
export function routeLabel(index: number, route: Pick<Route, "outputName">): string {
  return `route ${index} (${list(route.outputName)
    .map((name) => `"${excerpt(name)}"`)
    .join(", ")})`;
}

/** A problem found while compiling routes. */
interface RouteProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/**
 * Compiles every route, collecting every problem (lengths, CEL syntax and type errors, non-bool
 * conditions, bad passthrough names) instead of stopping at the first.
 *
 * @param routes - validated routes
 * @returns the compiled routes, or the problems
 */
export function compileRoutes(
  routes: readonly Route[],
  limits: EvaluationLimits,
): {
  readonly routes: CompiledRoute[];
  readonly problems: RouteProblem[];
} {
  const problems: RouteProblem[] = [];
  const compiled: CompiledRoute[] = [];
  routes.forEach((route, index) => {
    const label = routeLabel(index, route);
    const outputs = list(route.output);
    const names = list(route.outputName);
    const types = list(route.outputType);
    const lengthsMatch = outputs.length === names.length && names.length === types.length;
    if (!lengthsMatch) {
      problems.push({
        path: ["routes", index],
        message: `${label}: output, outputName and outputType must have the same length (got ${outputs.length}, ${names.length} and ${types.length}).`,
      });
    }
    const seen = new Set<string>();
    const namePath = (position: number) =>
      Array.isArray(route.outputName)
        ? ["routes", index, "outputName", position]
        : ["routes", index, "outputName"];
    for (const [position, name] of names.entries()) {
      if (name.trim() === "") {
        problems.push({
          path: namePath(position),
          message: `${label}: output names must not be empty.`,
        });
      } else if (isReservedName(name)) {
        problems.push({
          path: namePath(position),
          message: `${label}: ${reservedNameMessage(name, "an output name")}`,
        });
      } else if (seen.has(name)) {
        problems.push({
          path: namePath(position),
          message: `${label}: the output name "${excerpt(name)}" appears twice in one route; give each output its own name.`,
        });
      }
      seen.add(name);
    }
    const condition = compile(
      route.condition,
      ["routes", index, "condition"],
      `${label}: the condition`,
      problems,
      limits,
    );
    if (condition !== undefined && !["bool", "dyn"].includes(condition.resultType)) {
      problems.push({
        path: ["routes", index, "condition"],
        message: `${label}: the condition must evaluate to a bool, but ${quoteExcerpt(route.condition)} evaluates to ${condition.resultType}. Write a comparison such as \`x == "a"\` or \`size(x) > 0\`.`,
      });
    }
    const compiledOutputs: CompiledOutput[] = [];
    outputs.forEach((output, position) => {
      const name = names[position] ?? `#${position}`;
      const type = types[position] ?? z.never();
      if (route.outputPassthrough === true) {
        if (isReservedName(output)) {
          problems.push({
            path: ["routes", index, "output", position],
            message: `${label}: with outputPassthrough, each output is an input name; ${reservedNameMessage(output, "an input name")}`,
          });
        } else if (!identifier.test(output)) {
          problems.push({
            path: ["routes", index, "output", position],
            message: `${label}: with outputPassthrough, each output is an input name; ${quoteExcerpt(output)} is not a valid name (letters, digits and "_").`,
          });
        }
        compiledOutputs.push({ name, type, expression: undefined, passthrough: output });
        return;
      }
      const path = ["routes", index, "output", position];
      const expression = compile(output, path, `${label}: the output "${excerpt(name)}"`, problems, limits);
      compiledOutputs.push({ name, type, expression, passthrough: undefined });
    });
    if (condition !== undefined && lengthsMatch)
      compiled.push({ index, label, condition, outputs: compiledOutputs });
  });
  return { routes: compiled, problems };
}

function compile(
  source: string,
  path: (string | number)[],
  what: string,
  problems: RouteProblem[],
  limits: EvaluationLimits,
): CompiledExpression | undefined {
  try {
    const expression = compileExpression(source);
    const tooCostly = costProblem(expression, limits.maxCost, what);
    if (tooCostly !== undefined) problems.push({ path, message: tooCostly });
    const reserved = reservedVariables(expression, what);
    if (reserved !== undefined) problems.push({ path, message: reserved });
    for (const name of pythonLiteralVariables(expression.variables)) {
      problems.push({
        path,
        message: `${what} reads a variable named "${name}": CEL spells the literals \`true\`, \`false\` and \`null\` in lower case. Write ${name === "None" ? "`null`" : `\`${name.toLowerCase()}\``}.`,
      });
    }
    return expression;
  } catch (error) {
    if (!(error instanceof CelCompileError)) throw error;
    const hints = [...slipHints(source), overloadHint(error.message)].filter((hint) => hint !== undefined);
    problems.push({
      path,
      message: `${what} is not a valid CEL expression: ${error.message}${hints.map((hint) => `\nHint: ${hint}`).join("")}`,
    });
    return undefined;
  }
}

/** The input variables of compiled routes, in order of first use (passthrough names included). */
export function routeVariables(routes: readonly CompiledRoute[]): string[] {
  const names = new Set<string>();
  for (const route of routes) {
    for (const name of route.condition.variables) names.add(name);
    for (const output of route.outputs) {
      if (output.passthrough !== undefined) names.add(output.passthrough);
      for (const name of output.expression?.variables ?? []) names.add(name);
    }
  }
  return [...names];
}
