import type { Component } from "../component/contract.js";
import type { InferSocketInput, IsOptionalSpec, Simplify } from "../component/types.js";
import type {
  ChunkEvent,
  ComponentEndEvent,
  ComponentStartEvent,
  InterruptEvent,
  NeverRanReport,
} from "../run/events.js";
import type { VariadicSpec } from "../sockets/sockets.js";
import type { ComponentMap } from "./builder-types.js";
import type { PipelineRunOptions } from "./options.js";
import type { Pipeline } from "./pipeline.js";

/**
 * Type-level machinery of a pipeline built with `Pipeline.builder()`: `run`'s nested inputs from the
 * sockets nothing feeds, and its result from the outputs nothing consumes plus `includeOutputsFrom`.
 *
 * The builder records each connection as the receiver socket it feeds (`TFed`, `"component.socket"`)
 * and the sender socket it consumes (`TConsumed`). A connection that names only a component is
 * resolved the way `connect` resolves it when the answer is certain (one socket, or the same socket
 * name on the other side); otherwise every input socket of that component counts as fed (so none is
 * demanded of `run`) and no output counts as consumed (so the result may list an output that stays
 * empty — every result key is optional anyway).
 */

type InputSpecsOf<C> = C extends Component<infer TInputs, any, any, any> ? TInputs : never;
type OutputSpecsOf<C> = C extends Component<any, infer TOutputs, any, any> ? TOutputs : never;
type ResultOf<C> = C extends Component<any, any, any, infer TResult> ? TResult : never;

type IsUnion<T, TAll = T> = T extends unknown ? ([Exclude<TAll, T>] extends [never] ? false : true) : never;
/** `T` when it is exactly one name, else `never`. */
type Single<T> = [T] extends [never] ? never : true extends IsUnion<T> ? never : T;

type InputNames<TMap extends ComponentMap, N> = N extends keyof TMap
  ? keyof InputSpecsOf<TMap[N]> & string
  : never;
type OutputNames<TMap extends ComponentMap, N> = N extends keyof TMap
  ? keyof OutputSpecsOf<TMap[N]> & string
  : never;
type SocketOf<A extends string> = A extends `${string}.${infer S}` ? S : never;

/** The receiver sockets a `connect(S, R)` feeds, as `"component.socket"` addresses. */
export type FedBy<
  TMap extends ComponentMap,
  S extends string,
  R extends string,
> = R extends `${string}.${string}`
  ? R
  : [Single<InputNames<TMap, R>>] extends [never]
    ? SocketOf<S> extends InputNames<TMap, R>
      ? [SocketOf<S>] extends [never]
        ? `${R}.${InputNames<TMap, R>}`
        : `${R}.${SocketOf<S>}`
      : `${R}.${InputNames<TMap, R>}`
    : `${R}.${Single<InputNames<TMap, R>>}`;

/** The sender sockets a `connect(S, R)` consumes, as `"component.socket"` addresses (certain ones only). */
export type ConsumedBy<
  TMap extends ComponentMap,
  S extends string,
  R extends string,
> = S extends `${string}.${string}`
  ? S
  : [Single<OutputNames<TMap, S>>] extends [never]
    ? [SocketOf<R>] extends [never]
      ? never
      : SocketOf<R> extends OutputNames<TMap, S>
        ? `${S}.${SocketOf<R>}`
        : never
    : `${S}.${Single<OutputNames<TMap, S>>}`;

type IsVariadic<TSpec> = TSpec extends VariadicSpec ? true : false;

/** The open input sockets of component `N`: nothing feeds them, or they are variadic (they take run input besides their senders). */
type OpenInputs<TMap extends ComponentMap, TFed extends string, N extends keyof TMap & string> = {
  [S in InputNames<TMap, N> as `${N}.${S}` extends TFed
    ? IsVariadic<InputSpecsOf<TMap[N]>[S]> extends true
      ? S
      : never
    : S]: InputSpecsOf<TMap[N]>[S];
};

type IsMandatoryOpen<TSpecs, S extends keyof TSpecs, TFedHere extends boolean> = TFedHere extends true
  ? false
  : IsOptionalSpec<TSpecs[S]> extends true
    ? false
    : true;

type ComponentInputs<
  TMap extends ComponentMap,
  TFed extends string,
  N extends keyof TMap & string,
> = Simplify<
  {
    [S in keyof OpenInputs<TMap, TFed, N> & string as IsMandatoryOpen<
      OpenInputs<TMap, TFed, N>,
      S,
      `${N}.${S}` extends TFed ? true : false
    > extends true
      ? S
      : never]: InferSocketInput<OpenInputs<TMap, TFed, N>[S]>;
  } & {
    [S in keyof OpenInputs<TMap, TFed, N> & string as IsMandatoryOpen<
      OpenInputs<TMap, TFed, N>,
      S,
      `${N}.${S}` extends TFed ? true : false
    > extends true
      ? never
      : S]?: InferSocketInput<OpenInputs<TMap, TFed, N>[S]>;
  }
>;

type HasRequired<T> = {} extends T ? false : true;

/**
 * The nested inputs `run` takes: one entry per component with open input sockets, required when one
 * of them is mandatory; each entry lists the open sockets (mandatory ones required).
 */
