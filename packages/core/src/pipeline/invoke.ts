import { getComponentInternals } from "../component/internals.js";
import { formatIssues, type Issue, PipelineRuntimeError, zodIssues } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { maxValueDepth } from "../json/value-limits.js";
import type { Logger } from "../logger.js";
import { type Durable, scopeDurable } from "../run/durable.js";
import type { PipelineEvent } from "../run/events.js";
import { ComponentInterrupt, type ResumeContext, throwInterrupt } from "../run/interrupt.js";
import { dropEmit, NestedEvent, prefixEvent } from "../run/nested.js";
import type { OutputSocket } from "../sockets/sockets.js";
import { noopTracer, type Span, type Tracer } from "../tracing.js";
import { isolate } from "./isolate.js";
import type { PlanNode } from "./plan.js";
import { isPlainObject } from "./run-inputs.js";

/** What one component run needs from the run around it. */
export interface InvokeContext {
  readonly tracer: Tracer;
  readonly pipelineSpan: Span;
  readonly logger: Logger;
  /** The run's signal; each component gets a signal derived from it. */
  readonly runSignal: AbortSignal;
  readonly validateOutputs: boolean;
  readonly sink: ((event: PipelineEvent) => void) | undefined;
  /** The resume context of a component that interrupted in the run's previous part (resumed runs only). */
  readonly resumeFor?: ((node: PlanNode, visit: number) => ResumeContext | undefined) | undefined;
  /** The run's nesting depth (0 for a top-level run). */
  readonly depth: number;
  /** Durable steps of a durable run; `undefined` in-process. */
  readonly durable: Durable | undefined;
}

/**
 * Runs one component with prepared inputs inside a `junction.component.run` span, emitting
 * start/chunk/end events, and checks what it returned.
 *
 * @throws PipelineRuntimeError naming the component when it throws or returns something that is not an object
 */
export async function invokeNode(
  node: PlanNode,
  inputs: Record<string, unknown>,
  visit: number,
  signal: AbortSignal,
  context: InvokeContext,
): Promise<Record<string, unknown>> {
  const { tracer, sink } = context;
  const runSignal = context.runSignal;
  const span =
    tracer === noopTracer
      ? noopSpan
      : tracer.startSpan(
          "junction.component.run",
          {
            "junction.component.name": node.name,
            "junction.component.type": node.type,
            "junction.component.visit": visit,
            "junction.component.input": inputs,
            "junction.component.input_spec": node.inputSpec,
            "junction.component.output_spec": node.outputSpec,
          },
          context.pipelineSpan,
        );
  try {
    sink?.({ type: "component_start", componentName: node.name, componentType: node.type, visit, inputs });
    let result: unknown;
    try {
      // What spans and events recorded must not change when the component mutates its inputs.
      const own = span === noopSpan && sink === undefined ? inputs : isolate(inputs, maxValueDepth + 1);
      const internals = getComponentInternals(node.instance);
      const runContext = {
        signal,
        componentName: node.name,
        tracer,
        span,
        logger: context.logger,
        emit: sink === undefined ? dropEmit : (payload: unknown) => sink(toEvent(node.name, payload)),
        depth: context.depth,
        interrupt: throwInterrupt,
        resume: context.resumeFor?.(node, visit),
        durable: undefined as Durable | undefined,
        consumedOutputs: node.connectedOutputs,
      };
      const durable = context.durable;
      if (durable === undefined) result = await internals.invoke(own, runContext);
      else if (internals.definition.ownsDurableSteps === true) {
        // It records its own steps (the Agent): its names go under "<component>#<visit>/".
        runContext.durable = scopeDurable(durable, `${node.name}#${visit}`);
        result = await internals.invoke(own, runContext);
      } else {
        // On a durable run a component's run is one journaled step.
        result = await durable.step(`${node.name}#${visit}`, () => internals.invoke(own, runContext));
      }
    } catch (error) {
      span.setTag("error", true);
      span.setTag("error.type", errorType(error));
      if (runSignal.aborted && error === runSignal.reason) throw error;
      if (ComponentInterrupt.isInstance(error)) throw error;
      throw new PipelineRuntimeError(
        `Pipeline.run: component "${excerpt(node.name)}" (${node.type}) failed: ${error instanceof Error ? error.message : String(error)}`,
        { componentName: node.name, componentType: node.type, cause: error },
      );
    }
    if (!isPlainObject(result)) {
      throw new PipelineRuntimeError(
        `Pipeline.run: component "${excerpt(node.name)}" (${node.type}) returned ${describeResult(result)} instead of an object of outputs ({ socket: value }). Return an object from run().`,
        { componentName: node.name, componentType: node.type },
      );
    }
    checkOutputs(node, result, context);
    span.setTag("junction.component.output", result);
    sink?.({
      type: "component_end",
      componentName: node.name,
      componentType: node.type,
      visit,
      outputs: result,
    });
    return result;
  } finally {
    span.end();
  }
}

function checkOutputs(node: PlanNode, result: Record<string, unknown>, context: InvokeContext): void {
  let undeclared: string[] | undefined;
  let issues: Issue[] | undefined;
  const sockets = node.instance.outputSockets as Readonly<Record<string, OutputSocket>>;
  for (const key in result) {
    if (!node.outputNames.has(key)) {
      undeclared = [...(undeclared ?? []), key];
      continue;
    }
    if (!context.validateOutputs || result[key] === undefined) continue;
    issues = checkOutput(node, key, sockets[key]!, result[key], issues);
  }
  if (undeclared !== undefined) {
    context.logger.warn(
      `Pipeline.run: component "${excerpt(node.name)}" (${node.type}) returned undeclared outputs ${undeclared.map((key) => `"${excerpt(key)}"`).join(", ")}; they are not sent to other components. Declare them in \`outputs\`.`,
      { componentName: node.name, componentType: node.type, outputs: undeclared },
    );
  }
  if (issues !== undefined) {
    throw new PipelineRuntimeError(
      `Pipeline.run: component "${excerpt(node.name)}" (${node.type}) returned outputs that do not match its output schemas:\n${formatIssues(issues)}`,
      { componentName: node.name, componentType: node.type, issues },
    );
  }
}

/** Validates one output (`validate: "all"`); a schema running out of stack on it is an issue too. */
function checkOutput(
  node: PlanNode,
  key: string,
  socket: OutputSocket,
  value: unknown,
  issues: Issue[] | undefined,
): Issue[] | undefined {
  try {
    const parsed = socket.schema.safeParse(value);
    return parsed.success ? issues : [...(issues ?? []), ...zodIssues(parsed.error, [node.name, key])];
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const message = `validation ran out of stack (${error.message}): the value is cyclic or nests too deeply for this recursive schema. Return a flatter value.`;
    return [...(issues ?? []), { path: [node.name, key], message }];
  }
}

/** A component's emitted payload as a stream event; nested runs' events keep their (prefixed) kind. */
function toEvent(name: string, payload: unknown): PipelineEvent {
  if (payload instanceof NestedEvent) return prefixEvent(name, payload.event);
  return { type: "chunk", componentName: name, chunk: payload };
}

/** The `error.type` tag of a failure: the error's class name. */
export function errorType(error: unknown): string {
  if (error instanceof Error) return error.name === "Error" ? error.constructor.name : error.name;
  return typeof error;
}

const noopSpan: Span = noopTracer.startSpan("junction.component.run");

function describeResult(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an instance of ${value.constructor?.name ?? "a class"}`;
  return `a ${typeof value}`;
}
