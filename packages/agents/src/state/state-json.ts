import {
  DeserializationError,
  decodeNamedJSON,
  defaultRegistry,
  excerpt,
  formatIssues,
  getDefaultLogger,
  type Issue,
  type Logger,
  quoteExcerpt,
  type Registry,
  SerializationError,
} from "@junction/core";
import type { z } from "zod";
import type { MergeHandler } from "./handlers.js";
import { schemaFromJSON, schemaToJSON } from "./schema-json.js";
import type { ResolvedKeySpec, StateKeySpec, StateSchema } from "./state-schema.js";

/** The JSON form of a State: its schema (JSON Schema, handlers by registered name) and its data. */
export interface StateJSON {
  /** Each key's type as JSON Schema, and its handler's registered name when one was declared. */
  readonly schema: Readonly<
    Record<string, { readonly type: Record<string, unknown>; readonly handler?: string }>
  >;
  /** Each key's value as JSON (named types such as `ChatMessage` in their JSON form). */
  readonly data: Readonly<Record<string, unknown>>;
}

/** Options of `State.toJSON`. */
export interface StateToJSONOptions {
  /** Where handler names are looked up (default: the default registry). */
  readonly registry?: Registry | undefined;
  /** Receives a warning for each value that cannot be written (it is left out). */
  readonly logger?: Logger | undefined;
  /** Keys to leave out. */
  readonly skipKeys?: readonly string[] | undefined;
}

/** Options of `State.fromJSON`. */
export interface StateFromJSONOptions {
  /** Where handler names are resolved (default: the default registry). */
  readonly registry?: Registry | undefined;
}

/** Writes a State's schema and data; see `State.toJSON`. */
export function writeState(
  specs: ReadonlyMap<string, ResolvedKeySpec>,
  read: (key: string) => { has: boolean; value: unknown },
  options: StateToJSONOptions,
): StateJSON {
  const registry = options.registry ?? defaultRegistry;
  const logger = options.logger ?? getDefaultLogger();
  const skip = new Set(options.skipKeys ?? []);
  const issues: Issue[] = [];
  const schema: Record<string, { type: Record<string, unknown>; handler?: string }> = {};
  const data: Record<string, unknown> = {};
  for (const [key, spec] of specs) {
    if (skip.has(key)) continue;
    const entry: { type: Record<string, unknown>; handler?: string } = {
      type: schemaToJSON(spec.type, ["schema", key, "type"], issues),
    };
    if (spec.explicitHandler) {
      const name = registry.functionName(spec.handler);
      if (name === undefined) {
        issues.push({
          path: ["schema", key, "handler"],
          message: `the handler of "${excerpt(key)}" is not registered, so it cannot be written by name. Register it with registry.registerFunction("myapp.${spec.handler.name || "merge"}", handler).`,
        });
      } else {
        entry.handler = name;
      }
    }
    schema[key] = entry;
  }
  if (issues.length > 0) {
    throw new SerializationError(`State.toJSON: cannot serialize the schema:\n${formatIssues(issues)}`, {
      issues,
    });
  }
  for (const key of specs.keys()) {
    if (skip.has(key)) continue;
    const { has, value } = read(key);
    if (!has) continue;
    try {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError("the value has no JSON form");
      data[key] = JSON.parse(text);
    } catch (error) {
      logger.warn(`State.toJSON: the value of "${excerpt(key)}" cannot be written as JSON and is left out.`, {
        key,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { schema, data };
}

/** Turns the JSON of named-type values (also inside arrays and objects) back into instances. */
function decodeValue(schema: z.ZodType, value: unknown): unknown {
  return decodeNamedJSON(schema, value, { source: "fromJSON", onFailure: "throw" });
}

/** Reads a document written by `State.toJSON` into a schema and data; every problem is reported at once. */
export function readState(
  doc: unknown,
  options: StateFromJSONOptions,
): { schema: StateSchema; data: Record<string, unknown> } {
  const registry = options.registry ?? defaultRegistry;
  const issues: Issue[] = [];
  const record =
    typeof doc === "object" && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  if (record !== doc)
    issues.push({ path: [], message: "a State document must be an object { schema, data }." });
  const rawSchema = record.schema ?? {};
  const rawData = record.data ?? {};
  const schema: Record<string, StateKeySpec> = {};
  if (typeof rawSchema !== "object" || rawSchema === null || Array.isArray(rawSchema)) {
    issues.push({ path: ["schema"], message: "must be an object { key: { type, handler? } }." });
  } else {
    for (const [key, entry] of Object.entries(rawSchema)) {
      const spec = (typeof entry === "object" && entry !== null ? entry : {}) as {
        type?: unknown;
        handler?: unknown;
      };
      const type = schemaFromJSON(spec.type, ["schema", key, "type"], issues);
      let handler: MergeHandler | undefined;
      if (spec.handler !== undefined) {
        const fn = typeof spec.handler === "string" ? registry.getFunction(spec.handler) : undefined;
        if (fn === undefined) {
          issues.push({
            path: ["schema", key, "handler"],
            message: `no function is registered as ${quoteExcerpt(spec.handler)}. Register it with registry.registerFunction(name, handler) and pass { registry }.`,
          });
        } else {
          handler = fn as MergeHandler;
        }
      }
      schema[key] = handler === undefined ? { type } : { type, handler };
    }
  }
  const data: Record<string, unknown> = {};
  if (typeof rawData !== "object" || rawData === null || Array.isArray(rawData)) {
    issues.push({ path: ["data"], message: "must be an object of values." });
  } else {
    for (const [key, value] of Object.entries(rawData)) {
      const spec = schema[key];
      if (spec === undefined) {
        issues.push({
          path: ["data", key],
          message: `key "${excerpt(key)}" has a value but is not in the schema.`,
        });
        continue;
      }
      try {
        data[key] = decodeValue(spec.type, value);
      } catch (error) {
        issues.push({ path: ["data", key], message: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  if (issues.length > 0) {
    throw new DeserializationError(`State.fromJSON: cannot load the document:\n${formatIssues(issues)}`, {
      issues,
    });
  }
  return { schema, data };
}
