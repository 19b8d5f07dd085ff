import type { z } from "zod";
import type { Logger } from "../logger.js";
import type { Durable } from "../run/durable.js";
import type { Decisions, InterruptOptions, ResumeContext } from "../run/interrupt.js";
import type { NestedEvent } from "../run/nested.js";
import type { DurableRunOptions, ResumeOptions } from "../run/options.js";
import type { RunSnapshot } from "../run/run-snapshot.js";
import type { InputSocket, InputSpecs, OutputSocket, OutputSpecs } from "../sockets/sockets.js";
import type { Span, Tracer } from "../tracing.js";
import type { ComponentSerializer } from "./component-serializer.js";
import type { ConstructorArgs, InferInputs, InferOutputs, MaybePromise, RunInputs } from "./types.js";

/** The component contract: what a definition declares, what `run` receives, what an instance offers. */

/** What every `run` receives besides its inputs. */
export interface RunContext<TParams = unknown, TResources = unknown> {
  /** The component's validated params. */
  readonly params: TParams;
  /** What `setup` returned for this instance (`undefined` without `setup`). */
  readonly resources: TResources;
  /** Aborts the run; pass it on to every async call. */
  readonly signal: AbortSignal | undefined;
  /** The component's name in its pipeline; `undefined` when run directly. */
  readonly componentName: string | undefined;
  /** The tracer of the run (a no-op tracer by default). */
  readonly tracer: Tracer;
  /** The span of this component run, to parent spans the component starts. */
  readonly span: Span | undefined;
  /** Where the component reports warnings. */
  readonly logger: Logger;
  /**
   * Emits a streaming event (for example a `StreamingChunk`). Inside `Pipeline.stream` it surfaces as a
   * `chunk` event; elsewhere it is dropped unless the caller passed `onEmit`.
   */
  readonly emit: (payload: unknown) => MaybePromise<void>;
  /**
   * Stops the run at an interrupt: a person must decide before it continues. Throws; the pipeline (or a
   * direct `component.run`) saves a snapshot and the run rejects with a `RunInterruptedError`. On resume
   * the component runs again with the same inputs and `context.resume` set; pass `state` (JSON) to
   * continue where it stopped instead of starting over.
   *
   * @example
   * ```ts
   * run: ({ order }, context) => {
   *   if (context.resume === undefined) context.interrupt({ payload: { question: `Ship ${order}?` } });
   *   return { shipped: context.resume.response === "yes" };
   * }
   * ```
   */
  readonly interrupt: (options?: InterruptOptions) => never;
  /** Set when the component runs again after an interrupt: the decisions and the state it saved. */
  readonly resume: ResumeContext | undefined;
  /**
   * How deeply this run is nested in composite components: 0 for a component of a top-level run, one
   * more inside each `SuperComponent` and each agent run as a tool (`AgentTool`). Composite components
   * pass `depth + 1` on, which bounds runaway nesting.
   */
  readonly depth: number;
  /**
   * Durable steps, for a component that records its own (its definition sets `ownsDurableSteps`, like
   * the Agent); `undefined` in-process and for every other component, whose whole run is one step.
   */
  readonly durable: Durable | undefined;
  /**
   * The output sockets the pipeline connects to other components (their values are consumed there);
   * `undefined` when run directly. A component may adjust what it reports: the Agent logs reaching
   * `maxAgentSteps` at `info` instead of `warn` when `exit_reason` is consumed (a route handles it).
   */
  readonly consumedOutputs?: ReadonlySet<string> | undefined;
}

/** What `warmUp` and `close` receive. */
export interface LifecycleContext<TParams = unknown, TResources = unknown> {
  /** The component's validated params. */
  readonly params: TParams;
  /** What `setup` returned for this instance. */
  readonly resources: TResources;
}

/** Options of a direct `component.run(inputs, options)` call. */
export interface ComponentRunOptions extends DurableRunOptions {
  /** Aborts the run. */
  readonly signal?: AbortSignal | undefined;
  /** The tracer to record spans with. */
  readonly tracer?: Tracer | undefined;
  /** A parent span. */
  readonly span?: Span | undefined;
  /** The logger (default: the process-wide default logger). */
  readonly logger?: Logger | undefined;
  /** Receives what the component emits (streaming chunks). */
  readonly onEmit?: ((payload: unknown) => MaybePromise<void>) | undefined;
  /**
   * Receives the events of a nested run (a `SuperComponent`'s inner components: `component_start`,
   * `chunk`, `component_end`, with names prefixed `outer/inner` at each level) — for a caller that
   * wants to see inside, e.g. to add up the token usage of the generators it ran.
   */
  readonly onNestedEvent?: ((event: NestedEvent["event"]) => void) | undefined;
  /** A name to report the component under (errors, spans). */
  readonly componentName?: string | undefined;
  /** The nesting depth of the run (see {@link RunContext.depth}); default 0. */
  readonly depth?: number | undefined;
  /**
   * Durable steps (a Restate run, for example); reaches `run` only when the definition sets
   * `ownsDurableSteps`. Without it the component runs in-process.
   */
  readonly durable?: Durable | undefined;
}

/** Options of `component.resume(...)`. */
export interface ComponentResumeOptions extends ComponentRunOptions, ResumeOptions {
  /** Inputs to supply again: values the snapshot could not hold (callbacks), or replacements. */
  readonly inputs?: Readonly<Record<string, unknown>> | undefined;
}

/** The declaration passed to {@link defineComponent}. */
export interface ComponentDefinition<
  TParamsSchema extends z.ZodType,
  TInputs extends InputSpecs,
  TOutputs extends OutputSpecs,
  TResources,
  TReturn = InferOutputs<TOutputs>,
