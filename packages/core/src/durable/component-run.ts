import type { AnyComponent, ComponentResumeOptions, ComponentRunOptions } from "../component/contract.js";
import { getComponentInternals } from "../component/internals.js";
import { invokeComponent } from "../component/invoke.js";
import { provideDirectRunServices } from "../component/run-services.js";
import type { Issue } from "../errors/errors.js";
import { ComponentInterrupt, type Decisions, type ResumeContext } from "../run/interrupt.js";
import type { RunSnapshot } from "../run/run-snapshot.js";
import type { InputSocket } from "../sockets/sockets.js";
import { checkDecisions, localDecisions, resumeContext, toInterrupts } from "./decisions.js";
import { componentFingerprint } from "./fingerprint.js";
import { openRun, RunRecorder, type RunRoot, recoveryDecisions } from "./run-recorder.js";
import { fromSnapshotJSON, toSnapshotJSON } from "./value-json.js";

/** Direct component runs that stop at an interrupt, and their resume. */

function rootOf(component: AnyComponent): RunRoot {
  return { kind: "component", type: component.type, fingerprint: componentFingerprint(component) };
}

/** The JSON form of run inputs; values without one (callbacks) are left out and must be supplied again. */
export function inputsToJSON(inputs: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(inputs)) {
    if (value === undefined) continue;
    const issues: Issue[] = [];
    const json = toSnapshotJSON(value, [name], issues);
    if (issues.length === 0) out[name] = json;
  }
  return out;
}

function inputsFromJSON(
  component: AnyComponent,
  json: Readonly<Record<string, unknown>>,
  supplied: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const sockets = component.inputSockets as Readonly<Record<string, InputSocket>>;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(json)) {
    const socket = sockets[name];
    if (socket === undefined) continue;
    out[name] =
      socket.variadic !== "none" && Array.isArray(value)
        ? value.map((item) => fromSnapshotJSON(socket.schema, item))
        : fromSnapshotJSON(socket.schema, value);
  }
  return { ...out, ...supplied };
}

function outputsToJSON(outputs: Record<string, unknown>): Record<string, unknown> {
  return inputsToJSON(outputs);
}

async function interrupted(
  component: AnyComponent,
  recorder: RunRecorder,
  signal: ComponentInterrupt,
): Promise<never> {
  const interrupts = toInterrupts(signal.interrupts, "", []);
  return recorder.interrupted(
    interrupts,
    signal.state === undefined ? {} : { component: signal.state },
    `${component.constructor.name}.resume`,
  );
}

/** After `component.run` caught an interrupt: saves the snapshot, then throws `RunInterruptedError`. */
export function pauseComponent(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  signal: ComponentInterrupt,
  options: ComponentRunOptions,
): Promise<never> {
  return interrupted(component, newRecorder(component, inputs, options), signal);
}

/** The recorder of a direct run (a new run: its id from the options, or a new one). */
function newRecorder(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  options: ComponentRunOptions,
): RunRecorder {
  return new RunRecorder(
    options.store,
    options.runId,
    rootOf(component),
    inputsToJSON(inputs),
    undefined,
    undefined,
    `${component.type}.run`,
  ).configure(options);
}

/** Runs (or continues) a component under a recorder: saves its pause, or records how it ended. */
async function recorded(
  component: AnyComponent,
  recorder: RunRecorder,
  prepared: Record<string, unknown>,
  options: ComponentRunOptions & { readonly resume?: ResumeContext | undefined },
): Promise<Record<string, unknown>> {
  let outputs: Record<string, unknown>;
  try {
    outputs = await invokeComponent(component, prepared, options);
  } catch (error) {
    if (ComponentInterrupt.isInstance(error)) return interrupted(component, recorder, error);
    await recorder.finished(undefined, error).catch(() => {});
    throw error;
  }
  await recorder.finished(outputsToJSON(outputs), undefined);
  return outputs;
}

/**
 * `component.run(inputs, { durability: "steps", store })`: the run's `running` snapshot (with its
 * inputs) is written first, then every step the component records (an Agent's model and tool calls)
 * is journaled, so another process can continue the run with `component.resume(runId, {}, { store })`.
 */
export async function runWithSteps(
  component: AnyComponent,
  inputs: Record<string, unknown>,
  prepared: Record<string, unknown>,
  options: ComponentRunOptions,
): Promise<Record<string, unknown>> {
  const recorder = newRecorder(component, inputs, options);
  await recorder.started();
  return recorded(component, recorder, prepared, { ...options, durable: recorder.journal() });
}

/**
 * `component.resume(...)`: checks the snapshot and decisions (failing closed), claims the run, continues.
 * A `running` run whose process is gone is taken over: it continues from its start or its resume, with
 * the steps it journaled replayed.
 */
export async function resumeComponent(
  component: AnyComponent,
  target: string | RunSnapshot,
  decisions: Decisions,
  options: ComponentResumeOptions,
): Promise<Record<string, unknown>> {
  const where = `${component.type}.resume`;
  const { snapshot, recorder, recovery } = await openRun(target, options, rootOf(component), where);
  const checked =
    recovery === undefined
      ? checkDecisions(snapshot.interrupts, decisions, where)
      : recoveryDecisions(snapshot, decisions, where);
  const internals = getComponentInternals(component);
  const prepared = internals.prepare(
    inputsFromJSON(component, snapshot.inputs, options.inputs),
    options.componentName,
  );
  const resumes = snapshot.component !== undefined || snapshot.interrupts.length > 0;
  const resume = resumes ? resumeContext(localDecisions(checked, ""), snapshot.component) : undefined;
  // The component checks its decisions now, so a refused one leaves the run interrupted.
  if (recovery === undefined && resume !== undefined) internals.checkResume(resume);
  options.signal?.throwIfAborted();
  if (recovery === undefined) await recorder.running(checked);
  else await recorder.takeOver(recovery.entries);
  const durable =
    recorder.durability === "steps" ? recorder.journal(recovery?.entries ?? []) : options.durable;
  return recorded(component, recorder, prepared, { ...options, durable, resume });
}

provideDirectRunServices({ runWithSteps, pause: pauseComponent, resume: resumeComponent });
