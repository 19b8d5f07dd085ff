import { DeserializationError, SerializationError } from "../errors/errors.js";
import { describeDepthLimit, maxValueDepth, snapshotStructureDepth } from "../json/value-limits.js";

/**
 * The JSON form of durable step results. Plain JSON passes through; everything else is written as a
 * tagged object `{ "$junction": <type>, "value": <json> }`: registered classes (`ChatMessage`, …),
 * `Date`, `Error` (name and message only), `undefined`, non-finite numbers and `bigint`. A plain object
 * that itself has a `$junction` key is wrapped as `{ "$junction": "object", "value": … }`.
 */

/** How instances of one class are written to and read from JSON. */
export interface DurableType<T extends object> {
  /** A unique name, written as the tag (`"ChatMessage"`); usually the named socket type's name. */
  readonly name: string;
  /** The class; an instance is matched by its exact constructor. */
  readonly type: abstract new (
    ...args: never[]
  ) => T;
  /** Writes an instance as JSON data. */
  toJSON(value: T): unknown;
  /** Reads an instance back from what `toJSON` wrote. */
  fromJSON(json: unknown): T;
}

type AnyDurableType = DurableType<object>;

const byName = new Map<string, AnyDurableType>();
const byClass = new Map<unknown, AnyDurableType>();
const tag = "$junction";
const builtins = new Set(["object", "undefined", "number", "bigint", "Date", "Error"]);

/**
 * Registers a class whose instances may appear in durable step results (component outputs, model
 * replies, tool results). Packages register their value classes when imported (`@junction/llm`
 * registers `ChatMessage`, `ToolCall`, …). Registering the same definition again is a no-op.
 *
 * @param definition - the name, class and JSON conversions
 * @example
 * ```ts
 * registerDurableType({ name: "myapp.Money", type: Money, toJSON: (m) => m.cents, fromJSON: (c) => new Money(c as number) });
 * ```
 */
export function registerDurableType<T extends object>(definition: DurableType<T>): void {
  const entry = definition as unknown as AnyDurableType;
  const existing = byName.get(entry.name);
  if (builtins.has(entry.name) || (existing !== undefined && existing.type !== entry.type)) {
    throw new SerializationError(
      `registerDurableType: the name "${entry.name}" is already taken. Pick a unique name (prefix it with your package).`,
    );
  }
  byName.set(entry.name, entry);
  byClass.set(entry.type, entry);
}

/**
 * Writes a step result as JSON data (see the module notes for the format).
 *
 * @param value - plain JSON, registered class instances, `Date`, `Error`, `undefined`, in any nesting
 * @throws SerializationError naming the path of a value of an unregistered class, a function or a symbol
 */
export function toDurableJSON(value: unknown): unknown {
  return write(value, "$", new Set());
}

/**
 * Reads what {@link toDurableJSON} wrote.
 *
 * @param json - the JSON data
 * @throws DeserializationError for an unknown tag (a class that is not registered in this process)
 */
export function fromDurableJSON(json: unknown): unknown {
  return read(json, "$", 0);
}

/** The deepest nesting journaled: a run's values plus the levels a step result wraps around them. */
const maxDepth = maxValueDepth + snapshotStructureDepth;

/** A path for a message: the first levels of a deep one. */
function shortPath(path: string): string {
  return path.length > 80 ? `${path.slice(0, 80)}…` : path;
}

/**
 * `ancestors` holds the containers being written (its size is the depth): a cycle is refused, and so is
 * nesting deeper than `maxDepth`, before the stack runs out.
 */
function write(value: unknown, path: string, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : { [tag]: "number", value: String(value) };
    case "undefined":
      return { [tag]: "undefined" };
    case "bigint":
      return { [tag]: "bigint", value: value.toString() };
    case "object": {
      if (value === null) return null;
      const prototype = Object.getPrototypeOf(value);
      if (Array.isArray(value) || prototype === Object.prototype || prototype === null) {
        return writeContainer(value, path, ancestors);
      }
      const registered = byClass.get(prototype.constructor);
      // What a registered toJSON returns goes through JSON text, so it is JSON data as the journal keeps
      // it (an `undefined` field is dropped now, not only after a restart).
      if (registered !== undefined)
        return {
          [tag]: registered.name,
          value: JSON.parse(JSON.stringify(registered.toJSON(value)) ?? "null"),
        };
      if (value instanceof Date) return { [tag]: "Date", value: value.toISOString() };
      if (value instanceof Error)
        return { [tag]: "Error", value: { name: value.name, message: value.message } };
      throw new SerializationError(
        `A durable step result holds an instance of ${prototype.constructor?.name ?? "an unnamed class"} at ${path}, which cannot be written to the journal. Return plain JSON data, or register the class with registerDurableType.`,
      );
    }
    default:
      throw new SerializationError(
        `A durable step result holds a ${typeof value} at ${path}, which cannot be written to the journal. Return plain JSON data.`,
      );
  }
}

function writeContainer(value: object, path: string, ancestors: Set<object>): unknown {
  if (ancestors.has(value)) {
    throw new SerializationError(
      `A durable step result holds itself at ${shortPath(path)} (a cycle), which cannot be written to the journal. Return plain JSON data without cycles.`,
    );
  }
  if (ancestors.size >= maxDepth) {
    throw new SerializationError(
      `A durable step result nests objects and arrays deeper than ${describeDepthLimit(maxDepth)} (at ${shortPath(path)}), which cannot be written to the journal; values in a run may nest at most ${describeDepthLimit()}. Return a flatter value.`,
    );
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item, index) => write(item, `${path}[${index}]`, ancestors));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      setOwn(out, key, write((value as Record<string, unknown>)[key], `${path}.${key}`, ancestors));
    }
    return Object.hasOwn(value, tag) ? { [tag]: "object", value: out } : out;
  } finally {
    ancestors.delete(value);
  }
}

function read(json: unknown, path: string, depth: number): unknown {
  if (typeof json !== "object" || json === null) return json;
  if (depth >= maxDepth) {
    throw new DeserializationError(
      `A durable step result at ${shortPath(path)} nests objects and arrays deeper than ${describeDepthLimit(maxDepth)}; the journal was not written by Junction or was changed.`,
    );
  }
  if (Array.isArray(json)) return json.map((item, index) => read(item, `${path}[${index}]`, depth + 1));
  const record = json as Record<string, unknown>;
  const name = record[tag];
  if (name === undefined) return readObject(record, path, depth);
  switch (name) {
    case "object":
      return readObject(record.value as Record<string, unknown>, path, depth);
    case "undefined":
      return undefined;
    case "number":
      return Number(record.value);
    case "bigint":
      return BigInt(record.value as string);
    case "Date":
      return new Date(record.value as string);
    case "Error": {
      const fields = record.value as { name?: string; message?: string };
      const error = new Error(fields.message ?? "");
      if (typeof fields.name === "string") error.name = fields.name;
      return error;
    }
    default: {
      const registered = typeof name === "string" ? byName.get(name) : undefined;
      if (registered === undefined) {
        throw new DeserializationError(
          `A durable step result at ${path} holds a value of type ${JSON.stringify(name)}, which is not registered in this process. Import the package that registers it (registerDurableType) before running.`,
        );
      }
      return registered.fromJSON(record.value);
    }
  }
}

function readObject(record: Record<string, unknown>, path: string, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) setOwn(out, key, read(record[key], `${path}.${key}`, depth + 1));
  return out;
}

/** Sets a key as an own data property (a `"__proto__"` key must not change the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
