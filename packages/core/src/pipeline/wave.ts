import { getComponentInternals } from "../component/internals.js";
import { PipelineRuntimeError } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { describeValueProblem } from "../json/value-limits.js";
import { ComponentInterrupt } from "../run/interrupt.js";
import { type InvokeContext, invokeNode } from "./invoke.js";
import { isolate, ValueTooDeep } from "./isolate.js";
import type { Budget, EarlyRun, Lookahead } from "./lookahead.js";
import type { WavePause } from "./pause.js";
import type { PlanNode } from "./plan.js";
import type { Entry, RunState } from "./run-state.js";

/** What a wave needs from the run around it. */
export interface WaveOptions {
  /** Runs in flight across waves, for the concurrency cap. */
  readonly budget: Budget;
  /** Commits one member's result. */
  readonly apply: (node: PlanNode, result: Record<string, unknown>) => void;
  /** Called once with the first failure (aborts the run). */
  readonly onFailure: (error: unknown) => void;
  /** Starts next-wave components early; `undefined` when nothing may start early. */
  readonly lookahead: Lookahead | undefined;
  /** Members that were started early, during the previous wave. */
  readonly carried: ReadonlyMap<PlanNode, EarlyRun>;
}

/**
 * Runs one wave: the components that were runnable at one scheduling point, in their scheduling order
 * (priority, then name). The result is exactly that of running them one after another in that order:
 *
 * - a member consumes its inputs when it starts; a member that receives from an earlier member of the
 *   same wave starts only after that sender's outputs are written (otherwise members start at once, up
 *   to `concurrency`);
 * - outputs are written in scheduling order, whatever order the members finish in, so the order of the
 *   values a lazy variadic socket collects never depends on timing;
 * - a member started early (see {@link Lookahead}) is adopted: its inputs are consumed and its visit
 *   counted now, in its place, and its result is committed in its place like any other.
 *
 * Each member of a multi-member wave gets its own signal, aborted when the run is aborted (a failing
 * sibling, the caller's signal, an abandoned stream); a lone member gets the run's signal itself.
 *
 * When a member interrupts (`context.interrupt`), no further member starts; the running ones finish,
 * the members before the first uncommitted one commit, and the rest are rolled back (see `pause.ts`).
 *
 * @returns `undefined` when every member committed, else how the wave paused
 * On a durable run members start strictly in wave order (a member never starts before an earlier one),
 * and a member that records its own durable steps (the Agent) runs alone, so the order in which steps
 * start depends only on the run's data — what a journal replay needs.
 */
