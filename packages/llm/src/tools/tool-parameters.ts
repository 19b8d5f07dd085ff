import { excerpt, type Issue, isComponent, namedTypeName } from "@junction/core";
import { z } from "zod";
import { isRecord } from "../messages/content-part-checks.js";
import { namedTypeJsonSchema } from "./named-type-codecs.js";

/** A JSON Schema (draft 2020-12) as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A tool's parameters schema: a JSON Schema object with `type: "object"`. */
export interface JsonObjectSchema {
  /** Always `"object"`: tools take named arguments. */
  readonly type: "object";
  /** One schema per parameter. */
  readonly properties?: Readonly<Record<string, JsonSchema | boolean>>;
  /** Names of mandatory parameters. */
  readonly required?: readonly string[];
  /** Any other JSON Schema keyword. */
  readonly [keyword: string]: unknown;
}

/** Internal: options of {@link normalizeParameters}. */
export interface NormalizeOptions {
  /** Parameters filled from State: they may have types a model cannot be told about. */
  readonly fromState?: readonly string[] | undefined;
  /** Descriptions for zod parameters that have none. */
  readonly defaultDescriptions?: Readonly<Record<string, string>> | undefined;
}

/** Internal: what a parameters declaration normalizes to. */
export interface NormalizedParameters {
  readonly jsonSchema: JsonObjectSchema;
  readonly validator: z.ZodType;
  readonly zodShape: Readonly<Record<string, z.ZodType>> | undefined;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Converts a zod schema to JSON Schema for a model (input side, so defaulted fields are optional),
 * describing named types that have a JSON form (ChatMessage) and reporting every other
 * unrepresentable type as an issue.
 */
export function zodToToolJsonSchema(
  schema: z.ZodType,
  path: readonly (string | number)[],
  issues: Issue[],
  tolerated: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io: "input",
    reused: "inline",
    unrepresentable: (ctx) => {
      const named = namedTypeJsonSchema(ctx.zodSchema as unknown as z.ZodType);
      if (named !== undefined) return named;
      // Parameters filled from State never reach the model, so they need no JSON form.
      if (ctx.path[0] === "properties" && tolerated.has(String(ctx.path[1]))) return {};
      const name = namedTypeName(ctx.zodSchema as unknown as z.ZodType);
      issues.push({
        path: [...path, ...ctx.path.filter((part) => part !== "properties")],
        message: `${name === undefined ? "this type" : `the named type "${excerpt(name)}"`} cannot be described to a model as JSON Schema (${ctx.message}). Fill it from State with inputsFromState, or give explicit \`parameters\`.`,
      });
      return {};
    },
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * Normalizes a tool's `parameters`: a zod object (converted with `z.toJSONSchema`) or a JSON Schema
 * object (checked structurally and compiled with `z.fromJSONSchema`, which also rejects unknown types).
 */
export function normalizeParameters(
  parameters: unknown,
  issues: Issue[],
  options: NormalizeOptions = {},
): NormalizedParameters | undefined {
  if (isRecord(parameters) && "_zod" in parameters && !isComponent(parameters)) {
    const schema = parameters as unknown as z.ZodType;
    if (schema._zod.def.type !== "object") {
      issues.push({ path: ["parameters"], message: "a zod parameters schema must be a z.object({...})." });
      return undefined;
    }
    const before = issues.length;
    const jsonSchema = zodToToolJsonSchema(schema, ["parameters"], issues, new Set(options.fromState ?? []));
    if (issues.length > before) return undefined;
    const properties = jsonSchema.properties as Record<string, Record<string, unknown>> | undefined;
    for (const [name, description] of Object.entries(options.defaultDescriptions ?? {})) {
      const property = properties?.[name];
      if (property !== undefined && property.description === undefined) property.description = description;
    }
    return {
      jsonSchema: deepFreeze(jsonSchema) as JsonObjectSchema,
      validator: schema,
      zodShape: (schema as z.ZodObject).shape,
    };
  }
  if (!isRecord(parameters)) {
    issues.push({ path: ["parameters"], message: "must be a JSON Schema object or a zod object schema." });
    return undefined;
  }
  const before = issues.length;
  if (parameters.type !== "object")
    issues.push({ path: ["parameters", "type"], message: 'must be "object": tools take named arguments.' });
  const properties = parameters.properties;
  if (properties !== undefined) {
    if (!isRecord(properties))
      issues.push({ path: ["parameters", "properties"], message: "must be an object." });
    else
      for (const [name, property] of Object.entries(properties))
        if (!isRecord(property) && typeof property !== "boolean")
          issues.push({
            path: ["parameters", "properties", name],
            message: "must be a JSON Schema (an object).",
          });
  }
  const required = parameters.required;
  if (
    required !== undefined &&
    (!Array.isArray(required) || required.some((item) => typeof item !== "string"))
  )
    issues.push({ path: ["parameters", "required"], message: "must be an array of parameter names." });
  if (issues.length > before) return undefined;
  const jsonSchema = structuredClone(parameters) as Record<string, unknown>;
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    issues.push({
      path: ["parameters"],
      message: `is not a valid JSON Schema: ${(error as Error).message}.`,
    });
    return undefined;
  }
  return { jsonSchema: deepFreeze(jsonSchema) as JsonObjectSchema, validator, zodShape: undefined };
}

/** The parameter names a schema declares. */
export function parameterNames(schema: JsonObjectSchema): string[] {
  return Object.keys(schema.properties ?? {});
}

/** The schema a model sees: `parameters` without the parameters filled from State. */
export function withoutParameters(schema: JsonObjectSchema, hidden: readonly string[]): JsonObjectSchema {
  if (hidden.length === 0) return schema;
  const properties = { ...(schema.properties ?? {}) };
  for (const name of hidden) delete properties[name];
  const out: Record<string, unknown> = { ...schema, properties };
  if (schema.required !== undefined) out.required = schema.required.filter((name) => !hidden.includes(name));
  return deepFreeze(out) as JsonObjectSchema;
}
