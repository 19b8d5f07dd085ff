import { DeserializationError, type Issue, JunctionError, socketSchemaFromJSON } from "@junction/core";
import { type AnyTool, type JsonObjectSchema, type JsonSchemaResponseFormat, Tool } from "@junction/llm";
import { z } from "zod";

/**
 * The Agent's `outputSchema` option resolved once per instance: the zod schema answers are validated
 * with, the JSON Schema the model is shown, the final-answer tool and the response format.
 */

/** What the `outputSchema` option takes: a zod schema, or a JSON Schema object. */
export type OutputSchema = z.ZodType | Readonly<Record<string, unknown>>;

/** How the model is asked for a structured answer (see the Agent's `outputStrategy` option). */
export type OutputStrategy = "tool" | "responseFormat" | "auto";

/** The name of the tool the `"tool"` strategy offers the model for its final answer. */
export const finalAnswerToolName = "final_answer";

/** The resolved output schema. */
export interface OutputSpec {
  /** Validates (and parses) an answer. */
  readonly schema: z.ZodType;
  /** The JSON Schema shown to the model; its root is always an object. */
  readonly modelSchema: JsonObjectSchema;
  /** True when the schema's root is not an object, so the model answers `{ "value": <answer> }`. */
  readonly wrapped: boolean;
  /** The final-answer tool of the `"tool"` strategy. */
  readonly tool: AnyTool;
  /** The strict response format of the `"responseFormat"` strategy. */
  readonly responseFormat: JsonSchemaResponseFormat;
}

/** The type of an answer's problem, as the `output_issues` socket and State key hold it. */
export const outputIssuesSchema = z.array(
  z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }),
);

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** True when `value` is a zod schema. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const zodOf = new WeakMap<object, z.ZodType>();

/**
 * The zod schema of an `outputSchema` option (a JSON Schema is read with core's socket-schema reader,
 * once per option object).
 *
 * @throws DeserializationError when a JSON Schema cannot be read
 */
export function outputZodSchema(option: OutputSchema): z.ZodType {
  if (isZodSchema(option)) return option;
  let schema = zodOf.get(option);
  if (schema === undefined) {
    schema = socketSchemaFromJSON(option);
    zodOf.set(option, schema);
  }
  return schema;
}

/** Removes `$schema` and Junction's `x-junction-*` keywords, which mean nothing to a model. */
function forModel(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forModel);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key.startsWith("x-junction-")) continue;
    out[key] = forModel(value);
  }
  return out;
}

function zodToModelJSON(schema: z.ZodType, issues: Issue[]): Record<string, unknown> {
  try {
    return z.toJSONSchema(schema, {
      io: "input",
      unrepresentable: (context) => {
        issues.push({
          path: ["outputSchema", ...context.path],
          message: `a "${context.zodSchema._zod.def.type}" schema cannot be described to a model as JSON Schema. Use JSON-describable types in the output schema.`,
        });
        return {};
      },
    }) as Record<string, unknown>;
  } catch (error) {
    issues.push({
      path: ["outputSchema"],
      message: `cannot be written as JSON Schema: ${(error as Error).message}`,
    });
    return {};
  }
}

function wrap(json: Record<string, unknown>): Record<string, unknown> {
  const { $defs, definitions, ...value } = json;
  return {
    type: "object",
    properties: { value },
    required: ["value"],
    ...($defs === undefined ? {} : { $defs }),
    ...(definitions === undefined ? {} : { definitions }),
  };
}

/**
 * Resolves the `outputSchema` option; records every problem in `issues` (paths under `["outputSchema"]`).
 *
 * @returns the resolved spec, or `undefined` when the option is absent or invalid
 */
export function resolveOutputSchema(option: unknown, issues: Issue[]): OutputSpec | undefined {
  if (option === undefined) return undefined;
  const before = issues.length;
  let schema: z.ZodType;
  let json: Record<string, unknown>;
  if (isZodSchema(option)) {
    schema = option;
    json = forModel(zodToModelJSON(option, issues)) as Record<string, unknown>;
  } else if (isRecord(option)) {
    try {
      schema = outputZodSchema(option);
    } catch (error) {
      const found =
        error instanceof DeserializationError || JunctionError.isInstance(error) ? error.issues : [];
      if (found.length === 0) issues.push({ path: ["outputSchema"], message: String(error) });
      for (const issue of found)
        issues.push({ path: ["outputSchema", ...issue.path], message: issue.message });
      return undefined;
    }
    json = forModel(option) as Record<string, unknown>;
  } else {
    issues.push({ path: ["outputSchema"], message: "must be a zod schema or a JSON Schema object." });
    return undefined;
  }
  if (issues.length > before) return undefined;
  const wrapped = json.type !== "object";
  const modelSchema = (wrapped ? wrap(json) : json) as JsonObjectSchema;
  const description =
    typeof json.description === "string"
      ? `Give your final answer: ${json.description}`
      : "Give your final answer. Call this once you have everything you need; its arguments are the answer.";
  let tool: AnyTool;
  try {
    tool = new Tool({
      name: finalAnswerToolName,
      description,
      parameters: modelSchema,
      function: (args) => args,
    });
  } catch (error) {
    const found = JunctionError.isInstance(error) ? error.issues : [];
    issues.push({
      path: ["outputSchema"],
      message: `cannot be offered to the model as a tool's parameters: ${found.map((issue) => issue.message).join("; ") || String(error)}`,
    });
    return undefined;
  }
  const title = json.title;
  return {
    schema,
    modelSchema,
    wrapped,
    tool,
    responseFormat: {
      type: "json_schema",
      json_schema: {
        name: typeof title === "string" && namePattern.test(title) ? title : finalAnswerToolName,
        schema: modelSchema,
        strict: true,
      },
    },
  };
}
