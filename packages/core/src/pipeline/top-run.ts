import { getComponentInternals } from "../component/internals.js";
import { inputsToJSON } from "../durable/component-run.js";
import { checkDecisions, localDecisions, resumeContext } from "../durable/decisions.js";
import { openRun, RunRecorder, type RunRoot, recoveryDecisions } from "../durable/run-recorder.js";
import { DeserializationError, formatIssues } from "../errors/errors.js";
import type { Durable } from "../run/durable.js";
import { RunResumeError } from "../run/errors.js";
import type { PipelineEvent } from "../run/events.js";
import type { Decisions, Interrupt, ResumeContext } from "../run/interrupt.js";
import { checkDurability } from "../run/options.js";
import type { RunSnapshot } from "../run/run-snapshot.js";
import { type PipelineSnapshotSection, pipelineSectionSchema } from "../run/snapshot-schema.js";
import type { PipelineResumeOptions, PipelineRunOptions } from "./options.js";
import {
  pipelineSection,
  preparedInputsFromJSON,
  preparedInputsToJSON,
  type RestoredRun,
  restoreRun,
} from "./pause.js";
import type { Plan, PlanNode } from "./plan.js";
import { type PreparedInputs, prepareRunInputs } from "./run-inputs.js";
import type { ExecuteResult } from "./scheduler.js";

/**
 * A top-level run of a pipeline and its resume: durability "steps", pauses saved as snapshots and
 * thrown as `RunInterruptedError`, and a paused run continued with decisions. The pipeline hands these
 * functions a {@link RunHost}: its compiled plan, its fingerprint and its engine entry point.
 */

/** What the top-level run functions need from the pipeline they run. */
export interface RunHost {
  /** The compiled plan. */
  plan(): Plan;
  /** The pipeline's fingerprint, recorded in its snapshots. */
  root(): RunRoot;
  /** How often one component may run in one run. */
  readonly maxRunsPerComponent: number;
  /** Runs the engine (the pipeline's `#execute`). */
  execute(
    inputs: Record<string, unknown>,
    options: PipelineRunOptions,
    sink: ((event: PipelineEvent) => void) | undefined,
    depth: number,
    resumed?: Resumed,
    trustedInputs?: boolean,
    preparedInputs?: PreparedInputs,
  ): Promise<ExecuteResult>;
}

/** What a resumed run continues from. */
export interface Resumed {
  readonly restore: RestoredRun;
  readonly resumeFor: (node: PlanNode, visit: number) => ResumeContext | undefined;
}

/** A top-level run that writes snapshots: resumed, taken over, or started with durability "steps". */
export interface TopRun {
  readonly recorder: RunRecorder;
  readonly resumed?: Resumed | undefined;
  /** The run's journal (durability "steps"). */
  readonly durable?: Durable | undefined;
  /** The inputs were validated before (a taken-over run's recorded inputs). */
  readonly trusted?: boolean | undefined;
  readonly prepared?: PreparedInputs | undefined;
}

/** Options of a run nested in an enclosing run (see `runNested` in `pipeline.ts`). */
export interface NestedRunOptions extends PipelineRunOptions {
  /** Continue a nested run that paused: its saved section and the decisions for its interrupts. */
  readonly resume?: { readonly section: unknown; readonly decisions: Decisions } | undefined;
  /** Receives the inner run's events; `undefined` when nobody streams. */
  readonly sink: ((event: PipelineEvent) => void) | undefined;
  /** The inner run's nesting depth. */
  readonly depth: number;
}

/** A nested run that paused: its pipeline section and its interrupts (ids relative to that pipeline). */
export interface NestedPause {
  readonly section: PipelineSnapshotSection;
  readonly interrupts: Interrupt[];
}

/** `resume` and `resumeStream`: open the run, check the decisions, claim it, continue. */
export async function resumeTop(
  host: RunHost,
  runIdOrSnapshot: string | RunSnapshot,
  decisions: Decisions,
  options: PipelineResumeOptions,
  sink: ((event: PipelineEvent) => void) | undefined,
): Promise<ExecuteResult & { readonly runId?: string | undefined }> {
  const where = "Pipeline.resume";
  const { snapshot, recorder, recovery } = await openRun(runIdOrSnapshot, options, host.root(), where);
  const section = snapshot.pipeline;
  if (recovery !== undefined) {
    // A run whose process is gone: it continues from where it was started or resumed, and the steps
    // it journaled are replayed instead of run again.
    const applied = recoveryDecisions(snapshot, decisions, where);
    const resumed = section === undefined ? undefined : resumedRun(host, section, applied, where);
    const inputs = section === undefined ? preparedInputsFromJSON(host.plan(), snapshot.inputs, where) : {};
    options.signal?.throwIfAborted();
    await recorder.takeOver(recovery.entries);
    const durable = recorder.durability === "steps" ? recorder.journal(recovery.entries) : undefined;
    const run = { resumed, recorder, durable, trusted: true };
    const runOptions =
      section === undefined
        ? { ...options, inputsFormat: "nested" as const, includeOutputsFrom: snapshot.includeOutputsFrom }
        : options;
    return topRun(host, inputs, runOptions, sink, run);
  }
  if (section === undefined) {
    throw new RunResumeError(
      "RESUME_DEFINITION_CHANGED",
      `${where}: run "${snapshot.runId}" is not a pipeline run.`,
    );
  }
  const checked = checkDecisions(snapshot.interrupts, decisions, where);
  const resumed = resumedRun(host, section, checked, where);
  // Each paused component checks its decisions now, so a refused one leaves the run interrupted.
  for (const [node, entry] of resumed.restore.paused) {
    getComponentInternals(node.instance).checkResume(
      resumeContext(localDecisions(checked, `${node.name}#${entry.visit}`), entry.state),
    );
  }
  options.signal?.throwIfAborted();
  await recorder.running(checked);
  const durable = recorder.durability === "steps" ? recorder.journal() : undefined;
  return topRun(host, snapshot.inputs, options, sink, { resumed, recorder, durable });
}

