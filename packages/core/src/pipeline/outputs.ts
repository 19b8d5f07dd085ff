import { PipelineRuntimeError } from "../errors.js";
import type { PipelineOutputs } from "./events.js";
import type { PlanNode } from "./plan.js";
import { NO_OUTPUT, type RunState } from "./run-state.js";

/**
 * Distributes what a component returned: each connection gets the value (converted when the connection
 * needs it) or the "produced nothing" marker; outputs nobody consumes — every output for components in
 * `includeOutputsFrom` — become the run's result (a later run of the same component replaces them).
 */
export function applyOutputs(
  node: PlanNode,
  result: Record<string, unknown>,
  state: RunState,
  outputs: PipelineOutputs,
  includeAll: boolean,
): void {
  for (const edge of node.edges) {
    let value: unknown = result[edge.senderSocket];
    if (value === undefined) value = NO_OUTPUT;
    else if (edge.conversion !== undefined) {
      try {
        value = edge.conversion.convert(value);
      } catch (error) {
        throw new PipelineRuntimeError(
          `Pipeline.run: could not convert the value of "${node.name}.${edge.senderSocket}" for "${edge.receiver.name}.${edge.receiverSocket.name}" (conversion "${edge.conversion.name}"): ${error instanceof Error ? error.message : String(error)}`,
          {
            componentName: node.name,
            componentType: node.type,
            socket: `${node.name}.${edge.senderSocket}`,
            cause: error,
          },
        );
      }
    }
    state.write(edge.receiver, edge.receiverSocket, node.name, value);
  }
  let reported: Record<string, unknown> | undefined;
  for (const key of Object.keys(result)) {
    const value = result[key];
    if (value === undefined || (!includeAll && node.connectedOutputs.has(key))) continue;
    reported ??= {};
    reported[key] = value;
  }
  if (reported !== undefined) outputs[node.name] = reported;
  else if (includeAll) outputs[node.name] = {};
}
