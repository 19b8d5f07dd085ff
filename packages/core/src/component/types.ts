import type { z } from "zod";
import type { InputSpecs, OutputSpecs, VariadicSpec } from "../sockets/sockets.js";

/** Type-level machinery shared by the component contract and the pipeline builder. */

/** A value or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * True for a promise or any other thenable: what must be awaited. Code on a hot path awaits a
 * {@link MaybePromise} only when this is true — `await` on a plain value still costs a microtask.
 */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** Flattens an intersection for readable hovers. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

type IsAny<T> = 0 extends 1 & T ? true : false;

/** True when the socket declared with `TSpec` may be left out of a call. */
export type IsOptionalSpec<TSpec> =
  TSpec extends VariadicSpec<infer TElement> ? IsOptionalSchema<TElement> : IsOptionalSchema<TSpec>;

type IsOptionalSchema<TSchema> = TSchema extends { _zod: { optin?: infer TOptin } }
  ? [TOptin] extends ["optional" | "defaulted"]
    ? true
    : false
  : false;

/** The value `run` receives on a socket declared with `TSpec` (variadic sockets as arrays). */
export type InferSocketValue<TSpec> =
  TSpec extends VariadicSpec<infer TElement>
    ? z.output<TElement>[]
    : TSpec extends z.ZodType
      ? z.output<TSpec>
      : never;

/** The value a caller passes on a socket declared with `TSpec`. */
export type InferSocketInput<TSpec> =
  TSpec extends VariadicSpec<infer TElement>
    ? z.input<TElement>[]
    : TSpec extends z.ZodType
      ? z.input<TSpec>
      : never;

/** `run`'s first argument: every socket present; optional ones may be `undefined`. */
export type InferInputs<TInputs extends InputSpecs> = Simplify<{
  -readonly [K in keyof TInputs]: InferSocketValue<TInputs[K]>;
}>;

/** What `run` may return: any subset of the declared outputs (an omitted key sends nothing). */
export type InferOutputs<TOutputs extends OutputSpecs> = Simplify<{
  -readonly [K in keyof TOutputs]?: z.input<TOutputs[K]>;
}>;

/** The inputs of a direct call: mandatory sockets required, optional ones may be left out. */
export type RunInputs<TInputs extends InputSpecs> = Simplify<
  {
    -readonly [K in keyof TInputs as IsOptionalSpec<TInputs[K]> extends true ? never : K]: InferSocketInput<
      TInputs[K]
    >;
  } & {
    -readonly [K in keyof TInputs as IsOptionalSpec<TInputs[K]> extends true ? K : never]?: InferSocketInput<
      TInputs[K]
    >;
  }
>;

/** The params a constructor accepts: optional when every field may be left out. */
export type ConstructorArgs<TParamsInput> =
  IsAny<TParamsInput> extends true
    ? [params?: any]
    : Record<string, never> extends TParamsInput
      ? [params?: TParamsInput]
      : [params: TParamsInput];

/**
 * Rejects keys of `TReturn` that are not declared outputs (a compile error at `run`'s return), since a
 * contextually typed function's inferred return type escapes excess-property checks.
 */
export type CheckedOutputs<TReturn, TOutputs extends OutputSpecs> = InferOutputs<TOutputs> & {
  [K in Exclude<keyof TReturn, keyof TOutputs>]: never;
};
