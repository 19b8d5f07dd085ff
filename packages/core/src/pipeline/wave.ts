import { getComponentInternals } from "../component.js";
import { PipelineRuntimeError } from "../errors.js";
import { type InvokeContext, invokeNode } from "./invoke.js";
import { isolate } from "./isolate.js";
import type { Budget, EarlyRun, Lookahead } from "./lookahead.js";
import type { PlanNode } from "./plan.js";
import type { RunState } from "./run-state.js";

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
 * On a durable run members start strictly in wave order (a member never starts before an earlier one),
 * and a member that records its own durable steps (the Agent) runs alone, so the order in which steps
 * start depends only on the run's data — what a journal replay needs.
 */
export function runWave(
  members: readonly PlanNode[],
  state: RunState,
  context: InvokeContext,
  options: WaveOptions,
): Promise<void> {
  const { budget, apply, onFailure, lookahead, carried } = options;
  const count = members.length;
  if (count === 1 && carried.size === 0) {
    const node = members[0]!;
    return runMember(node, state, context.runSignal, context).then((result) => apply(node, result));
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

  return new Promise<void>((resolve, reject) => {
    const settleIfDone = () => {
      if (running > 0) return;
      const finish = failure !== undefined || applied === count || runSignal.aborted;
      if (!finish) return;
      runSignal.removeEventListener("abort", abortActive);
      if (failure !== undefined) reject(failure.error);
      else if (applied === count) resolve();
      else reject(runSignal.reason);
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
      if (lookahead !== undefined && failure === undefined && applied < count) {
        lookahead.memberFinished(members[index]!);
      }
    };
    const startMore = () => {
      if (failure !== undefined || runSignal.aborted) return;
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
            fail(error);
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
      state.consume(node);
      state.countVisit(node);
      void early.settled.then(() => {
        running -= 1;
        const outcome = early.outcome!;
        if ("error" in outcome) fail(outcome.error);
        else if (failure === undefined) finished(index, outcome.result);
        startMore();
        settleIfDone();
      });
    });
    startMore();
    settleIfDone();
  });
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
    inputs[socket.name] = value === undefined ? socket.socket.defaultValue() : isolate(value);
  }
  return invokeNode(node, inputs, visit, signal, context);
}