export type PipelineRunInputs<TMap extends ComponentMap, TFed extends string = never> = Simplify<
  {
    [N in keyof TMap & string as keyof OpenInputs<TMap, TFed, N> extends never
      ? never
      : HasRequired<ComponentInputs<TMap, TFed, N>> extends true
        ? N
        : never]: ComponentInputs<TMap, TFed, N>;
  } & {
    [N in keyof TMap & string as keyof OpenInputs<TMap, TFed, N> extends never
      ? never
      : HasRequired<ComponentInputs<TMap, TFed, N>> extends true
        ? never
        : N]?: ComponentInputs<TMap, TFed, N>;
  }
>;

type ReportedSockets<
  TMap extends ComponentMap,
  TConsumed extends string,
  TInclude extends string,
  N extends keyof TMap & string,
> = N extends TInclude
  ? keyof ResultOf<TMap[N]> & string
  : Exclude<keyof ResultOf<TMap[N]> & string, TConsumed extends `${N}.${infer S}` ? S : never>;

/**
 * What `run` resolves to: for each component, the outputs nothing consumes (every output of an
 * `includeOutputsFrom` component), typed by what the component's run returns. Every component entry
 * is optional — a component behind an un-taken branch never runs — and so are outputs a component
 * may leave empty.
 */
export type PipelineResult<
  TMap extends ComponentMap,
  TConsumed extends string = never,
  TInclude extends string = never,
> = Simplify<{
  [N in keyof TMap & string as [ReportedSockets<TMap, TConsumed, TInclude, N>] extends [never]
    ? never
    : N]?: Simplify<Pick<ResultOf<TMap[N]>, ReportedSockets<TMap, TConsumed, TInclude, N>>>;
}>;

/** Options of a typed pipeline's `run` and `stream`: `includeOutputsFrom` names components of the pipeline. */
export interface TypedRunOptions<TInclude extends string>
  extends Omit<PipelineRunOptions, "includeOutputsFrom" | "inputsFormat"> {
  /** Components whose every output is reported, even outputs connected to other components. */
  readonly includeOutputsFrom?: readonly TInclude[] | undefined;
}

/** The last event of a typed pipeline's `stream`, with typed outputs. */
export interface TypedRunEndEvent<TResult> {
  readonly type: "run_end";
  /** `"completed"`, or `"interrupted"` when the run paused at interrupts (see the `interrupt` event). */
  readonly status: "completed" | "interrupted";
  /** The same object `run` resolves to (the outputs so far when interrupted). */
  readonly outputs: TResult;
  /** The components that never ran, with reasons; empty when interrupted. */
  readonly neverRan: readonly NeverRanReport[];
  /** The run's id when it was interrupted or kept in a store. */
  readonly runId?: string | undefined;
}

/** A component-named event of a typed pipeline's `stream` (`componentName` is one of its components). */
type Named<TEvent extends { readonly componentName: string }, TName extends string> = Omit<
  TEvent,
  "componentName"
> & { readonly componentName: TName };

/**
 * An event of a typed pipeline's `stream`. `chunk` events carry what components emit as `unknown`
 * (core knows no LLM types); narrow a chat generator's chunk with `isStreamingChunk` from
 * `@junction/llm`.
 */
export type TypedPipelineEvent<TName extends string, TResult> =
  | Named<ComponentStartEvent, TName>
  | Named<ComponentEndEvent, TName>
  | Named<ChunkEvent, TName>
  | InterruptEvent
  | TypedRunEndEvent<TResult>;

declare const componentMapKey: unique symbol;

/**
 * A pipeline built with `Pipeline.builder()`: a plain {@link Pipeline} whose `run` and `stream` are
 * typed from the components and connections the builder recorded. A misspelled component or socket in
 * the inputs, or a missing mandatory input, is a compile error; the result needs no casts.
 */
export interface TypedPipeline<
  TMap extends ComponentMap,
  TFed extends string = never,
  TConsumed extends string = never,
> extends Pipeline {
  /** Never set at run time: carries the component map (for `SuperComponent`'s socket types). */
  readonly [componentMapKey]?: TMap;
  /**
   * Runs the pipeline with nested inputs (`{ component: { socket: value } }`). For the flat form, run
   * it as a plain `Pipeline` (`(pipeline as Pipeline).run({ socket: value })`).
   *
   * @param inputs - a value for every mandatory open socket
   * @param options - `includeOutputsFrom`, `concurrency`, `signal`, `validate`, `tracer`, `logger`
   */
  run<const TInclude extends keyof TMap & string = never>(
    inputs: PipelineRunInputs<TMap, TFed>,
    options?: TypedRunOptions<TInclude>,
  ): Promise<PipelineResult<TMap, TConsumed, TInclude>>;
  /**
   * Runs the pipeline and yields what happens (see {@link Pipeline.stream}), with typed names and outputs.
   *
   * @param inputs - as for `run`
   * @param options - as for `run`
   */
  stream<const TInclude extends keyof TMap & string = never>(
    inputs: PipelineRunInputs<TMap, TFed>,
    options?: TypedRunOptions<TInclude>,
  ): AsyncIterable<TypedPipelineEvent<keyof TMap & string, PipelineResult<TMap, TConsumed, TInclude>>>;
}
