import { z } from "zod";
import { defineComponent } from "../component/component.js";
import type {
  ComponentSerializer,
  DeserializeContext,
  SerializeContext,
} from "../component/component-serializer.js";
import type { Component, ComponentClass, RunContext } from "../component/contract.js";
import { ComponentError, type Issue, JunctionError, SerializationError } from "../errors/errors.js";
import type { ComponentMap } from "../pipeline/builder-types.js";
import { Pipeline, runNested } from "../pipeline/pipeline.js";
import type { PipelineEvent } from "../run/events.js";
import { isStreaming, NestedEvent } from "../run/nested.js";
import type { InputSpecs, OutputSpecs } from "../sockets/sockets.js";
import type {
  AnyInputMapping,
  AnyOutputMapping,
  SuperInputSpecs,
  SuperOutputSpecs,
  TypedPipeline,
} from "./super-component-types.js";
import {
  type InputMapping,
  type OutputMapping,
  type ResolvedMapping,
  resolveMapping,
} from "./super-mapping.js";

/** The type name a `SuperComponent` is registered and serialized under. */
export const superComponentType = "junction.SuperComponent";

const resolved = new WeakMap<object, ResolvedMapping>();

/** The validated params of a `SuperComponent`. */
export interface SuperComponentParams {
  /** The wrapped pipeline. Do not change it after wrapping: the sockets are decided at construction. */
  readonly pipeline: Pipeline;
  /** `{ input: ["component.socket", ...] }`; default: every open input socket name → all sockets of that name. */
  readonly inputMapping?: InputMapping | undefined;
  /** `{ "component.socket": "output" }`; default: every leaf output → its socket name. */
  readonly outputMapping?: OutputMapping | undefined;
}

const paramsSchema = z
  .strictObject({
    pipeline: z.custom<Pipeline>((value) => value instanceof Pipeline, {
      message: "must be a Pipeline instance.",
    }),
    inputMapping: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    outputMapping: z.record(z.string(), z.string()).optional(),
  })
  .superRefine((params, context) => {
    const issues: Issue[] = [];
    const mapping = resolveMapping(params.pipeline, params.inputMapping, params.outputMapping, issues);
    for (const issue of issues)
      context.addIssue({ code: "custom", path: [...issue.path], message: issue.message });
    if (issues.length === 0) resolved.set(params, mapping);
  });

function mappingOf(params: SuperComponentParams): ResolvedMapping {
  let mapping = resolved.get(params);
  if (mapping === undefined) {
    const issues: Issue[] = [];
    mapping = resolveMapping(params.pipeline, params.inputMapping, params.outputMapping, issues);
    resolved.set(params, mapping);
  }
  return mapping;
}

/** The options of `new SuperComponent(...)`, typed from the pipeline's components when it was built with `Pipeline.builder()`. */
export interface SuperComponentInit<TMap extends ComponentMap, TInputMapping, TOutputMapping> {
  /** The wrapped pipeline. */
  readonly pipeline: TypedPipeline<TMap, any, any> | Pipeline;
  /** `{ input: ["component.socket", ...] }`. */
  readonly inputMapping?: TInputMapping;
  /** `{ "component.socket": "output" }`. */
  readonly outputMapping?: TOutputMapping;
}

/** The `SuperComponent` class: its sockets carry the inner socket types when the mappings are given. */
export interface SuperComponentClass
  extends Omit<ComponentClass<typeof paramsSchema, InputSpecs, OutputSpecs, ResolvedMapping>, never> {
  /** Wraps `pipeline`; throws `ComponentError` listing every mapping problem. */
  new <
    TMap extends ComponentMap = ComponentMap,
    const TInputMapping extends AnyInputMapping | undefined = undefined,
    const TOutputMapping extends AnyOutputMapping | undefined = undefined,
  >(
    init: SuperComponentInit<TMap, TInputMapping, TOutputMapping>,
  ): Component<
    SuperInputSpecs<TMap, TInputMapping>,
    SuperOutputSpecs<TMap, TOutputMapping>,
    SuperComponentParams
  >;
}

/** Pipelines being written right now: a pipeline that contains itself is refused instead of recursing. */
const writing = new Set<Pipeline>();

const serializer: ComponentSerializer<SuperComponentParams> = {
  toInitParameters(params, context: SerializeContext) {
    const out: Record<string, unknown> = { pipeline: writeInner(params.pipeline, context) };
    if (params.inputMapping !== undefined)
      out.inputMapping = context.serializeValue(params.inputMapping, "inputMapping");
    if (params.outputMapping !== undefined)
      out.outputMapping = context.serializeValue(params.outputMapping, "outputMapping");
    return out;
  },
  fromInitParameters(init, context: DeserializeContext) {
    const out: Record<string, unknown> = { ...init };
    if (init.pipeline !== undefined) out.pipeline = readInner(init.pipeline, context);
    return out;
  },
};

function writeInner(pipeline: Pipeline, context: SerializeContext): unknown {
  const path = [...context.path, "pipeline"];
  if (writing.has(pipeline)) {
    throw new SerializationError(
      "SuperComponent: the pipeline contains itself (through a SuperComponent), so it cannot be written.",
      { issues: [{ path, message: "the pipeline contains itself through a SuperComponent." }] },
    );
  }
  writing.add(pipeline);
  try {
    return pipeline.toJSON({ registry: context.registry });
  } catch (error) {
    if (!JunctionError.isInstance(error) || error.issues.length === 0) throw error;
    const issues = error.issues.map((issue) => ({ ...issue, path: [...path, ...issue.path] }));
    throw new SerializationError(error.message, { issues, cause: error });
  } finally {
    writing.delete(pipeline);
  }
}

