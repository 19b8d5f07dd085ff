import type { z } from "zod";
import { ComponentError } from "../errors/errors.js";
import { excerpt, quoteExcerpt } from "../errors/excerpt.js";
import { isReservedName, reservedNameMessage } from "./reserved-names.js";

/**
 * Socket declarations and the descriptions instances expose.
 *
 * An input socket is declared with a zod schema, or with `variadic(schema)` / `greedyVariadic(schema)`
 * for sockets that take one value per sender. Output sockets are plain schemas.
 */

const variadicBrand: unique symbol = Symbol.for("junction.variadic");

/** How a socket collects values: one value (`none`), one per sender (`lazy`), or the first to arrive (`greedy`). */
export type VariadicKind = "none" | "lazy" | "greedy";

/** A variadic input declaration made by {@link variadic} or {@link greedyVariadic}. */
export interface VariadicSpec<
  TSchema extends z.ZodType = z.ZodType,
  TKind extends "lazy" | "greedy" = "lazy" | "greedy",
> {
  /** Marks the declaration; its value is the kind. */
  readonly [variadicBrand]: TKind;
  /** The schema of one element. */
  readonly schema: TSchema;
}

/** What an input socket may be declared with. */
export type InputSpec = z.ZodType | VariadicSpec;
/** Input socket declarations by socket name. */
export type InputSpecs = Readonly<Record<string, InputSpec>>;
/** Output socket declarations by socket name. */
export type OutputSpecs = Readonly<Record<string, z.ZodType>>;

/** A zod schema check that also works for schemas made by another copy of zod 4. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    "_zod" in value &&
    typeof (value as { _zod: unknown })._zod === "object"
  );
}

/** True when `value` was made by {@link variadic} or {@link greedyVariadic}. */
export function isVariadicSpec(value: unknown): value is VariadicSpec {
  return typeof value === "object" && value !== null && variadicBrand in value;
}

function makeVariadic<TSchema extends z.ZodType, TKind extends "lazy" | "greedy">(
  helper: string,
  kind: TKind,
  schema: TSchema,
): VariadicSpec<TSchema, TKind> {
  if (isVariadicSpec(schema)) {
    throw new ComponentError(
      `${helper}: the element schema is itself variadic. A variadic socket collects single values; declare ${helper}(elementSchema) once.`,
    );
  }
  if (!isZodSchema(schema)) {
    throw new ComponentError(
      `${helper}: expected a zod schema for one element, got ${describeValue(schema)}. Write ${helper}(z.string()), for example.`,
    );
  }
  return Object.freeze({ [variadicBrand]: kind, schema });
}

/**
 * A lazy variadic input: collects one value per sender and runs once all senders have run.
 * `run` receives an array. Put a default on the element schema to make the socket optional
 * (`variadic(z.string().default("x"))` arrives as `["x"]` when nothing was sent).
 *
 * @param schema - the schema of one element
 * @example
 * ```ts
 * inputs: { documents: variadic(z.array(documentSchema)) }
 * ```
 */
export function variadic<TSchema extends z.ZodType>(schema: TSchema): VariadicSpec<TSchema, "lazy"> {
  return makeVariadic("variadic", "lazy", schema);
}

/**
 * A greedy variadic input: the component runs as soon as one value arrives and receives `[value]`.
 * This is how `BranchJoiner` works as the entry of a loop.
 *
 * @param schema - the schema of one element
 */
export function greedyVariadic<TSchema extends z.ZodType>(schema: TSchema): VariadicSpec<TSchema, "greedy"> {
  return makeVariadic("greedyVariadic", "greedy", schema);
}

/** The description of one input socket of a component instance. */
export interface InputSocket {
  /** The socket's name (a wire name, snake_case). */
  readonly name: string;
  /** The schema of the value; for variadic sockets, of one element. */
  readonly schema: z.ZodType;
  /** How the socket collects values. */
  readonly variadic: VariadicKind;
  /** True unless the schema is optional or has a default. */
  readonly mandatory: boolean;
  /** True when the schema (for variadic sockets, the element schema) has a default. */
  readonly hasDefault: boolean;
  /** A fresh copy of the value `run` receives when nothing arrives: the default, `[default]` for variadic sockets, or `undefined`. */
  defaultValue(): unknown;
}