/** Restores a paused run's state; the components that interrupted get their decisions once. */
export function resumedRun(
  host: RunHost,
  section: PipelineSnapshotSection,
  decisions: Decisions,
  where: string,
): Resumed {
  const restore = restoreRun(host.plan(), section, host.maxRunsPerComponent, where);
  const pending = new Map(restore.paused);
  const resumeFor = (node: PlanNode, visit: number): ResumeContext | undefined => {
    const entry = pending.get(node);
    if (entry === undefined || entry.visit !== visit) return undefined;
    pending.delete(node);
    return resumeContext(localDecisions(decisions, `${node.name}#${visit}`), entry.state);
  };
  return { restore, resumeFor };
}

export function nestedSection(
  host: RunHost,
  result: ExecuteResult,
  includeOutputsFrom: ReadonlySet<string>,
): NestedPause {
  const pause = result.pause!;
  return pipelineSection(host.plan(), pause.state, result.outputs, includeOutputsFrom, pause.wave);
}

/** A top-level run or resume: pauses are saved (persist first), then thrown as `RunInterruptedError`. */
export async function topRun(
  host: RunHost,
  inputs: Record<string, unknown>,
  options: PipelineRunOptions,
  sink: ((event: PipelineEvent) => void) | undefined,
  resuming?: TopRun,
): Promise<ExecuteResult & { readonly runId?: string | undefined }> {
  let run = resuming;
  if (run === undefined) {
    checkDurability(options.durability, "Pipeline.run", options);
    if (options.durability === "steps") run = await startSteps(host, inputs, options);
  }
  const runOptions = run?.durable === undefined ? options : { ...options, durable: run.durable };
  let result: ExecuteResult;
  try {
    result = await host.execute(
      inputs,
      runOptions,
      sink,
      0,
      run?.resumed,
      run?.trusted ?? false,
      run?.prepared,
    );
  } catch (error) {
    await run?.recorder.finished(undefined, error).catch(() => {});
    throw error;
  }
  if (result.pause === undefined) {
    if (run === undefined) return result;
    await run.recorder.finished(inputsToJSON(result.outputs), undefined);
    return { ...result, runId: run.recorder.runId };
  }
  const recorder =
    run?.recorder ??
    new RunRecorder(
      options.store,
      options.runId,
      host.root(),
      inputsToJSON(inputs),
      undefined,
      undefined,
      "Pipeline.run",
    );
  const includeOutputsFrom =
    run?.resumed?.restore.includeOutputsFrom ?? new Set(options.includeOutputsFrom ?? []);
  const { section, interrupts } = nestedSection(host, result, includeOutputsFrom);
  return recorder.interrupted(interrupts, { pipeline: section }, "pipeline.resume");
}

/**
 * The start of a run with `durability: "steps"`: its inputs are checked, then written (with the run's
 * `running` snapshot) before anything runs; every step is journaled after it.
 */
async function startSteps(
  host: RunHost,
  inputs: Record<string, unknown>,
  options: PipelineRunOptions,
): Promise<TopRun> {
  const where = "Pipeline.run";
  const prepared = prepareRunInputs(host.plan(), inputs, options.inputsFormat);
  const recorder = new RunRecorder(
    options.store,
    options.runId,
    host.root(),
    preparedInputsToJSON(prepared, where),
    undefined,
    undefined,
    where,
  ).configure(options);
  await recorder.started(
    options.includeOutputsFrom === undefined ? {} : { includeOutputsFrom: [...options.includeOutputsFrom] },
  );
  return { recorder, durable: recorder.journal(), prepared };
}

/** Reads a nested pipeline's saved section (untrusted: validated first). */
export function readSection(doc: unknown): PipelineSnapshotSection {
  const parsed = pipelineSectionSchema.safeParse(doc);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
    message: issue.message,
  }));
  throw new DeserializationError(
    `SuperComponent.resume: the saved inner run is invalid:\n${formatIssues(issues)}`,
    {
      issues,
    },
  );
}

/** A run nested in an enclosing run (see `runNested`): resumed from its section when it paused before. */
export async function runNestedIn(
  host: RunHost,
  inputs: Record<string, unknown>,
  options: NestedRunOptions,
): Promise<ExecuteResult & { readonly paused?: NestedPause | undefined }> {
  const resumed =
    options.resume === undefined
      ? undefined
      : resumedRun(host, readSection(options.resume.section), options.resume.decisions, "SuperComponent");
  const result = await host.execute(inputs, options, options.sink, options.depth, resumed, true);
  if (result.pause === undefined) return result;
  const includeOutputsFrom = resumed?.restore.includeOutputsFrom ?? new Set(options.includeOutputsFrom ?? []);
  return { ...result, paused: nestedSection(host, result, includeOutputsFrom) };
}
