import { defineComponent, quoteExcerpt } from "@junction/core";
import { z } from "zod";
import { celRun } from "./cel/cel-context.js";
import { CelCompileError, celToNative, compileExpression, errorText } from "./cel/cel-expression.js";
import { OutputAdaptationError } from "./errors.js";
import { costProblem, limitsSchema, resolveLimits } from "./route-params.js";
import { socketTypeParam, socketTypeToJSON } from "./socket-type.js";

const paramsSchema = z
  .object({
    /** The CEL expression that computes `output`; its variables are the input sockets. */
    expression: z.string(),
    /** The type of `output` (a zod schema; JSON Schema in documents). */
    outputType: socketTypeParam,
    /** Evaluation budget of the expression: `{ maxCost, maxSteps }` (defaults 1,000,000 each). */
    limits: limitsSchema,
  })
  .superRefine((params, context) => {
    try {
      const expression = compileExpression(params.expression);
      const tooCostly = costProblem(expression, resolveLimits(params.limits).maxCost, "the expression");
      if (tooCostly !== undefined)
        context.addIssue({ code: "custom", path: ["expression"], message: tooCostly });
    } catch (error) {
      if (!(error instanceof CelCompileError)) throw error;
      context.addIssue({
        code: "custom",
        path: ["expression"],
        message: `the expression is not a valid CEL expression: ${error.message}`,
      });
    }
  });

/**
 * Computes one output from its inputs with a CEL expression: reshapes data between components whose
 * sockets do not line up (pick a field, take the first document, build a map).
 *
 * The input sockets are the variables the expression uses (all mandatory). The result is a native
 * value (CEL `int` → `number`, maps → objects); inputs returned unchanged come out as the original
 * objects.
 *
 * @example
 * ```ts
 * const adapter = new OutputAdapter({ expression: "documents[0].content", outputType: z.string() });
 * await adapter.run({ documents: [{ content: "hello" }] }); // { output: "hello" }
 * ```
 */
export const OutputAdapter = defineComponent({
  type: "junction.OutputAdapter",
  description: "Computes its output from its inputs with a CEL expression.",
  params: paramsSchema,
  inputs: (params) =>
    Object.fromEntries(
      compileExpression(params.expression).variables.map((name) => [name, z.any()]),
    ) as Record<string, z.ZodAny>,
  outputs: (params) => ({ output: params.outputType }),
  setup: (params) => ({
    expression: compileExpression(params.expression),
    maxSteps: resolveLimits(params.limits).maxSteps,
  }),
  run: (inputs, { resources: { expression, maxSteps }, componentName }) => {
    const { context, original } = celRun(inputs, expression.variables);
    try {
      return { output: celToNative(expression.evaluate(context, maxSteps), original) };
    } catch (error) {
      throw new OutputAdaptationError(
        `OutputAdapter${componentName === undefined ? "" : ` "${componentName}"`}: the expression ${quoteExcerpt(expression.source)} failed: ${errorText(error)}`,
        { componentName, componentType: "junction.OutputAdapter", cause: error },
      );
    }
  },
  serializer: {
    toInitParameters: (params) => ({
      expression: params.expression,
      outputType: socketTypeToJSON(params.outputType),
      ...(params.limits === undefined ? {} : { limits: params.limits }),
    }),
    fromInitParameters: (initParameters) => initParameters,
  },
});

/** An `OutputAdapter` instance (the class doubles as the instance type: `function f(x: OutputAdapter)`). */
export type OutputAdapter = InstanceType<typeof OutputAdapter>;
