import { excerpt } from "../errors/excerpt.js";
import type { NeverRanReport } from "../run/events.js";
import type { Plan, PlanNode } from "./plan.js";
import { NO_OUTPUT, type RunState } from "./run-state.js";

/**
 * Explains why components did not run: which mandatory socket waits for which sender, and whether that
 * sender never ran or ran without producing the value (an un-taken branch).
 */
export function neverRanReports(plan: Plan, state: RunState): NeverRanReport[] {
  const reports: NeverRanReport[] = [];
  for (const node of plan.nodes) {
    if (state.visits[node.index] === 0)
      reports.push({ componentName: node.name, reason: explain(plan, node, state) });
  }
  return reports;
}

/** One sentence saying why `node` cannot run in the current state. */
export function explain(plan: Plan, node: PlanNode, state: RunState): string {
  const slots = state.inputs[node.index]!;
  const waits: string[] = [];
  for (const socket of node.sockets) {
    if (!socket.mandatory) continue;
    const entries = slots[socket.index] ?? [];
    if (entries.some((entry) => entry.value !== NO_OUTPUT)) continue;
    if (socket.senders.length === 0) {
      waits.push(`mandatory input "${excerpt(socket.name)}" was not provided`);
      continue;
    }
    const parts = [...new Set(socket.senders)].map((sender) => {
      const senderNode = plan.byName.get(sender);
      const ran = senderNode !== undefined && state.visits[senderNode.index]! > 0;
      return ran
        ? `"${excerpt(sender)}" ran but produced no value for it (a branch that was not taken)`
        : `"${excerpt(sender)}" never ran`;
    });
    waits.push(`mandatory input "${excerpt(socket.name)}" is waiting: ${parts.join(", ")}`);
  }
  if (waits.length > 0) return `${waits.join("; ")}.`;
  if (node.hasConnectedInputs) {
    return "it was never triggered: every component connected to it ran without sending it a value.";
  }
  return "it was never triggered.";
}