export function runWave(
  members: readonly PlanNode[],
  state: RunState,
  context: InvokeContext,
  options: WaveOptions,
): Promise<WavePause | undefined> {
  const { budget, apply, onFailure, lookahead, carried } = options;
  const count = members.length;
  if (count === 1 && carried.size === 0) {
    const node = members[0]!;
    const before = state.inputs[node.index]!.slice();
    return runMember(node, state, context.runSignal, context).then(
      (result) => {
        apply(node, result);
        return undefined;
      },
      (error: unknown) => {
        if (!ComponentInterrupt.isInstance(error)) throw error;
        const visit = state.visits[node.index]!;
        rollBack(node, state, before);
        return { members, finished: new Map(), paused: new Map([[node, { visit, interrupt: error }]]) };
      },
    );
  }
  // waitFor[i]: the last earlier member that sends to member i (-1: none).
  const position = new Map<PlanNode, number>();
  members.forEach((node, index) => {
    position.set(node, index);
  });
  const waitFor = new Array<number>(count).fill(-1);
  members.forEach((node, index) => {
    for (const receiver of node.receivers) {
      const at = position.get(receiver);
      if (at !== undefined && at > index) waitFor[at] = Math.max(waitFor[at]!, index);
    }
  });
  for (const node of carried.keys()) {
    const at = position.get(node);
    if (at === undefined || waitFor[at] !== -1) {
      return Promise.reject(
        new PipelineRuntimeError(
          `Pipeline.run: internal scheduling error: "${node.name}" was started early but is not free to start in the next wave. Please report this with the pipeline.`,
          { componentName: node.name, componentType: node.type },
        ),
      );
    }
  }
  const results = new Array<Record<string, unknown> | undefined>(count);
  const started = new Array<boolean>(count).fill(false);
  /** Each started member's sockets before it consumed them (for rolling back a paused wave). */
  const before = new Array<(Entry[] | undefined)[] | undefined>(count);
  const interrupted = new Map<number, { visit: number; interrupt: ComponentInterrupt }>();
  const active = new Set<AbortController>();
  const runSignal = context.runSignal;
  const abortActive = () => {
    for (const controller of active) controller.abort(runSignal.reason);
  };
  runSignal.addEventListener("abort", abortActive, { once: true });
  let applied = 0;
  let startedCount = 0;
  let running = 0;
  const ordered = context.durable !== undefined;
  let alone = false;
  let failure: { error: unknown } | undefined;
  if (lookahead !== undefined && count > 1) {
    lookahead.beginWave({
      members,
      position,
      started,
      results,
      applied: () => applied,
      allStarted: () => startedCount === count,
    });
  }

  return new Promise<WavePause | undefined>((resolve, reject) => {
    const settleIfDone = () => {
      if (running > 0) return;
      const finish = failure !== undefined || applied === count || runSignal.aborted || interrupted.size > 0;
      if (!finish) return;
      runSignal.removeEventListener("abort", abortActive);
      if (failure !== undefined) reject(failure.error);
      else if (applied === count) resolve(undefined);
      else if (runSignal.aborted) reject(runSignal.reason);
      else resolve(pauseWave(members, applied, state, before, results, interrupted));
    };
    const pause = (index: number, interrupt: ComponentInterrupt) => {
      interrupted.set(index, { visit: state.visits[members[index]!.index]!, interrupt });
    };
    const fail = (error: unknown) => {
      if (failure !== undefined) return;
      failure = { error };
      onFailure(error);
    };
    const finished = (index: number, result: Record<string, unknown>) => {
      results[index] = result;
      try {
        while (applied < count && results[applied] !== undefined && failure === undefined) {
          apply(members[applied]!, results[applied]!);
          applied += 1;
        }
      } catch (error) {
        fail(error);
      }
      if (lookahead !== undefined && failure === undefined && interrupted.size === 0 && applied < count) {
        lookahead.memberFinished(members[index]!);
      }
    };
    const startMore = () => {
      if (failure !== undefined || runSignal.aborted || interrupted.size > 0) return;
      for (let index = applied; index < count && budget.inFlight < budget.limit; index += 1) {
        if (started[index]) continue;
        if (waitFor[index]! >= applied) {
          if (ordered) return;
          continue;
        }
        const ownsSteps = ordered && recordsOwnSteps(members[index]!);
        if (ordered && (alone || (ownsSteps && running > 0))) return;
        if (ownsSteps) alone = true;
        started[index] = true;
        startedCount += 1;
        running += 1;
        budget.inFlight += 1;
        before[index] = state.inputs[members[index]!.index]!.slice();
        const controller = new AbortController();
        active.add(controller);
        runMember(members[index]!, state, controller.signal, context).then(
          (result) => {
            running -= 1;
            budget.inFlight -= 1;
            active.delete(controller);
            if (ownsSteps) alone = false;
            finished(index, result);
            startMore();
            settleIfDone();
          },
          (error: unknown) => {
            running -= 1;
            budget.inFlight -= 1;
            active.delete(controller);
            if (ComponentInterrupt.isInstance(error) && failure === undefined) pause(index, error);
            else fail(error);
            settleIfDone();
          },
        );
      }
    };
    members.forEach((node, index) => {
      const early = carried.get(node);
      if (early === undefined) return;
      started[index] = true;
      startedCount += 1;
      running += 1;
      before[index] = state.inputs[node.index]!.slice();
      state.consume(node);
      state.countVisit(node);
      void early.settled.then(() => {
        running -= 1;
        const outcome = early.outcome!;
        if ("error" in outcome && ComponentInterrupt.isInstance(outcome.error) && failure === undefined)
          pause(index, outcome.error);
        else if ("error" in outcome) fail(outcome.error);
        else if (failure === undefined) finished(index, outcome.result);
        startMore();
        settleIfDone();
      });
    });
    startMore();
    settleIfDone();
  });
}

