import { z } from "zod";
import { pauseComponent, resumeComponent, runWithSteps } from "../durable/component-run.js";
import type { DurableRunOptions, ResumeOptions } from "../durable/run-recorder.js";
import { checkDurability } from "../durable/run-recorder.js";
import { ComponentError, formatIssues, type Issue } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { getDefaultLogger, type Logger } from "../logger.js";
import type { Durable } from "../run/durable.js";
import {
  ComponentInterrupt,
  type Decisions,
  type InterruptOptions,
  type ResumeContext,
  throwInterrupt,
} from "../run/interrupt.js";
import { dropEmit, NestedEvent } from "../run/nested.js";
import type { RunSnapshot } from "../run/run-snapshot.js";
import {
  describeInputSocket,
  describeOutputSocket,
  describeSockets,
  type InputSocket,
  type InputSpecs,
  type OutputSocket,
  type OutputSpecs,
} from "../sockets/sockets.js";
import { noopTracer, type Span, type Tracer } from "../tracing.js";
import type { ComponentSerializer } from "./component-serializer.js";
import { defaultRegistry } from "./registry.js";
import type {
  CheckedOutputs,
  ConstructorArgs,
  InferInputs,
  InferOutputs,
  MaybePromise,
  RunInputs,
} from "./types.js";

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

const emptyParams = z.object({});

/** Every field of a {@link RunContext}, optional ones included (the engine must pass each one on). */
type EveryRunContextField = { [K in keyof RunContext]-?: RunContext[K] | undefined };

/** Internal slots the engine uses; not part of the public API. */
export const componentInternals = Symbol.for("junction.component.internals");

/** What the engine reads from an instance. */
export interface ComponentInternals {
  readonly definition: ComponentDefinition<any, any, any, any, any>;
  readonly resources: unknown;
  /** Runs `run` with prepared inputs (defaults filled, not validated). */
  invoke(
    inputs: Record<string, unknown>,
    context: Omit<RunContext, "params" | "resources">,
  ): Promise<unknown>;
  /** Validates and completes the inputs of a direct call. */
  prepare(inputs: Record<string, unknown>, componentName: string | undefined): Record<string, unknown>;
  /** The definition's `checkResume`, bound to this instance (a no-op without one). */
  checkResume(resume: ResumeContext): void;
  /** The pipeline that holds the instance, if any. */
  owner: { readonly pipeline: object; readonly name: string } | undefined;
}

/** Reads an instance's internal slots. */
export function getComponentInternals(component: AnyComponent): ComponentInternals {
  const internals = (component as unknown as { [componentInternals]?: ComponentInternals })[
    componentInternals
  ];
  if (internals === undefined) {
    throw new ComponentError(
      "Expected a component instance made by a defineComponent class; got an object without its internals.",
    );
  }
  return internals;
}

/** True when `value` is an instance of a `defineComponent` class. */
export function isComponent(value: unknown): value is AnyComponent {
  return typeof value === "object" && value !== null && componentInternals in value;
}

/** Converts zod issues into Junction issues under a path prefix. */
export function zodIssues(error: z.ZodError, prefix: readonly (string | number)[] = []): Issue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part))],
    message: issue.message,
  }));
}

/**
 * Declares a component: plain data plus a `run` function, no base class.
 *
 * TypeScript infers `run`'s argument from the input schemas (variadic sockets as arrays, optional
 * sockets possibly `undefined`) and checks its return against the output schemas (every key optional,
 * so routers can omit outputs). The class is registered in the default registry under `type`.
 *
 * @param definition - type name, params schema, sockets, `run` and optional lifecycle functions
 * @returns a class whose instances pipelines hold
 * @example
 * ```ts
 * const AddFixedValue = defineComponent({
 *   type: "example.AddFixedValue",
 *   params: z.object({ add: z.number().default(1) }),
 *   inputs: { value: z.number(), add: z.number().optional() },
 *   outputs: { result: z.number() },
 *   run: ({ value, add }, { params }) => ({ result: value + (add ?? params.add) }),
 * });
 * const adder = new AddFixedValue({ add: 2 });
 * ```
 */
export function defineComponent<
  TParamsSchema extends z.ZodType = z.ZodObject<{}, z.core.$strip>,
  TInputs extends InputSpecs = {},
  TOutputs extends OutputSpecs = {},
  TResources = undefined,
  TReturn extends CheckedOutputs<TReturn, TOutputs> = any,