/** The description of one output socket of a component instance. */
export interface OutputSocket {
  /** The socket's name. */
  readonly name: string;
  /** The schema of the value. */
  readonly schema: z.ZodType;
}

/** True when the schema accepts a missing value (it is optional or has a default). */
export function isOptionalSchema(schema: z.ZodType): boolean {
  const optin = (schema._zod as { optin?: string }).optin;
  return optin === "optional" || optin === "defaulted";
}

function hasDefaultValue(schema: z.ZodType): boolean {
  return (schema._zod as { optin?: string }).optin === "defaulted";
}

/** Builds the input socket description for one declaration. */
export function describeInputSocket(owner: string, name: string, spec: unknown): InputSocket {
  if (isReservedName(name)) {
    throw new ComponentError(`${owner}: ${reservedNameMessage(name, "an input socket name")}`, {
      socket: name,
    });
  }
  if (isVariadicSpec(spec)) {
    const element = spec.schema;
    const kind = spec[variadicBrand];
    const optional = isOptionalSchema(element);
    const withDefault = hasDefaultValue(element);
    return Object.freeze({
      name,
      schema: element,
      variadic: kind,
      mandatory: !optional,
      hasDefault: withDefault,
      defaultValue: () => (withDefault ? [element.parse(undefined)] : optional ? [] : undefined),
    });
  }
  if (!isZodSchema(spec)) {
    throw new ComponentError(
      `${owner}: input socket "${excerpt(name)}" must be declared with a zod schema, variadic(schema) or greedyVariadic(schema); got ${describeValue(spec)}.`,
      { socket: name },
    );
  }
  const optional = isOptionalSchema(spec);
  const withDefault = hasDefaultValue(spec);
  return Object.freeze({
    name,
    schema: spec,
    variadic: "none",
    mandatory: !optional,
    hasDefault: withDefault,
    defaultValue: () => (withDefault ? spec.parse(undefined) : undefined),
  });
}

/** Builds the output socket description for one declaration. */
export function describeOutputSocket(owner: string, name: string, spec: unknown): OutputSocket {
  if (isReservedName(name)) {
    throw new ComponentError(`${owner}: ${reservedNameMessage(name, "an output socket name")}`, {
      socket: name,
    });
  }
  if (isVariadicSpec(spec)) {
    throw new ComponentError(
      `${owner}: output socket "${excerpt(name)}" is declared variadic. variadic() and greedyVariadic() are for inputs only; declare the output with its plain schema (an array schema for lists).`,
      { socket: name },
    );
  }
  if (!isZodSchema(spec)) {
    throw new ComponentError(
      `${owner}: output socket "${excerpt(name)}" must be declared with a zod schema; got ${describeValue(spec)}.`,
      { socket: name },
    );
  }
  return Object.freeze({ name, schema: spec });
}

/** Describes every declaration of a socket map; rejects empty names and non-objects. */
export function describeSockets<T>(
  owner: string,
  direction: "input" | "output",
  specs: unknown,
  describe: (owner: string, name: string, spec: unknown) => T,
): Readonly<Record<string, T>> {
  if (typeof specs !== "object" || specs === null || Array.isArray(specs)) {
    throw new ComponentError(
      `${owner}: ${direction}s must be an object mapping socket names to schemas; got ${describeValue(specs)}.`,
    );
  }
  const sockets: Record<string, T> = Object.create(null);
  for (const [name, spec] of Object.entries(specs)) {
    if (name.trim() === "") {
      throw new ComponentError(`${owner}: ${direction} socket names must not be empty.`);
    }
    sockets[name] = describe(owner, name, spec);
  }
  return Object.freeze(sockets);
}

/** A short description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return "an object that is not a zod schema";
  return `${typeof value} ${quoteExcerpt(value)}`;
}
