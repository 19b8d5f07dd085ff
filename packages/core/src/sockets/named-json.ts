import type { z } from "zod";
import type { Issue } from "../errors/errors.js";
import { namedTypeDecoder, namedTypeName, namedTypeRegistrations, namedTypeWire } from "./named-types.js";
import { unwrapSchema } from "./unwrap.js";

/**
 * Reading JSON back into socket values: wherever a schema has a named type (inside arrays, objects,
 * records and optional/nullable/default wrappers), its JSON becomes an instance again. One decoder for
 * remote callers' JSON, run snapshots, tool arguments, agent state and durable run requests; each
 * caller says where the named types' decoders come from and how a failure is reported.
 */

/** How {@link decodeNamedJSON} reads named types and reports what it cannot read. */
export interface NamedJSONOptions {
  /**
   * Where a named type's decoder comes from: `"wire"`, its wire form (JSON a remote caller or a model
   * sent); `"fromJSON"`, the `fromJSON` given to `defineNamedType` (JSON Junction wrote: snapshots, state).
   */
  readonly source: "wire" | "fromJSON";
  /**
   * What happens when a value cannot be decoded: `"issues"` records it in `issues` (the value stays);
   * `"throw"` throws the decoder's error (the caller turns it into a tool error or an issue of its own);
   * `"pass"` leaves the value as it is, for the validation that follows to report.
   */
  readonly onFailure: "issues" | "throw" | "pass";
  /** Receives the problems when `onFailure` is `"issues"`. */
  readonly issues?: Issue[] | undefined;
  /**
   * True when a named type without a decoder is a failure (`"X" values cannot be given as JSON.`);
   * by default such a value is left as it is.
   */
  readonly requireDecoder?: boolean | undefined;
}

/** The deepest nesting decoded; deeper values are left as they are (validation bounds them). */
const maxDepth = 64;

interface ContainerDef {
  readonly type: string;
  readonly element?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly valueType?: z.ZodType;
}

/**
 * Turns JSON into the values `schema` expects: the JSON of every named type inside it becomes an
 * instance; everything else is returned unchanged. A value that is already an instance (not plain
 * data) is left alone.
 *
 * @param schema - the socket (or parameter, or state key) schema
 * @param value - the JSON value
 * @param options - the decoders' source and how a failure is reported
 * @param path - where the value is, for issues
 * @example
 * ```ts
 * const issues: Issue[] = [];
 * decodeNamedJSON(z.array(chatMessageSchema), json, { source: "wire", onFailure: "issues", issues });
 * ```
 */
export function decodeNamedJSON(
  schema: z.ZodType,
  value: unknown,
  options: NamedJSONOptions,
  path: readonly (string | number)[] = [],
): unknown {
  // Most schemas hold no named type (a tool's `z.number()`): they cost one lookup, not a walk.
  if (value === undefined || value === null || !holdsNamedType(schema)) return value;
  return decode(schema, value, options, path, 0);
}

/** Per schema: whether a named type is inside it, as of a number of registrations. */
const holds = new WeakMap<z.ZodType, { readonly registrations: number; readonly holds: boolean }>();

/** True when a named type is inside `schema` where {@link decode} looks (cached per schema). */
function holdsNamedType(schema: z.ZodType): boolean {
  const now = namedTypeRegistrations();
  const cached = holds.get(schema);
  if (cached !== undefined && cached.registrations === now) return cached.holds;
  const result = searchNamedType(schema, 0);
  holds.set(schema, { registrations: now, holds: result });
  return result;
}

function searchNamedType(schema: z.ZodType, depth: number): boolean {
  if (depth > maxDepth) return true; // too deep to tell: walk it
  const inner = unwrapSchema(schema);
  if (namedTypeName(schema) !== undefined || namedTypeName(inner) !== undefined) return true;
  const def = inner._zod.def as ContainerDef;
  if (def.type === "array") return def.element !== undefined && searchNamedType(def.element, depth + 1);
  if (def.type === "object" && def.shape !== undefined)
    return Object.values(def.shape).some((child) => searchNamedType(child, depth + 1));
  if (def.type === "record") return def.valueType !== undefined && searchNamedType(def.valueType, depth + 1);
  return false;
}

function decode(
  schema: z.ZodType,
  value: unknown,
  options: NamedJSONOptions,
  path: readonly (string | number)[],
  depth: number,
): unknown {
  if (value === undefined || value === null || depth > maxDepth) return value;
  const inner = unwrapSchema(schema);
  const name = namedTypeName(schema) ?? namedTypeName(inner);
  if (name !== undefined) return decodeNamed(name, value, options, path);
  const def = inner._zod.def as ContainerDef;
  if (def.type === "array") {
    const element = def.element;
    if (!Array.isArray(value) || element === undefined) return value;
    return value.map((item, index) => decode(element, item, options, [...path, index], depth + 1));
  }
  if (!isRecord(value)) return value;
  if (def.type === "object" && def.shape !== undefined) {
    const out: Record<string, unknown> = { ...value };
    for (const [key, child] of Object.entries(def.shape)) {
      if (Object.hasOwn(value, key)) out[key] = decode(child, value[key], options, [...path, key], depth + 1);
    }
    return out;
  }
  if (def.type === "record" && def.valueType !== undefined) {
    const valueType = def.valueType;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a "__proto__" key stays an own property instead of replacing the prototype.
      Object.defineProperty(out, key, {
        value: decode(valueType, item, options, [...path, key], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function decodeNamed(
  name: string,
  value: unknown,
  options: NamedJSONOptions,
  path: readonly (string | number)[],
): unknown {
  if (typeof value === "object" && value !== null && !Array.isArray(value) && !isPlain(value)) return value;
  const decoder = options.source === "wire" ? namedTypeWire(name)?.decode : namedTypeDecoder(name);
  if (decoder === undefined) {
    if (options.requireDecoder) fail(options, path, `"${name}" values cannot be given as JSON.`, undefined);
    return value;
  }
  try {
    return decoder(value);
  } catch (error) {
    fail(options, path, `not a valid ${name}: ${(error as Error).message}`, error);
    return value;
  }
}

function fail(
  options: NamedJSONOptions,
  path: readonly (string | number)[],
  message: string,
  error: unknown,
): void {
  if (options.onFailure === "throw") throw error ?? new TypeError(message);
  if (options.onFailure === "issues") options.issues?.push({ path, message });
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