>(
  definition: ComponentDefinition<TParamsSchema, TInputs, TOutputs, TResources, TReturn>,
): ComponentClass<TParamsSchema, TInputs, TOutputs, TResources> {
  const type = definition.type;
  if (typeof type !== "string" || type.trim() === "") {
    throw new ComponentError(
      'defineComponent: `type` must be a non-empty string such as "myapp.Summarizer".',
    );
  }
  const owner = `defineComponent("${excerpt(type)}")`;
  if (typeof definition.run !== "function") {
    throw new ComponentError(`${owner}: \`run\` must be a function.`, { componentType: type });
  }
  // Static socket declarations are checked now, at definition time.
  if (typeof definition.inputs !== "function")
    describeSockets(owner, "input", definition.inputs, describeInputSocket);
  if (typeof definition.outputs !== "function")
    describeSockets(owner, "output", definition.outputs, describeOutputSocket);
  const paramsSchema: z.ZodType = definition.params ?? emptyParams;

  class DefinedComponent implements Component<TInputs, TOutputs, z.output<TParamsSchema>> {
    static readonly type = type;
    static readonly definition = definition;

    readonly type = type;
    readonly description = definition.description;
    readonly params: z.output<TParamsSchema>;
    readonly inputSockets: Readonly<Record<keyof TInputs & string, InputSocket>>;
    readonly outputSockets: Readonly<Record<keyof TOutputs & string, OutputSocket>>;
    #warm: Promise<void> | undefined;
    /** True once warm-up finished: a run then starts without waiting a microtask for it. */
    #warmed = false;
    readonly [componentInternals]: ComponentInternals;

    constructor(...args: ConstructorArgs<z.input<TParamsSchema>>) {
      const parsed = paramsSchema.safeParse(args[0] ?? {});
      if (!parsed.success) {
        const issues = zodIssues(parsed.error, ["params"]);
        throw new ComponentError(
          `new ${type}(...): invalid params (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
          { componentType: type, issues, cause: parsed.error },
        );
      }
      const params = parsed.data as z.output<TParamsSchema>;
      this.params = params;
      const inputSpecs =
        typeof definition.inputs === "function" ? definition.inputs(params) : definition.inputs;
      const outputSpecs =
        typeof definition.outputs === "function" ? definition.outputs(params) : definition.outputs;
      this.inputSockets = describeSockets(
        `new ${type}(...)`,
        "input",
        inputSpecs,
        describeInputSocket,
      ) as Readonly<Record<keyof TInputs & string, InputSocket>>;
      this.outputSockets = describeSockets(
        `new ${type}(...)`,
        "output",
        outputSpecs,
        describeOutputSocket,
      ) as Readonly<Record<keyof TOutputs & string, OutputSocket>>;
      const resources = definition.setup === undefined ? undefined : definition.setup(params);
      this[componentInternals] = {
        definition,
        resources,
        owner: undefined,
        prepare: (inputs, componentName) => prepareDirectInputs(this, inputs, componentName),
        checkResume: (resume) =>
          definition.checkResume?.(resume, { params, resources: resources as TResources }),
        invoke: async (inputs, context) => {
          if (!this.#warmed) await this.warmUp();
          // Written out (not spread): one object shape for every call keeps this hot path fast. The
          // `-?` type makes a RunContext field added later (even an optional one) a compile error here.
          const runContext = {
            params,
            resources: resources as TResources,
            signal: context.signal,
            componentName: context.componentName,
            tracer: context.tracer,
            span: context.span,
            logger: context.logger,
            emit: context.emit,
            interrupt: context.interrupt,
            resume: context.resume,
            depth: context.depth,
            durable: context.durable,
            consumedOutputs: context.consumedOutputs,
          } satisfies EveryRunContextField;
          return definition.run(inputs as InferInputs<TInputs>, runContext);
        },
      };
    }

    async run(
      inputs: RunInputs<TInputs>,
      options: ComponentRunOptions = {},
    ): Promise<InferOutputs<TOutputs>> {
      checkDurability(options.durability, `${this.type}.run`, options);
      const prepared = prepareDirectInputs(this, inputs as Record<string, unknown>, options.componentName);
      options.signal?.throwIfAborted();
      if (options.durability === "steps") {
        return (await runWithSteps(
          this,
          inputs as Record<string, unknown>,
          prepared,
          options,
        )) as InferOutputs<TOutputs>;
      }
      try {
        return (await invokeComponent(this, prepared, options)) as InferOutputs<TOutputs>;
      } catch (error) {
        if (!ComponentInterrupt.isInstance(error)) throw error;
        return pauseComponent(this, inputs as Record<string, unknown>, error, options);
      }
    }

    resume(
      runIdOrSnapshot: string | RunSnapshot,
      decisions: Decisions,
      options: ComponentResumeOptions = {},
    ): Promise<InferOutputs<TOutputs>> {
      return resumeComponent(this, runIdOrSnapshot, decisions, options) as Promise<InferOutputs<TOutputs>>;
    }

    warmUp(): Promise<void> {
      if (this.#warm === undefined) {
        const warmUp = definition.warmUp;
        const warm =
          warmUp === undefined
            ? Promise.resolve()
            : Promise.resolve()
                .then(() =>
                  warmUp({
                    params: this.params,
                    resources: this[componentInternals].resources as TResources,
                  }),
                )
                .then(
                  () => {
                    if (this.#warm === warm) this.#warmed = true;
                  },
                  (error: unknown) => {
                    this.#warm = undefined;
                    throw error;
                  },
                );
        this.#warm = warm;
        if (warmUp === undefined) this.#warmed = true;
      }
      return this.#warm;
    }

    async close(): Promise<void> {
      const warm = this.#warm;
      this.#warm = undefined;
      this.#warmed = false;
      if (warm !== undefined) await warm.catch(() => {});
      await definition.close?.({
        params: this.params,
        resources: this[componentInternals].resources as TResources,
      });
    }

    toString(): string {
      return `${type}(${this[componentInternals].owner?.name ?? "unnamed"})`;
    }
  }
  Object.defineProperty(DefinedComponent, "name", { value: type.split(".").pop() ?? type });
  const componentClass = DefinedComponent as unknown as ComponentClass<
    TParamsSchema,
    TInputs,
    TOutputs,
    TResources
  >;
  defaultRegistry.register(componentClass);
  return componentClass;
}

/** Validates and completes the inputs of a direct call; collects every problem and throws once. */
function prepareDirectInputs(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  componentName: string | undefined,
): Record<string, unknown> {
  const label =
    componentName === undefined ? component.type : `"${excerpt(componentName)}" (${component.type})`;
  const sockets = component.inputSockets as Readonly<Record<string, InputSocket>>;
  const issues: Issue[] = [];
  if (typeof inputs !== "object" || inputs === null) {
    throw new ComponentError(`${label}.run: inputs must be an object of socket values.`, {
      componentType: component.type,
    });
  }
  for (const key of Object.keys(inputs)) {
    if (!Object.hasOwn(sockets, key)) {
      issues.push({
        path: [key],
        message: `unknown input socket "${excerpt(key)}". Available: ${
          Object.keys(sockets)
            .map((name) => `"${excerpt(name)}"`)
            .join(", ") || "none"
        }.`,
      });
    }
  }
  const prepared: Record<string, unknown> = {};
  for (const socket of Object.values(sockets)) {
    const value = inputs[socket.name];
    if (value === undefined) {
      if (socket.mandatory) issues.push({ path: [socket.name], message: "missing mandatory input." });
      else prepared[socket.name] = socket.defaultValue();
      continue;
    }
    if (socket.variadic !== "none") {
      if (!Array.isArray(value)) {
        issues.push({
          path: [socket.name],
          message: "a variadic socket takes an array of values when run directly.",
        });
        continue;
      }
      const items: unknown[] = [];
      value.forEach((item, index) => {
        const result = socket.schema.safeParse(item);
        if (result.success) items.push(result.data);
        else issues.push(...zodIssues(result.error, [socket.name, index]));
      });
      prepared[socket.name] = items;
      continue;
    }
    const result = socket.schema.safeParse(value);
    if (result.success) prepared[socket.name] = result.data;
    else issues.push(...zodIssues(result.error, [socket.name]));
  }
  if (issues.length > 0) {
    throw new ComponentError(`${label}.run: invalid inputs:\n${formatIssues(issues)}`, {
      componentType: component.type,
      componentName,
      issues,
    });
  }
  return prepared;
}

/** Options of {@link invokeComponent}: those of a direct run, plus the resume context of a resumed run. */
export interface InvokeComponentOptions extends ComponentRunOptions {
  /** Set when the component continues after an interrupt. */
  readonly resume?: ResumeContext | undefined;
}

/**
 * Runs a component with inputs that are already prepared (every socket present, defaults filled),
 * without validating them: the fast path for framework code such as the Agent calling its chat generator
 * on every step. User code should call `component.run(...)`, which validates.
 *
 * @param component - the instance to run
 * @param inputs - every input socket's value
 * @param options - signal, tracer, span, logger, emit target and the name to report
 */
export async function invokeComponent(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  options: InvokeComponentOptions = {},
): Promise<Record<string, unknown>> {
  const onEmit = options.onEmit;
  const internals = getComponentInternals(component);
  const result = await internals.invoke(inputs, {
    signal: options.signal,
    componentName: options.componentName,
    tracer: options.tracer ?? noopTracer,
    span: options.span,
    logger: options.logger ?? getDefaultLogger(),
    emit:
      onEmit === undefined && options.onNestedEvent === undefined
        ? dropEmit
        : (payload) => forwardEmit(payload, onEmit, options.onNestedEvent),
    depth: options.depth ?? 0,
    interrupt: throwInterrupt,
    resume: options.resume,
    durable: internals.definition.ownsDurableSteps ? options.durable : undefined,
  });
  return result as Record<string, unknown>;
}

/**
 * A direct call's `onEmit` gets the chunks of nested runs unwrapped; their start/end events go to
 * `onNestedEvent` only.
 */
function forwardEmit(
  payload: unknown,
  onEmit: ((payload: unknown) => MaybePromise<void>) | undefined,
  onNestedEvent: ((event: NestedEvent["event"]) => void) | undefined,
): MaybePromise<void> {
  if (!(payload instanceof NestedEvent)) return onEmit?.(payload);
  onNestedEvent?.(payload.event);
  if (payload.event.type === "chunk") return onEmit?.(payload.event.chunk);
}