/** Puts back what `node` consumed and uncounts its visit. */
function rollBack(node: PlanNode, state: RunState, before: readonly (Entry[] | undefined)[]): void {
  const slots = state.inputs[node.index]!;
  for (let index = 0; index < before.length; index++) slots[index] = before[index];
  state.uncountVisit(node);
}

/** Rolls back every member from the first uncommitted one and says how the wave paused. */
function pauseWave(
  members: readonly PlanNode[],
  applied: number,
  state: RunState,
  before: readonly ((Entry[] | undefined)[] | undefined)[],
  results: readonly (Record<string, unknown> | undefined)[],
  interrupted: ReadonlyMap<number, { visit: number; interrupt: ComponentInterrupt }>,
): WavePause {
  const finished = new Map<PlanNode, Record<string, unknown>>();
  const paused = new Map<PlanNode, { visit: number; interrupt: ComponentInterrupt }>();
  for (let index = applied; index < members.length; index++) {
    const node = members[index]!;
    const saved = before[index];
    if (saved === undefined) continue; // never started
    const result = results[index];
    const interrupt = interrupted.get(index);
    if (result !== undefined) finished.set(node, result);
    else if (interrupt !== undefined) paused.set(node, interrupt);
    rollBack(node, state, saved);
  }
  return { members: members.slice(applied), finished, paused };
}

function recordsOwnSteps(node: PlanNode): boolean {
  return getComponentInternals(node.instance).definition.ownsDurableSteps === true;
}

/** Consumes `node`'s inputs, counts the visit and runs it. */
function runMember(
  node: PlanNode,
  state: RunState,
  signal: AbortSignal,
  context: InvokeContext,
): Promise<Record<string, unknown>> {
  const inputs = state.consume(node);
  const visit = state.countVisit(node);
  return runConsumed(node, inputs, visit, signal, context);
}

/** Runs `node` with consumed inputs (`inputs` is filled with defaults and isolated in place). */
export function runConsumed(
  node: PlanNode,
  inputs: Record<string, unknown>,
  visit: number,
  signal: AbortSignal,
  context: InvokeContext,
): Promise<Record<string, unknown>> {
  for (const socket of node.sockets) {
    const value = inputs[socket.name];
    try {
      inputs[socket.name] = value === undefined ? socket.socket.defaultValue() : isolate(value);
    } catch (error) {
      if (!(error instanceof ValueTooDeep)) throw error;
      return Promise.reject(tooDeep(node, socket.name, socket.senders, error));
    }
  }
  return invokeNode(node, inputs, visit, signal, context);
}

function tooDeep(
  node: PlanNode,
  socket: string,
  senders: readonly string[],
  error: ValueTooDeep,
): PipelineRuntimeError {
  const from =
    senders.length === 0 ? "" : ` (from ${senders.map((name) => `"${excerpt(name)}"`).join(", ")})`;
  const deep = error.problem.kind === "too_deep";
  return new PipelineRuntimeError(
    `Pipeline.run: the value sent to "${excerpt(node.name)}.${socket}"${from} ${describeValueProblem(error.problem)}, so "${excerpt(node.name)}" (${node.type}) did not run. ${deep ? "Make the sender return a flatter value, or JSON text (a string)." : "Make the sender return a dense array."}`,
    { componentName: node.name, componentType: node.type, socket: `${node.name}.${socket}` },
    deep ? "PIPELINE_VALUE_TOO_DEEP" : "PIPELINE_SPARSE_ARRAY",
  );
}
