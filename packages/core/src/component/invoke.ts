import { ComponentError, formatIssues, type Issue, zodIssues } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import {
  describeValueProblem,
  describeValueProblemFix,
  findValueProblem,
  maxValueDepth,
} from "../json/value-limits.js";
import { getDefaultLogger } from "../logger.js";
import { type ResumeContext, throwInterrupt } from "../run/interrupt.js";
import { dropEmit, NestedEvent } from "../run/nested.js";
import type { InputSocket } from "../sockets/sockets.js";
import { noopTracer } from "../tracing.js";

import type { AnyComponent, ComponentRunOptions, RunContext } from "./contract.js";
import { type ComponentInternals, getComponentInternals } from "./internals.js";
import type { MaybePromise } from "./types.js";

/** Calling a component directly: checking a caller's inputs, and the unchecked fast path. */

/** Validates and completes the inputs of a direct call; collects every problem and throws once. */
export function prepareDirectInputs(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  componentName: string | undefined,
  socketList: readonly InputSocket[] = Object.values(component.inputSockets as Record<string, InputSocket>),
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
  for (const socket of socketList) {
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
      const problem = findValueProblem(value, maxValueDepth + 1, { dataOnly: true });
      if (problem !== undefined) {
        const fix = describeValueProblemFix(problem);
        const what =
          problem.kind === "too_deep"
            ? `an item ${describeValueProblem({ kind: "too_deep", limit: maxValueDepth })}`
            : `the list of values ${describeValueProblem(problem)}`;
        issues.push({ path: [socket.name], message: `${what}. ${fix}` });
        continue;
      }
      const items: unknown[] = [];
      value.forEach((item, index) => {
        parseDirectInput(socket, item, items, issues, index);
      });
      prepared[socket.name] = items;
      continue;
    }
    // Refused like a pipeline's run input: too deep for the walkers behind a run, or a huge sparse array.
    // Data properties only: the component gets the value as it is and may read only part of it (no
    // getter is called here).
    const problem =
      typeof value === "object" && value !== null
        ? findValueProblem(value, maxValueDepth, { dataOnly: true })
        : undefined;
    if (problem !== undefined) {
      issues.push({
        path: [socket.name],
        message: `the value ${describeValueProblem(problem)}. ${describeValueProblemFix(problem)}`,
      });
      continue;
    }
    parseDirectInput(socket, value, prepared, issues);
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

/**
 * Parses one value with its socket's schema into `into[key]` (an item of a variadic socket at `index`),
 * or records the problems. A recursive schema (`z.lazy`) that runs out of stack on the value is reported
 * as a problem of the socket, as a pipeline run reports it.
 */
function parseDirectInput(
  socket: InputSocket,
  value: unknown,
  into: Record<string, unknown> | unknown[],
  issues: Issue[],
  index?: number,
): void {
  const path = index === undefined ? [socket.name] : [socket.name, index];
  try {
    const result = socket.schema.safeParse(value);
    if (!result.success) issues.push(...zodIssues(result.error, path));
    else if (index === undefined) (into as Record<string, unknown>)[socket.name] = result.data;
    else (into as unknown[]).push(result.data);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    issues.push({
      path,
      message: `the schema of "${socket.name}" could not validate this value: validation ran out of stack (${error.message}). The value is cyclic or nests too deeply for this recursive schema; pass a smaller value.`,
    });
  }
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
export function invokeComponent(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  options: InvokeComponentOptions = {},
): Promise<Record<string, unknown>> {
  // Not an async function (one promise fewer per call); a synchronous failure still rejects.
  try {
    return Promise.resolve(callComponent(component, inputs, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * As {@link invokeComponent}, without the promise when none is needed: a warm component whose `run`
 * returns its outputs at once hands them back as they are, and a synchronous failure is thrown. For
 * framework loops that call a component many times (the Agent calling its chat generator on every
 * step), where each promise is a measurable share of the step.
 *
 * @param component - the instance to run
 * @param inputs - every input socket's value (sockets left out get `undefined`)
 * @param options - signal, tracer, span, logger, emit target and the name to report
 * @returns the outputs, or a promise of them
 */
export function callComponent(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  options: InvokeComponentOptions = {},
): MaybePromise<Record<string, unknown>> {
  const internals = getComponentInternals(component);
  return internals.call(inputs, callContext(internals, options)) as MaybePromise<Record<string, unknown>>;
}

/**
 * {@link callComponent} with options fixed for every call: the component's run context is built once,
 * here, instead of on every call (a loop that calls one component many times with the same signal,
 * tracer, span and emit target, such as the Agent calling its chat generator when nothing traces).
 *
 * @param component - the instance to run
 * @param options - signal, tracer, span, logger, emit target and the name to report, for every call
 * @returns a function of the inputs giving the outputs, or a promise of them
 * @example
 * ```ts
 * const generate = componentCaller(generator, { signal });
 * const outputs = await generate({ messages });
 * ```
 */
export function componentCaller(
  component: AnyComponent,
  options: InvokeComponentOptions = {},
): (inputs: Record<string, unknown>) => MaybePromise<Record<string, unknown>> {
  const internals = getComponentInternals(component);
  return internals.bind(callContext(internals, options)) as (
    inputs: Record<string, unknown>,
  ) => MaybePromise<Record<string, unknown>>;
}

/** The context of a direct call, from its options. */
function callContext(
  internals: ComponentInternals,
  options: InvokeComponentOptions,
): Omit<RunContext, "params" | "resources"> {
  const onEmit = options.onEmit;
  return {
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
  };
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
