import type { Issue } from "@junction/core";
import { excerpt, isReservedName, namedTypeName, reservedNameMessage, unwrapSchema } from "@junction/core";
import type { z } from "zod";
import { type MergeHandler, mergeById, mergeLists, replaceValues } from "./handlers.js";

/** One State key: its value's zod schema and, optionally, how new values merge into the current one. */
export interface StateKeySpec<TType extends z.ZodType = z.ZodType> {
  /** The schema of the key's value. An array schema makes it a list key (merged with `mergeLists` by default). */
  readonly type: TType;
  /** Merges a new value into the current one; default `mergeLists` for list keys, else `replaceValues`. */
  readonly handler?: MergeHandler | undefined;
}

/** A State schema: every key the State may hold. */
export type StateSchema = Readonly<Record<string, StateKeySpec>>;

/** A key's spec with every decision made: handler resolved, list-ness and element schema known. */
export interface ResolvedKeySpec {
  /** The key's schema as declared. */
  readonly type: z.ZodType;
  /** The handler in force (the declared one or the default). */
  readonly handler: MergeHandler;
  /** True when the handler was declared explicitly. */
  readonly explicitHandler: boolean;
  /** The element schema when the key is a list (`z.array(...)`, possibly optional/nullable/defaulted). */
  readonly element: z.ZodType | undefined;
}

interface ZodDefLike {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
}

function defOf(schema: z.ZodType): ZodDefLike {
  return (schema as unknown as { _zod: { def: ZodDefLike } })._zod.def;
}

/**
 * The element schema when `schema` is an array schema, looking through its wrappers (`optional`,
 * `nullable`, `default`, `readonly`, …; see `unwrapSchema`). Unlike the reference, `Optional[list[X]]`
 * is a list key too.
 */
export function listElementSchema(schema: z.ZodType): z.ZodType | undefined {
  const def = defOf(unwrapSchema(schema));
  return def.type === "array" ? def.element : undefined;
}

/**
 * The handler a key gets when none is declared: `replaceValues` for single values, `mergeById` for
 * lists of `Document`s (the named type registered by `@junction/documents`, recognised by name so this
 * package does not depend on it), `mergeLists` for other lists.
 */
function defaultHandler(element: z.ZodType | undefined): MergeHandler {
  if (element === undefined) return replaceValues;
  return namedTypeName(element) === "Document" ? mergeById : mergeLists;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/**
 * Checks a schema and resolves default handlers; collects every problem.
 *
 * @param schema - the declared schema
 * @param issues - receives one issue per problem, with the path `[key, "type" | "handler"]`
 */
export function resolveStateSchema(schema: unknown, issues: Issue[]): Map<string, ResolvedKeySpec> {
  const resolved = new Map<string, ResolvedKeySpec>();
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    issues.push({ path: [], message: "the State schema must be an object of { key: { type, handler? } }." });
    return resolved;
  }
  for (const [key, spec] of Object.entries(schema as Record<string, unknown>)) {
    if (isReservedName(key)) {
      issues.push({ path: [key], message: reservedNameMessage(key, "a State key") });
      continue;
    }
    if (typeof spec !== "object" || spec === null) {
      issues.push({
        path: [key],
        message: `key "${excerpt(key)}" must be declared as { type: zodSchema, handler? }.`,
      });
      continue;
    }
    const { type, handler } = spec as { type?: unknown; handler?: unknown };
    if (!isZodSchema(type)) {
      issues.push({
        path: [key, "type"],
        message: `key "${excerpt(key)}" needs a zod schema as its "type" (e.g. { type: z.string() }).`,
      });
      continue;
    }
    if (handler !== undefined && typeof handler !== "function") {
      issues.push({
        path: [key, "handler"],
        message: `the handler of key "${excerpt(key)}" must be a function (current, value) => merged, or left out.`,
      });
      continue;
    }
    const element = listElementSchema(type);
    resolved.set(key, {
      type,
      element,
      explicitHandler: handler !== undefined,
      handler: (handler as MergeHandler | undefined) ?? defaultHandler(element),
    });
  }
  return resolved;
}
