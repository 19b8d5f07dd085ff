import { PipelineComponentsBlockedError, PipelineMaxComponentRuns } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import type { Logger } from "../logger.js";
import type { Durable } from "../run/durable.js";
import type { NeverRanReport, PipelineEvent, PipelineOutputs } from "../run/events.js";
import type { Span, Tracer } from "../tracing.js";
import { errorType, type InvokeContext } from "./invoke.js";
import { type Budget, type EarlyRun, Lookahead } from "./lookahead.js";
import { explain, neverRanReports } from "./never-ran.js";
import { applyOutputs } from "./outputs.js";
import type { RestoredRun, WavePause } from "./pause.js";
import type { Plan, PlanNode } from "./plan.js";
import { computePriority, Priority } from "./readiness.js";
import type { PreparedInputs } from "./run-inputs.js";
import { RunState } from "./run-state.js";
import { runWave } from "./wave.js";

/** Everything one run needs, resolved from the pipeline and the run options. */
export interface ExecuteRequest {
  readonly plan: Plan;
  readonly inputs: PreparedInputs;
  readonly includeOutputsFrom: ReadonlySet<string>;
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
  readonly validateOutputs: boolean;
  readonly maxRunsPerComponent: number;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly tracer: Tracer;
  readonly logger: Logger;
  /** Receives stream events; `undefined` for plain runs. */
  readonly sink: ((event: PipelineEvent) => void) | undefined;
  /** A paused run to continue (then `inputs` is ignored). */
  readonly restore?: RestoredRun | undefined;
  /** The resume context of the components that interrupted (resumed runs only). */
  readonly resumeFor?: InvokeContext["resumeFor"];
  /** The parent of the run's `junction.pipeline.run` span (the enclosing component's span when nested). */
  readonly parentSpan: Span | undefined;
  /** The run's nesting depth (0 for a top-level run). */
  readonly depth: number;
  /** Durable steps; `undefined` in-process. */
  readonly durable: Durable | undefined;
}

/** What a finished (or paused) run produced. */
export interface ExecuteResult {
  readonly outputs: PipelineOutputs;
  readonly neverRan: NeverRanReport[];
  /** Set when the run paused at interrupts: how its last wave ended, and the state to save. */
  readonly pause?: { readonly wave: WavePause; readonly state: RunState } | undefined;
}

/**
 * The run loop. At each scheduling point the runnable components form a wave: every HIGHEST and READY
 * component (ordered by priority, then name), or — when there is none — the one DEFER component that
 * comes first in topological order, then by lower-cased name. A wave runs concurrently (see
 * {@link runWave}); afterwards only the wave's members and their receivers are re-examined. The run
 * ends when nothing is runnable. While a wave runs, next-wave components whose membership and inputs
 * are already certain start early (see {@link Lookahead}); they are adopted by the next wave.
 */
