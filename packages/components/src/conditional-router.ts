import { defineComponent, didYouMean, excerpt, getDefaultLogger, type Issue } from "@junction/core";
import { z } from "zod";
import type { EvaluationLimits } from "./cel/cel-budget.js";
import { celRun } from "./cel/cel-context.js";
import { celToNative, errorText } from "./cel/cel-expression.js";
import { missingKeyHint, overloadHint } from "./cel/cel-hints.js";
import { NoRouteSelectedError, RouteConditionError } from "./errors.js";
import { describeType, formatPath, quoteList } from "./format.js";
import {
  type CompiledRoute,
  compileRoutes,
  limitsSchema,
  resolveLimits,
  routeSchema,
  routeVariables,
} from "./route-params.js";
import type { ConditionalRouterClass, ConditionalRouterInstance, RouteOptions } from "./router-types.js";
import { socketTypeParam, socketTypeToJSON } from "./socket-type.js";

const paramsSchema = z
  .object({
    /** The routes, tried in order; the first whose condition is true fires. */
    routes: z.array(routeSchema).min(1),
    /** Variables that may be left unconnected; they are `null` in expressions when nothing arrives. */
    optionalVariables: z.array(z.string()).default([]),
    /** Check each output value against its `outputType` and fail the run on a mismatch. */
    validateOutputType: z.boolean().default(false),
    /**
     * The type of every variable the routes use (zod schemas; JSON Schema in documents). When given,
     * the input sockets carry these types, so connections are checked (at compile time through the
     * typed builder, and by `connect`), and every variable must be declared.
     */
    variableTypes: z.record(z.string(), socketTypeParam).optional(),
    /** Evaluation budget of the expressions: `{ maxCost, maxSteps }` (defaults 1,000,000 each). */
    limits: limitsSchema,
  })
  .superRefine((params, context) => {
    for (const problem of compile(params).problems) {
      context.addIssue({ code: "custom", path: problem.path, message: problem.message });
    }
    for (const problem of variableTypeProblems(params)) {
      context.addIssue({ code: "custom", path: problem.path, message: problem.message });
    }
  });

type RouterParams = z.output<typeof paramsSchema>;

interface Compiled {
  readonly limits: EvaluationLimits;
  readonly routes: CompiledRoute[];
  readonly problems: { readonly path: (string | number)[]; readonly message: string }[];
  readonly variables: string[];
}

const compiledByParams = new WeakMap<object, Compiled>();

function compile(params: Pick<RouterParams, "routes" | "limits">): Compiled {
  let compiled = compiledByParams.get(params);
  if (compiled === undefined) {
    const limits = resolveLimits(params.limits);
    const { routes, problems } = compileRoutes(params.routes, limits);
    compiled = { limits, routes, problems, variables: routeVariables(routes) };
    compiledByParams.set(params, compiled);
  }
  return compiled;
}

function variableTypeProblems(
  params: Pick<RouterParams, "routes" | "limits" | "variableTypes">,
): { path: (string | number)[]; message: string }[] {
  const declared = params.variableTypes;
  if (declared === undefined) return [];
  const used = compile(params).variables;
  const problems: { path: (string | number)[]; message: string }[] = [];
  for (const variable of used) {
    if (!Object.hasOwn(declared, variable)) {
      problems.push({
        path: ["variableTypes"],
        message: `the routes use the variable "${variable}", which variableTypes does not declare.${didYouMean(variable, Object.keys(declared))} Add "${variable}" with its type (e.g. ${variable}: z.string()), or leave variableTypes out to accept any value.`,
      });
    }
  }
  for (const variable of Object.keys(declared)) {
    if (!used.includes(variable)) {
      problems.push({
        path: ["variableTypes", variable],
        message: `variableTypes declares "${variable}", which no route uses.${didYouMean(variable, used)} Remove it or fix the name.`,
      });
    }
  }
  return problems;
}

/** What to do about an evaluation error: the keys a map has, or the numeric conversion CEL needs. */
function evaluationHint(error: unknown, source: string, inputs: Readonly<Record<string, unknown>>): string {
  const message = error instanceof Error ? error.message : String(error);
  const hint = missingKeyHint(message, source, inputs) ?? overloadHint(message);
  return hint === undefined ? "" : `\n${hint}`;
}

function name(componentName: string | undefined): string {
  return componentName === undefined ? "ConditionalRouter" : `ConditionalRouter "${excerpt(componentName)}"`;
}

/**
 * Routes data by conditions written in CEL (Common Expression Language).
 *
 * Each route has a `condition` (a CEL expression that evaluates to a `bool`), one or more `output`
 * expressions, and an `outputName` and `outputType` per output. Routes are tried in order; the first
 * whose condition is true emits its outputs — evaluated to native values, not strings — on its output
 * sockets, and nothing is sent on the others. The input sockets are the variables the expressions use
 * (mandatory unless listed in `optionalVariables`).
 *
 * CEL cannot call JavaScript, reach prototypes, globals, the process or I/O, and always terminates:
 * a route loaded from a document cannot run code. Inputs reach expressions as plain data (a
 * `ChatMessage` as `{ role, text, texts, tool_calls, meta, ... }`); a value that an output returns
 * unchanged comes out as the original object.
 *
 * @example
 * ```ts
 * const router = new ConditionalRouter({
 *   routes: [
 *     { condition: "size(streams) >= 2", output: "streams", outputName: "streams", outputType: z.array(z.number()) },
 *     { condition: "true", output: "query", outputName: "query", outputType: z.string() },
 *   ],
 * });
 * await router.run({ streams: [1, 2, 3], query: "q" }); // { streams: [1, 2, 3] }
 * ```
 *
 * Types: the output sockets are typed from the routes' `outputName` / `outputType`; declare
 * `variableTypes` (`{ exit_reason: z.string() }`) to type the input sockets too — then a wrong wire is a
 * compile error in the typed builder and a `connect` error at run time.
 */
