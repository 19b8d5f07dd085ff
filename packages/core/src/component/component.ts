import { z } from "zod";
import { ComponentError, formatIssues, zodIssues } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { ComponentInterrupt, type Decisions } from "../run/interrupt.js";
import { checkDurability } from "../run/options.js";
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
import type {
  Component,
  ComponentClass,
  ComponentDefinition,
  ComponentResumeOptions,
  ComponentRunOptions,
  RunContext,
} from "./contract.js";
import { type ComponentInternals, componentInternals } from "./internals.js";
import { invokeComponent, prepareDirectInputs } from "./invoke.js";
import { defaultRegistry } from "./registry.js";
import { directRunServices } from "./run-services.js";
import type { CheckedOutputs, ConstructorArgs, InferInputs, InferOutputs, RunInputs } from "./types.js";
import { unknownParamIssues } from "./unknown-params.js";

const emptyParams = z.object({});

/** Every field of a {@link RunContext}, optional ones included (the engine must pass each one on). */
type EveryRunContextField = { [K in keyof RunContext]-?: RunContext[K] | undefined };

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
    #inputList: readonly InputSocket[];
    /** True once warm-up finished: a run then starts without waiting a microtask for it. */
    #warmed = false;
    readonly [componentInternals]: ComponentInternals;

    constructor(...args: ConstructorArgs<z.input<TParamsSchema>>) {
      const parsed = paramsSchema.safeParse(args[0] ?? {});
      const unknown = unknownParamIssues(paramsSchema, args[0]);
      if (!parsed.success || unknown.length > 0) {
        const issues = [...(parsed.success ? [] : zodIssues(parsed.error, ["params"])), ...unknown];
        throw new ComponentError(
          `new ${type}(...): invalid params (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
          { componentType: type, issues, cause: parsed.success ? undefined : parsed.error },
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
      // The sockets as a list, made once: the socket records have no prototype (dictionary objects),
      // slow to walk on every direct run.
      const inputList: readonly InputSocket[] = Object.values(this.inputSockets);
      this.#inputList = inputList;
      const resources = definition.setup === undefined ? undefined : definition.setup(params);
      // Written out (not spread): one object shape for every call keeps this hot path fast. The
      // `-?` type makes a RunContext field added later (even an optional one) a compile error here.
      const runContextOf = (context: Omit<RunContext, "params" | "resources">) =>
        ({
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
        }) satisfies EveryRunContextField;
      const runWith = (inputs: Record<string, unknown>, runContext: ReturnType<typeof runContextOf>) => {
        if (!this.#warmed) {
          // warmUp() marks a component without a warm-up function warm at once; one with a warm-up is
          // waited for on its first run.
          const warming = this.warmUp();
          if (!this.#warmed)
            return warming.then(() => definition.run(inputs as InferInputs<TInputs>, runContext));
        }
        return definition.run(inputs as InferInputs<TInputs>, runContext);
      };
      const call = (inputs: Record<string, unknown>, context: Omit<RunContext, "params" | "resources">) =>
        runWith(inputs, runContextOf(context));
      this[componentInternals] = {
        definition,
        resources,
        owner: undefined,
        prepare: (inputs, componentName) => prepareDirectInputs(this, inputs, componentName, inputList),
        checkResume: (resume) =>
          definition.checkResume?.(resume, { params, resources: resources as TResources }),
        invoke: (inputs, context) => {
          // Not an async function: a warm component's run promise is passed on as it is (no wrapper
          // promise, fewer microtasks per call); a synchronous throw still becomes a rejection.
          try {
            return Promise.resolve(call(inputs, context));
          } catch (error) {
            return Promise.reject(error);
          }
        },
        call,
        bind: (context) => {
          const runContext = runContextOf(context);
          return (inputs) => runWith(inputs, runContext);
        },
      };
    }

    async run(
      inputs: RunInputs<TInputs>,
      options: ComponentRunOptions = {},
    ): Promise<InferOutputs<TOutputs>> {
      checkDurability(options.durability, `${this.type}.run`, options);
      const prepared = prepareDirectInputs(
        this,
        inputs as Record<string, unknown>,
        options.componentName,
        this.#inputList,
      );
      options.signal?.throwIfAborted();
      if (options.durability === "steps") {
        return (await directRunServices().runWithSteps(
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
        return directRunServices().pause(this, inputs as Record<string, unknown>, error, options);
      }
    }

    resume(
      runIdOrSnapshot: string | RunSnapshot,
      decisions: Decisions,
      options: ComponentResumeOptions = {},
    ): Promise<InferOutputs<TOutputs>> {
      return directRunServices().resume(this, runIdOrSnapshot, decisions, options) as Promise<
        InferOutputs<TOutputs>
      >;
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
