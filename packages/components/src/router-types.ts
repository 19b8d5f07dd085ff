import type { Component, ComponentDefinition } from "@junction/core";
import type { z } from "zod";
import type { SocketTypeInput } from "./socket-type.js";

/**
 * Type-level machinery of `ConditionalRouter`: its output sockets from the routes' `outputName` /
 * `outputType`, and its input sockets from `variableTypes` when given (otherwise any variable name,
 * of any type — the expressions are not parsed at compile time).
 */

/** One route as `new ConditionalRouter(...)` accepts it (lists may be read-only). */
export interface RouteOptions {
  /** A CEL expression that evaluates to a `bool`. */
  readonly condition: string;
  /** A CEL expression per output (or, with `outputPassthrough`, an input name). */
  readonly output: string | readonly string[];
  /** The output socket name(s). */
  readonly outputName: string | readonly string[];
  /** The output socket type(s): zod schemas, or JSON Schema. */
  readonly outputType: SocketTypeInput | readonly SocketTypeInput[];
  /** When true, `output` names inputs whose values are forwarded untouched. */
  readonly outputPassthrough?: boolean | undefined;
}

/** What `new ConditionalRouter(...)` accepts. */
export interface ConditionalRouterOptions<
  TRoutes extends readonly RouteOptions[] = readonly RouteOptions[],
  TVariables extends Readonly<Record<string, z.ZodType>> = Readonly<Record<string, z.ZodType>>,
  TOptional extends string = string,
> {
  /** The routes, tried in order; the first whose condition is true fires. */
  readonly routes: TRoutes;
  /** Variables that may be left unconnected (`null` in expressions when nothing arrives). */
  readonly optionalVariables?: readonly TOptional[] | undefined;
  /** The type of every variable the routes use; types the input sockets. */
  readonly variableTypes?: TVariables | undefined;
  /** Check each output value against its `outputType` and fail the run on a mismatch. */
  readonly validateOutputType?: boolean | undefined;
  /** Evaluation budget of the expressions: `{ maxCost, maxSteps }` (defaults 1,000,000 each). */
  readonly limits?:
    | { readonly maxCost?: number | undefined; readonly maxSteps?: number | undefined }
    | undefined;
}

type SchemaOf<T> = T extends z.ZodType ? T : z.ZodType;

type Zip<TNames, TTypes> = TNames extends readonly []
  ? never
  : TNames extends readonly [infer N extends string, ...infer TNamesRest]
    ? TTypes extends readonly [infer T, ...infer TTypesRest]
      ? [N, SchemaOf<T>] | Zip<TNamesRest, TTypesRest>
      : [N, z.ZodType] | Zip<TNamesRest, []>
    : TNames extends readonly (infer N extends string)[]
      ? [N, z.ZodType]
      : never;

type RouteOutputs<TRoute> = TRoute extends {
  readonly outputName: infer TName;
  readonly outputType: infer TType;
}
  ? TName extends string
    ? [TName, SchemaOf<TType>]
    : Zip<TName, TType>
  : never;

type OutputPairs<TRoutes extends readonly unknown[]> = RouteOutputs<TRoutes[number]>;

/**
 * The router's output sockets: one per `outputName`, typed by its `outputType` (a union when several
 * routes share a name).
 */
export type RouterOutputSpecs<TRoutes extends readonly unknown[]> = string extends OutputPairs<TRoutes>[0]
  ? { readonly [name: string]: z.ZodType }
  : { readonly [K in OutputPairs<TRoutes>[0]]: Extract<OutputPairs<TRoutes>, [K, unknown]>[1] };

/**
 * The router's input sockets: the declared `variableTypes` (optional when listed in
 * `optionalVariables`), or any name when no types are declared.
 */
export type RouterInputSpecs<TVariables, TOptional extends string> = [TVariables] extends [never]
  ? { readonly [variable: string]: z.ZodType }
  : string extends keyof TVariables
    ? { readonly [variable: string]: z.ZodType }
    : {
        readonly [K in keyof TVariables & string]: K extends TOptional
          ? z.ZodOptional<SchemaOf<TVariables[K]>>
          : SchemaOf<TVariables[K]>;
      };

/** The validated params of a router. */
export interface RouterParams {
  readonly routes: readonly unknown[];
  readonly optionalVariables: readonly string[];
  readonly validateOutputType: boolean;
  readonly variableTypes?: Readonly<Record<string, z.ZodType>> | undefined;
}

/**
 * A `ConditionalRouter` instance; the type arguments are the routes, the declared variable types and
 * the optional variables (the defaults accept every router).
 */
export type ConditionalRouterInstance<
  TRoutes extends readonly unknown[] = readonly RouteOptions[],
  TVariables = never,
  TOptional extends string = never,
> = Component<RouterInputSpecs<TVariables, TOptional>, RouterOutputSpecs<TRoutes>, RouterParams>;

/** The `ConditionalRouter` class: `new ConditionalRouter(options)` infers its sockets from the options. */
export interface ConditionalRouterClass {
  /**
   * Creates a router; throws `ComponentError` listing every invalid route.
   *
   * @param options - routes, optional variables, variable types, output checking
   */
  new <
    const TRoutes extends readonly RouteOptions[],
    const TVariables extends Readonly<Record<string, z.ZodType>> = never,
    const TOptional extends string = never,
  >(
    options: ConditionalRouterOptions<TRoutes, TVariables, TOptional>,
  ): ConditionalRouterInstance<TRoutes, TVariables, TOptional>;
  /** The registered type name, `"junction.ConditionalRouter"`. */
  readonly type: string;
  /** The definition the class was made from. */
  readonly definition: ComponentDefinition<any, any, any, any, any>;
}
