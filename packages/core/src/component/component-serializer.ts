/**
 * The serializer contract: how a component writes its params as JSON `init_parameters` and reads them
 * back, with contexts that serialize nested components and resolve functions through a registry.
 */

import type { Issue } from "../errors/errors.js";
import type { AnyComponent } from "./contract.js";
import type { Registry } from "./registry.js";

/** A component as written in a document: its registered type and its JSON init parameters. */
export interface ComponentDocument {
  /** The registered type name, e.g. `"example.AddFixedValue"`. */
  readonly type: string;
  /** The params as JSON values (secrets as env-var references, functions as registered names). */
  readonly init_parameters: Record<string, unknown>;
}

/**
 * What {@link ComponentSerializer.toInitParameters} receives: the registry and helpers that write nested
 * components and functions with correct error paths.
 */
export interface SerializeContext {
  /** The registry functions are looked up in. */
  readonly registry: Registry;
  /** The path of this component's `init_parameters`, e.g. `["components", "agent", "init_parameters"]`. */
  readonly path: readonly (string | number)[];
  /**
   * Writes a nested component (a chat generator, a tool's component) as `{ type, init_parameters }`.
   *
   * @param component - the nested instance
   * @param pathSuffix - where it sits under {@link SerializeContext.path}, e.g. `"chatGenerator"` or `["tools", 0]`
   * @returns the document; when it cannot be written, a placeholder (the problems are recorded and
   *   `toJSON` fails after the serializer returns, listing every problem of every component)
   */
  serializeComponent(
    component: AnyComponent,
    pathSuffix: string | number | readonly (string | number)[],
  ): ComponentDocument;
  /**
   * The registered name of a function (a tool function, hook, handler).
   *
   * @param fn - the function
   * @param pathSuffix - where it sits under {@link SerializeContext.path}
   * @returns the name; when it is not registered, `""` (a problem saying how to
   *   `registry.registerFunction(name, fn)` is recorded and `toJSON` fails after the serializer returns)
   */
  functionName(
    fn: (...args: any[]) => unknown,
    pathSuffix: string | number | readonly (string | number)[],
  ): string;
  /**
   * Checks that a value is JSON data (writing secrets as env-var references) and returns a copy.
   *
   * @param value - the value
   * @param pathSuffix - where it sits under {@link SerializeContext.path}
   * @returns the copy; `null` when the value is not JSON data (each non-JSON value is recorded with its
   *   path and `toJSON` fails after the serializer returns)
   */
  serializeValue(value: unknown, pathSuffix: string | number | readonly (string | number)[]): unknown;
}

/**
 * What {@link ComponentSerializer.fromInitParameters} receives. Problems are collected in `issues`
 * (the loader reports them all at once) instead of being thrown.
 */
export interface DeserializeContext {
  /** The registry nested types and functions are resolved in (never imports or `eval`). */
  readonly registry: Registry;
  /** The path of this component's `init_parameters`. */
  readonly path: readonly (string | number)[];
  /**
   * Loads a nested component document; records problems in {@link DeserializeContext.issues}.
   *
   * @param doc - the nested `{ type, init_parameters }`
   * @param pathSuffix - where it sits under {@link DeserializeContext.path}
   * @returns the instance, or `undefined` when it could not be loaded (the problems are recorded)
   */
  deserializeComponent(
    doc: unknown,
    pathSuffix: string | number | readonly (string | number)[],
  ): AnyComponent | undefined;
  /**
   * Resolves a registered function name; records a problem when the name is unknown or not a string.
   *
   * @param name - the name found in the document
   * @param pathSuffix - where it sits under {@link DeserializeContext.path}
   * @returns the function, or `undefined` when it is not registered (the problem is recorded)
   */
  resolveFunction(
    name: unknown,
    pathSuffix: string | number | readonly (string | number)[],
  ): ((...args: any[]) => unknown) | undefined;
  /** Every problem found so far, with full paths; add yours here rather than throwing. */
  readonly issues: Issue[];
}

/** Turns params into JSON `init_parameters` and back; components with nested components or functions supply one. */
export interface ComponentSerializer<TParams = any> {
  /** Writes the params as JSON-compatible `init_parameters`. */
  toInitParameters(params: TParams, context: SerializeContext): Record<string, unknown>;
  /** Reads `init_parameters` back into the raw params the constructor validates. */
  fromInitParameters(initParameters: Record<string, unknown>, context: DeserializeContext): unknown;
}
