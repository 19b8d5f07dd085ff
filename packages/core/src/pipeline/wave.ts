import { type InvokeContext, invokeNode } from "./invoke.js";
import { isolate } from "./isolate.js";
import type { PlanNode } from "./plan.js";
import type { RunState } from "./run-state.js";

/**
 * Runs one wave: the components that were runnable at one scheduling point, in their scheduling order
 * (priority, then name). The result is exactly that of running them one after another in that order:
 *
 * - a member consumes its inputs when it starts; a member that receives from an earlier member of the
 *   same wave starts only after that sender's outputs are written (otherwise members start at once, up
 *   to `concurrency`);
 * - outputs are written in scheduling order, whatever order the members finish in, so the order of the
 *   values a lazy variadic socket collects never depends on timing.
 *
 * Each member of a multi-member wave gets its own signal, aborted when the run is aborted (a failing
 * sibling, the caller's signal, an abandoned stream); a lone member gets the run's signal itself.
 */
export function runWave(
  members: readonly PlanNode[],
  state: RunState,
  context: InvokeContext,
  concurrency: number,
  apply: (node: PlanNode, result: Record<string, unknown>) => void,
  onFailure: (error: unknown) => void,
): Promise<void> {
  const count = members.length;
  if (count === 1) {
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
  const results = new Array<Record<string, unknown> | undefined>(count);
  const started = new Array<boolean>(count).fill(false);
  const active = new Set<AbortController>();
  const runSignal = context.runSignal;
  const abortActive = () => {
    for (const controller of active) controller.abort(runSignal.reason);
  };
  runSignal.addEventListener("abort", abortActive, { once: true });
  let applied = 0;
  let running = 0;
  let failure: { error: unknown } | undefined;

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
    const startMore = () => {
      if (failure !== undefined || runSignal.aborted) return;
      for (let index = applied; index < count && running < concurrency; index += 1) {
        if (started[index] || waitFor[index]! >= applied) continue;
        started[index] = true;
        running += 1;
        const controller = new AbortController();
        active.add(controller);
        runMember(members[index]!, state, controller.signal, context).then(
          (result) => {
            running -= 1;
            active.delete(controller);
            results[index] = result;
            try {
              while (applied < count && results[applied] !== undefined && failure === undefined) {
                apply(members[applied]!, results[applied]!);
                applied += 1;
              }
            } catch (error) {
              fail(error);
            }
            startMore();
            settleIfDone();
          },
          (error: unknown) => {
            running -= 1;
            active.delete(controller);
            fail(error);
            settleIfDone();
          },
        );
      }
    };
    startMore();
    settleIfDone();
  });
}

/** Consumes `node`'s inputs, fills defaults, counts the visit and runs it. */
function runMember(
  node: PlanNode,
  state: RunState,
  signal: AbortSignal,
  context: InvokeContext,
): Promise<Record<string, unknown>> {
  const inputs = state.consume(node);
  for (const socket of node.sockets) {
    const value = inputs[socket.name];
    inputs[socket.name] = value === undefined ? socket.socket.defaultValue() : isolate(value);
  }
  const visit = state.visits[node.index]! + 1;
  state.visits[node.index] = visit;
  return invokeNode(node, inputs, visit, signal, context);
}