export const ConditionalRouter: ConditionalRouterClass = defineComponent({
  type: "junction.ConditionalRouter",
  description: "Sends its inputs down the first route whose CEL condition is true.",
  params: paramsSchema,
  inputs: (params) => {
    const optional = new Set(params.optionalVariables);
    const sockets: Record<string, z.ZodType> = {};
    for (const variable of compile(params).variables) {
      const type = params.variableTypes?.[variable] ?? z.any();
      sockets[variable] = optional.has(variable) ? type.optional() : type;
    }
    return sockets;
  },
  outputs: (params) => {
    const sockets: Record<string, z.ZodType> = {};
    for (const route of compile(params).routes) {
      for (const output of route.outputs) sockets[output.name] = output.type;
    }
    return sockets;
  },
  setup: (params) => {
    const compiled = compile(params);
    const logger = getDefaultLogger();
    const used = new Set(compiled.variables);
    const unused = params.optionalVariables.filter((variable) => !used.has(variable));
    if (unused.length > 0) {
      logger.warn(
        `ConditionalRouter: the optional variables ${quoteList(unused)} are not used in any route. Check them for typos.`,
        { optionalVariables: unused },
      );
    }
    return compiled;
  },
  run: (inputs, { params, resources, componentName }) => {
    const { context, original } = celRun(inputs, resources.variables);
    const { maxSteps } = resources.limits;
    const who = name(componentName);
    const fields = { componentName, componentType: "junction.ConditionalRouter" };
    for (const route of resources.routes) {
      let matched: unknown;
      try {
        matched = route.condition.evaluate(context, maxSteps);
      } catch (error) {
        throw new RouteConditionError(
          `${who}: the condition of ${route.label} failed: ${errorText(error)}${evaluationHint(error, route.condition.source, inputs)}`,
          { ...fields, routeIndex: route.index, cause: error },
        );
      }
      if (typeof matched !== "boolean") {
        throw new RouteConditionError(
          `${who}: the condition of ${route.label} must evaluate to a bool, got ${describeType(matched)}. Compare explicitly, e.g. \`x != ""\` or \`size(x) > 0\`.`,
          { ...fields, routeIndex: route.index },
        );
      }
      if (!matched) continue;
      const outputs: Record<string, unknown> = {};
      const issues: Issue[] = [];
      for (const output of route.outputs) {
        let value: unknown;
        if (output.passthrough !== undefined) {
          value = inputs[output.passthrough] ?? null;
        } else {
          try {
            value = celToNative(output.expression?.evaluate(context, maxSteps), original);
          } catch (error) {
            throw new RouteConditionError(
              `${who}: the output "${excerpt(output.name)}" of ${route.label} failed: ${errorText(error)}${evaluationHint(error, output.expression?.source ?? "", inputs)}`,
              { ...fields, routeIndex: route.index, socket: output.name, cause: error },
            );
          }
        }
        if (params.validateOutputType) {
          const result = output.type.safeParse(value);
          if (!result.success) {
            for (const issue of result.error.issues) {
              issues.push({ path: [output.name, ...issue.path.map(String)], message: issue.message });
            }
          }
        }
        outputs[output.name] = value;
      }
      if (issues.length > 0) {
        throw new RouteConditionError(
          `${who}: ${route.label} produced outputs that do not match their outputType:\n${issues
            .map((issue) => `  - ${formatPath(issue.path)}: ${issue.message}`)
            .join("\n")}\nFix the output expression or the outputType.`,
          { ...fields, routeIndex: route.index, issues },
        );
      }
      return outputs;
    }
    throw new NoRouteSelectedError(
      `${who}: no route's condition was true. Routes:\n${resources.routes
        .map((route) => `  - ${route.label}: ${excerpt(route.condition.source)}`)
        .join("\n")}\nAdd a last route with condition "true" as a fallback, or check the inputs.`,
      fields,
    );
  },
  serializer: {
    toInitParameters: (params) => ({
      routes: params.routes.map((route) => ({
        condition: route.condition,
        output: route.output,
        outputName: route.outputName,
        outputType: Array.isArray(route.outputType)
          ? route.outputType.map((type: z.ZodType) => socketTypeToJSON(type))
          : socketTypeToJSON(route.outputType as z.ZodType),
        ...(route.outputPassthrough === undefined ? {} : { outputPassthrough: route.outputPassthrough }),
      })),
      optionalVariables: params.optionalVariables,
      validateOutputType: params.validateOutputType,
      ...(params.variableTypes === undefined
        ? {}
        : {
            variableTypes: Object.fromEntries(
              Object.entries(params.variableTypes).map(([variable, type]) => [
                variable,
                socketTypeToJSON(type as z.ZodType),
              ]),
            ),
          }),
      ...(params.limits === undefined ? {} : { limits: params.limits }),
    }),
    fromInitParameters: (initParameters) => initParameters,
  },
}) as unknown as ConditionalRouterClass;

/**
 * A `ConditionalRouter` instance (the class doubles as the instance type: `function f(x: ConditionalRouter)`
 * accepts every router).
 */
export type ConditionalRouter<
  TRoutes extends readonly unknown[] = readonly RouteOptions[],
  TVariables = never,
  TOptional extends string = never,
> = ConditionalRouterInstance<TRoutes, TVariables, TOptional>;