export async function execute(request: ExecuteRequest): Promise<ExecuteResult> {
  const { plan, tracer, logger } = request;
  request.signal?.throwIfAborted();
  const restore = request.restore;
  const state =
    restore?.state ?? new RunState(plan.nodes, request.inputs.promoted, request.maxRunsPerComponent);
  if (restore === undefined) {
    for (const [node, values] of request.inputs.values) {
      const slots = state.inputs[node.index]!;
      for (const [socket, value] of values) slots[socket.index] = [{ sender: null, value }];
    }
  }
  const ready = new Set<PlanNode>();
  const deferred = new Set<PlanNode>();
  const priorities = new Array<Priority>(plan.nodes.length);
  const update = (node: PlanNode) => {
    const priority = computePriority(node, state);
    priorities[node.index] = priority;
    if (priority === Priority.Highest || priority === Priority.Ready) ready.add(node);
    else ready.delete(node);
    if (priority === Priority.Defer) deferred.add(node);
    else deferred.delete(node);
  };
  for (const node of plan.nodes) update(node);
  if (restore === undefined && plan.nodes.length > 0 && ready.size === 0 && deferred.size === 0) {
    throw new PipelineComponentsBlockedError(
      `Pipeline.run: no component can start; every component waits for an input nothing will send:\n${plan.nodes
        .map((node) => `  - "${excerpt(node.name)}" (${node.type}): ${explain(plan, node, state)}`)
        .join(
          "\n",
        )}\nProvide the missing inputs, or enter loops through a component that takes the run input (such as a BranchJoiner).`,
    );
  }

  // The run's own signal lets a failing component cancel the others. A one-component pipeline given a
  // signal (a SuperComponent's inner run) has no others, so it runs on that signal and skips the
  // allocation, which is a large part of what a nested run costs.
  const controller =
    plan.nodes.length > 1 || request.signal === undefined ? new AbortController() : undefined;
  const runSignal = controller?.signal ?? request.signal!;
  const onAbort = () => controller!.abort(request.signal!.reason);
  if (controller !== undefined) request.signal?.addEventListener("abort", onAbort, { once: true });
  const pipelineSpan = tracer.startSpan(
    "junction.pipeline.run",
    {
      "junction.pipeline.input_data": request.inputs.nested,
      "junction.pipeline.metadata": request.metadata,
      "junction.pipeline.max_runs_per_component": request.maxRunsPerComponent,
    },
    request.parentSpan,
  );
  const context: InvokeContext = {
    tracer,
    pipelineSpan,
    logger,
    runSignal,
    validateOutputs: request.validateOutputs,
    sink: request.sink,
    resumeFor: request.resumeFor,
    depth: request.depth,
    durable: request.durable,
  };
  const outputs: PipelineOutputs = restore?.outputs ?? {};
  // Early starts need room for more than one run at a time. A durable run makes none: they start when
  // earlier components finish, so their order would depend on timing (see runWave's "ordered" starts).
  const budget: Budget = { inFlight: 0, limit: request.concurrency };
  const lookahead =
    controller !== undefined && request.concurrency > 1 && request.durable === undefined
      ? new Lookahead(state, context, request.maxRunsPerComponent, budget)
      : undefined;
  const converted = lookahead?.converted;
  const apply = (node: PlanNode, result: Record<string, unknown>) =>
    applyOutputs(node, result, state, outputs, request.includeOutputsFrom.has(node.name), converted);
  const abortRun = (reason: unknown) => controller?.abort(reason);
  const noneCarried: ReadonlyMap<PlanNode, EarlyRun> = new Map();
  // A resumed run first finishes the paused wave: its finished members are adopted like early starts.
  let resumedWave: readonly PlanNode[] | undefined = restore?.wave;
  let paused: WavePause | undefined;
  try {
    for (;;) {
      let wave: readonly PlanNode[];
      let carried: ReadonlyMap<PlanNode, EarlyRun> | undefined;
      if (resumedWave !== undefined && resumedWave.length > 0) {
        wave = resumedWave;
        carried = finishedRuns(restore!.finished);
        resumedWave = undefined;
      } else if (ready.size > 0) {
        const members = [...ready];
        if (members.length > 1) members.sort(byPriorityThenName(priorities));
        wave = members;
      } else if (deferred.size > 0) {
        wave = [firstDeferred(deferred)];
      } else break;
      for (const node of wave) {
        if (state.visits[node.index]! >= request.maxRunsPerComponent) {
          throw new PipelineMaxComponentRuns(
            `Pipeline.run: component "${excerpt(node.name)}" (${node.type}) was about to run again after ${request.maxRunsPerComponent} run${request.maxRunsPerComponent === 1 ? "" : "s"}; maxRunsPerComponent is ${request.maxRunsPerComponent}. If the loop is expected to take longer, raise maxRunsPerComponent; otherwise check the condition that should end the loop.`,
            { componentName: node.name, componentType: node.type },
          );
        }
      }
      if (converted !== undefined && converted.size > 0) converted.clear();
      try {
        paused = await runWave(wave, state, context, {
          budget,
          apply,
          onFailure: abortRun,
          lookahead,
          carried: carried ?? lookahead?.take() ?? noneCarried,
        });
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        throw error;
      }
      if (request.signal?.aborted) throw request.signal.reason;
      if (paused !== undefined) {
        // Early starts for a wave that will not run now are dropped; they run again on resume.
        await lookahead?.settleAll();
        lookahead?.take();
        break;
      }
      if (wave.length === 1) {
        const node = wave[0]!;
        update(node);
        for (const receiver of node.receivers) update(receiver);
      } else {
        const affected = new Set<PlanNode>(wave);
        for (const node of wave) for (const receiver of node.receivers) affected.add(receiver);
        for (const node of affected) update(node);
      }
    }
    if (paused !== undefined) pipelineSpan.setTag("junction.pipeline.interrupted", true);
    else pipelineSpan.setTag("junction.pipeline.output_data", outputs);
  } catch (error) {
    pipelineSpan.setTag("error", true);
    pipelineSpan.setTag("error.type", errorType(error));
    // Components started early for a wave that will not run are cancelled; none outlives the run.
    if (lookahead?.busy) {
      controller!.abort(request.signal?.aborted ? request.signal.reason : error);
      await lookahead.settleAll();
    }
    throw error;
  } finally {
    // Only when it was added: removing is not free on Node 20, even for a listener that is not there.
    if (controller !== undefined) request.signal?.removeEventListener("abort", onAbort);
    pipelineSpan.end();
  }
  if (paused !== undefined) return { outputs, neverRan: [], pause: { wave: paused, state } };
  const neverRan = neverRanReports(plan, state);
  if (neverRan.length > 0) {
    // Un-taken router branches are normal when the run still produced outputs (info); a run that ends
    // with nothing to return is the reference's "pipeline returns {}" pitfall, so that one warns.
    const level = Object.keys(outputs).length === 0 ? "warn" : "info";
    logger[level](
      `Pipeline.run: ${neverRan.length} component${neverRan.length === 1 ? "" : "s"} never ran:\n${neverRan
        .map((report) => `  - "${excerpt(report.componentName)}": ${report.reason}`)
        .join("\n")}`,
      { neverRan },
    );
  }
  return { outputs, neverRan };
}

function finishedRuns(
  finished: ReadonlyMap<PlanNode, Record<string, unknown>>,
): ReadonlyMap<PlanNode, EarlyRun> {
  const runs = new Map<PlanNode, EarlyRun>();
  for (const [node, result] of finished)
    runs.set(node, { node, settled: Promise.resolve(), outcome: { result } });
  return runs;
}

function byPriorityThenName(priorities: readonly Priority[]) {
  return (a: PlanNode, b: PlanNode): number =>
    priorities[a.index]! - priorities[b.index]! || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function firstDeferred(deferred: ReadonlySet<PlanNode>): PlanNode {
  let best: PlanNode | undefined;
  for (const node of deferred) {
    if (
      best === undefined ||
      node.topologicalIndex < best.topologicalIndex ||
      (node.topologicalIndex === best.topologicalIndex &&
        (node.lowerName < best.lowerName || (node.lowerName === best.lowerName && node.name < best.name)))
    ) {
      best = node;
    }
  }
  return best!;
}
