import type { z } from "zod";
import { ComponentError } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";

/**
 * Named socket types: classes with methods (ChatMessage, Document) used as socket types.
 *
 * A named type is a zod schema (usually `z.instanceof(Class)`) registered under a unique name. Type
 * compatibility compares named types by identity, and socket schemas are written to JSON by name
 * (`{ "x-junction-type": "ChatMessage" }`) because a class cannot be described by JSON Schema.
 */

const byName = new Map<string, z.ZodType>();
const bySchema = new WeakMap<z.ZodType, string>();
const wires = new Map<string, NamedTypeWire>();
const decoders = new Map<string, (value: unknown) => unknown>();
let registrations = 0;

/** How many named types were registered so far: a cache keyed on it knows when it may be stale. */
export function namedTypeRegistrations(): number {
  return registrations;
}

/**
 * How values of a named type travel as JSON (over HTTP, MCP or the command line): the JSON Schema of
 * the wire shape and how to turn such JSON back into an instance. Going out, values are written with
 * `JSON.stringify` (so the class's `toJSON` decides the shape). A named type without a wire form
 * (tools, callbacks) cannot be given by a remote caller.
 */
export interface NamedTypeWire {
  /** The JSON Schema of the value's JSON form (what `toJSON` writes and `decode` reads). */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  /**
   * Turns the JSON form into an instance.
   *
   * @throws when the JSON is not a valid value (the message is shown to the caller)
   */
  decode(json: unknown): unknown;
}

/** Options of {@link defineNamedType}. */
export interface NamedTypeOptions {
  /**
   * Reads a value of this type back from its JSON form (what its `toJSON` wrote). Run snapshots use it
   * to restore socket values; without it such values cannot be resumed from a snapshot.
   */
  readonly fromJSON?: ((value: unknown) => unknown) | undefined;
  /** How values of this type travel as JSON for remote callers; leave it out for types that cannot (functions, live objects). */
  readonly wire?: NamedTypeWire | undefined;
}

/**
 * Registers `schema` as the named socket type `name` and returns it.
 *
 * Registering the same schema under the same name again is a no-op; a different schema under a taken
 * name is an error (two packages must not fight over one name).
 *
 * @param name - a unique name, e.g. `"ChatMessage"`
 * @param schema - the schema values of this type satisfy, e.g. `z.instanceof(ChatMessage)`
 * @param options - `fromJSON`, how a value is read back from its JSON form; `wire`, its JSON form for
 *   remote callers (see {@link NamedTypeWire})
 * @example
 * ```ts
 * export const documentSchema = defineNamedType("Document", z.instanceof(Document));
 * ```
 */
export function defineNamedType<TSchema extends z.ZodType>(
  name: string,
  schema: TSchema,
  options: NamedTypeOptions = {},
): TSchema {
  const existing = byName.get(name);
  if (existing !== undefined && existing !== schema) {
    throw new ComponentError(
      `defineNamedType: the name "${excerpt(name)}" is already registered for another schema. Pick a unique name (prefix it with your package).`,
    );
  }
  const previousName = bySchema.get(schema);
  if (previousName !== undefined && previousName !== name) {
    throw new ComponentError(
      `defineNamedType: this schema is already registered as "${excerpt(previousName)}"; it cannot also be "${excerpt(name)}".`,
    );
  }
  byName.set(name, schema);
  registrations += 1;
  bySchema.set(schema, name);
  if (options.fromJSON !== undefined) decoders.set(name, options.fromJSON);
  if (options.wire !== undefined) wires.set(name, options.wire);
  return schema;
}

/** The registered name of `schema`, or `undefined` when it is not a named type. */
export function namedTypeName(schema: z.ZodType): string | undefined {
  return bySchema.get(schema);
}

/** The schema registered under `name`, or `undefined`. */
export function getNamedType(name: string): z.ZodType | undefined {
  return byName.get(name);
}

/** The names of every registered named type, sorted. */
export function namedTypeNames(): string[] {
  return [...byName.keys()].sort();
}

/** The `fromJSON` registered for the named type `name`, if any. */
export function namedTypeDecoder(name: string): ((value: unknown) => unknown) | undefined {
  return decoders.get(name);
}

/**
 * The wire form of a named type (by name or schema), or `undefined` when it has none or is not a
 * named type.
 */
export function namedTypeWire(nameOrSchema: string | z.ZodType): NamedTypeWire | undefined {
  const name = typeof nameOrSchema === "string" ? nameOrSchema : bySchema.get(nameOrSchema);
  return name === undefined ? undefined : wires.get(name);
}