function readInner(doc: unknown, context: DeserializeContext): Pipeline | undefined {
  try {
    return Pipeline.fromJSON(doc, { registry: context.registry });
  } catch (error) {
    if (!JunctionError.isInstance(error) || error.issues.length === 0) throw error;
    for (const issue of error.issues) {
      context.issues.push({ ...issue, path: [...context.path, "pipeline", ...issue.path] });
    }
    return undefined;
  }
}

/** The pipelines a pipeline reaches through nested SuperComponents, checked for one that contains itself. */
function checkNoCycle(pipeline: Pipeline, path: readonly Pipeline[]): void {
  for (const name of pipeline.componentNames()) {
    const component = pipeline.getComponent(name);
    if (component.type !== superComponentType) continue;
    const inner = (component.params as SuperComponentParams).pipeline;
    if (inner === pipeline || path.includes(inner)) {
      throw new ComponentError(
        `SuperComponent: the wrapped pipeline contains itself (through "${name}"), which would nest runs forever. Wrap a different pipeline instance.`,
        { componentName: name, componentType: superComponentType },
      );
    }
    checkNoCycle(inner, [...path, pipeline]);
  }
}

async function runSuperComponent(
  inputs: Record<string, unknown>,
  context: RunContext<SuperComponentParams, ResolvedMapping>,
): Promise<Record<string, unknown>> {
  const mapping = context.resources;
  const nested: Record<string, Record<string, unknown>> = {};
  for (const input of mapping.inputs) {
    const value = inputs[input.name];
    if (value === undefined) continue;
    for (const target of input.targets) {
      const sockets = nested[target.component] ?? {};
      sockets[target.socket] = value;
      nested[target.component] = sockets;
    }
  }
  const emit = context.emit;
  const sink = isStreaming(emit)
    ? (event: PipelineEvent) => {
        if (event.type === "run_end" || event.type === "interrupt") return;
        const pending = emit(new NestedEvent(event));
        if (pending instanceof Promise)
          pending.catch((error: unknown) =>
            context.logger.warn(`SuperComponent: forwarding an inner event failed: ${String(error)}`),
          );
      }
    : undefined;
  const result = await runNested(context.params.pipeline, nested, {
    inputsFormat: "nested",
    includeOutputsFrom: mapping.includeOutputsFrom,
    signal: context.signal,
    tracer: context.tracer,
    logger: context.logger,
    span: context.span,
    sink,
    depth: context.depth + 1,
    // On a durable run each inner component is its own step, named under "<outer>#<visit>/".
    durable: context.durable,
    // After an interrupt inside: the inner run continues from its saved section.
    ...(context.resume === undefined
      ? {}
      : { resume: { section: context.resume.state, decisions: context.resume.decisions } }),
  });
  if (result.paused !== undefined) {
    // An inner component interrupted: this component pauses with the inner run as its state.
    context.interrupt({ interrupts: result.paused.interrupts, state: result.paused.section });
  }
  const outputs: Record<string, unknown> = {};
  for (const output of mapping.outputs) {
    const value = result.outputs[output.source.component]?.[output.source.socket];
    if (value !== undefined) outputs[output.name] = value;
  }
  return outputs;
}

const SuperComponentClass = defineComponent({
  type: superComponentType,
  description: "A pipeline wrapped as one component.",
  params: paramsSchema,
  inputs: (params) =>
    Object.fromEntries(mappingOf(params).inputs.map((input) => [input.name, input.schema])) as Record<
      string,
      z.ZodType
    >,
  outputs: (params) =>
    Object.fromEntries(mappingOf(params).outputs.map((output) => [output.name, output.schema])) as Record<
      string,
      z.ZodType
    >,
  setup: (params): ResolvedMapping => mappingOf(params),
  ownsDurableSteps: true,
  run: (inputs, context) => runSuperComponent(inputs as Record<string, unknown>, context) as never,
  warmUp: async ({ params }) => {
    checkNoCycle(params.pipeline, []);
    const pipeline = params.pipeline;
    await Promise.all(pipeline.componentNames().map((name) => pipeline.getComponent(name).warmUp()));
  },
  close: async ({ params }) => {
    const pipeline = params.pipeline;
    await Promise.all(pipeline.componentNames().map((name) => pipeline.getComponent(name).close()));
  },
  serializer,
});

/**
 * A pipeline wrapped as one component, so pipelines nest: `new SuperComponent({ pipeline, inputMapping?,
 * outputMapping? })`.
 *
 * Its input sockets are the mapped inner inputs, carrying the inner types: an input mapped to several
 * sockets gets their common type and is optional only when all of them are (then the inner defaults
 * apply). By default every open input socket name maps to all open sockets of that name, and every leaf
 * output to its socket name (two leaves with the same name are an error naming both). An
 * `outputMapping` may name outputs of components that are connected inside; they are returned too.
 *
 * The run's signal, tracer (the inner `junction.pipeline.run` span nests under this component's span),
 * logger and streaming reach inside: `Pipeline.stream` on the outer pipeline shows the inner events
 * with `componentName: "outer/inner"`. `warmUp` and `close` reach the inner components. Serialized, it
 * embeds the inner pipeline document and the mappings; loading goes through the same registry and checks.
 *
 * @example
 * ```ts
 * const inner = new Pipeline().addComponent("adder", new AddFixedValue({ add: 2 }));
 * const wrapped = new SuperComponent({ pipeline: inner, inputMapping: { x: ["adder.value"] } });
 * await wrapped.run({ x: 1 }); // { result: 3 }
 * ```
 */
export const SuperComponent: SuperComponentClass = SuperComponentClass as unknown as SuperComponentClass;