> {
  /** The registry name, e.g. `"example.AddFixedValue"`; used by serialization. Must be unique. */
  readonly type: string;
  /** A one-line description (used by `ComponentTool` and documentation). */
  readonly description?: string;
  /** The init parameters' schema (JSON-serializable values unless a `serializer` is given). */
  readonly params?: TParamsSchema;
  /** Input sockets, or a function of the params for sockets decided by configuration. */
  readonly inputs: TInputs | ((params: z.output<TParamsSchema>) => TInputs);
  /** Output sockets, or a function of the params. */
  readonly outputs: TOutputs | ((params: z.output<TParamsSchema>) => TOutputs);
  /** Builds per-instance resources (clients, compiled templates) once, at construction. Keep it cheap. */
  readonly setup?: (params: z.output<TParamsSchema>) => TResources;
  /** Does the work. Omitting an output key means "nothing on that socket". */
  readonly run: (
    inputs: InferInputs<TInputs>,
    context: RunContext<z.output<TParamsSchema>, TResources>,
  ) => MaybePromise<TReturn>;
  /** Called before the first run; must be idempotent (the instance calls it at most once until `close`). */
  readonly warmUp?: (context: LifecycleContext<z.output<TParamsSchema>, TResources>) => MaybePromise<void>;
  /** Releases resources. */
  readonly close?: (context: LifecycleContext<z.output<TParamsSchema>, TResources>) => MaybePromise<void>;
  /** Custom (de)serialization of the params; by default `init_parameters` are the params themselves. */
  readonly serializer?: ComponentSerializer<z.output<TParamsSchema>>;
  /**
   * True when `run` records its own durable steps through `context.durable` (the Agent records each
   * model call and tool call). On a durable run the engine then does not record the whole run as one
   * step, and runs the component on its own so the order of its steps never depends on timing.
   * Default false: the whole run is one step, and `context.durable` is `undefined`.
   */
  readonly ownsDurableSteps?: boolean;
  /**
   * Checks the decisions a resume brings against the component's paused state, before the run is
   * claimed: throw a `RunResumeError` (e.g. `RESUME_INVALID_DECISION` for edited tool arguments that do
   * not fit the tool) and nothing is claimed — the run stays interrupted and can be resumed with better
   * decisions. Called for a directly run component and for each paused component of a pipeline.
   */
  readonly checkResume?: (
    resume: ResumeContext,
    context: LifecycleContext<z.output<TParamsSchema>, TResources>,
  ) => void;
}

/**
 * A component instance: what pipelines hold.
 *
 * `TResult` is what a run resolves to: by default every declared output may be missing (an omitted key
 * sends nothing). A component whose run always sets some outputs (the Agent's `exit_reason`) narrows it.
 */
export interface Component<
  TInputs extends InputSpecs = InputSpecs,
  TOutputs extends OutputSpecs = OutputSpecs,
  TParams = unknown,
  TResult = InferOutputs<TOutputs>,
> {
  /** The registered type name. */
  readonly type: string;
  /** The description from the definition. */
  readonly description: string | undefined;
  /** The validated params. */
  readonly params: TParams;
  /** The input sockets by name. */
  readonly inputSockets: Readonly<Record<keyof TInputs & string, InputSocket>>;
  /** The output sockets by name. */
  readonly outputSockets: Readonly<Record<keyof TOutputs & string, OutputSocket>>;
  /**
   * Runs the component directly (outside a pipeline): validates the inputs against the socket schemas,
   * fills defaults, warms up on first use, and returns the outputs.
   */
  run(inputs: RunInputs<TInputs>, options?: ComponentRunOptions): Promise<TResult>;
  /**
   * Continues a direct run that stopped at an interrupt, given a decision for every pending interrupt.
   * Fails closed (nothing runs) on a missing or unknown decision, changed arguments, a changed definition,
   * or a run someone else already resumed.
   *
   * @param runIdOrSnapshot - the run id (with `{ store }`) or the snapshot from the `RunInterruptedError`
   * @param decisions - `{ [interruptId]: { action: "approve" | "edit" | "reject" | "respond", ... } }`
   * @param options - `store`, `allowDefinitionChange`, `inputs` to supply again, and the run options
   */
  resume(
    runIdOrSnapshot: string | RunSnapshot,
    decisions: Decisions,
    options?: ComponentResumeOptions,
  ): Promise<TResult>;
  /** Warms up once (idempotent). */
  warmUp(): Promise<void>;
  /** Calls the definition's `close` and allows a later warm-up again. */
  close(): Promise<void>;
}

/** A component instance of any shape. */
export type AnyComponent = Component<any, any, any, any>;

/** The class `defineComponent` returns. */
export interface ComponentClass<
  TParamsSchema extends z.ZodType = z.ZodType,
  TInputs extends InputSpecs = InputSpecs,
  TOutputs extends OutputSpecs = OutputSpecs,
  TResources = unknown,
> {
  /** Creates an instance; throws `ComponentError` listing every invalid param. */
  new (
    ...args: ConstructorArgs<z.input<TParamsSchema>>
  ): Component<TInputs, TOutputs, z.output<TParamsSchema>>;
  /** The registered type name. */
  readonly type: string;
  /** The definition the class was made from. */
  readonly definition: ComponentDefinition<TParamsSchema, TInputs, TOutputs, TResources, any>;
}

/** A component class of any shape. */
export type AnyComponentClass = ComponentClass<any, any, any, any>;

/** The params type of a component instance or class. */
export type InferParams<T> = T extends Component<any, any, infer P, any> ? P : never;

/** What running a component instance resolves to (its outputs object). */
export type InferResult<T> = T extends Component<any, any, any, infer R> ? R : never;
