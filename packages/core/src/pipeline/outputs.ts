import { PipelineRuntimeError } from "../errors/errors.js";
import type { PipelineOutputs } from "../run/events.js";
import type { PlanEdge, PlanNode } from "./plan.js";
import { NO_OUTPUT, type RunState } from "./run-state.js";

/** The outcome of converting one output for one connection (cached so a conversion runs once). */
export type Converted = { readonly value: unknown } | { readonly error: unknown };

/**
 * What `edge` delivers for `result`: the value (converted when the connection needs it) or the
 * "produced nothing" marker. A conversion already made for this wave (`cache`) is reused, so a
 * conversion runs once even when the engine looked at the value before writing it.
 *
 * @throws PipelineRuntimeError when the conversion fails
 */
export function edgeValue(
  node: PlanNode,
  edge: PlanEdge,
  result: Record<string, unknown>,
  cache: Map<PlanEdge, Converted> | undefined,
): unknown {
  const value: unknown = result[edge.senderSocket];
  if (value === undefined) return NO_OUTPUT;
  if (edge.conversion === undefined) return value;
  let converted = cache?.get(edge);
  if (converted === undefined) {
    try {
      converted = { value: edge.conversion.convert(value) };
    } catch (error) {
      converted = { error };
    }
    cache?.set(edge, converted);
  }
  if ("value" in converted) return converted.value;
  const error = converted.error;
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

/**
 * Distributes what a component returned: each connection gets the value (converted when the connection
 * needs it) or the "produced nothing" marker; outputs nobody consumes — every output for components in
 * `includeOutputsFrom` — become the run's result (a later run of the same component replaces them).
 * `cache` holds conversions already made for the current wave.
 */
export function applyOutputs(
  node: PlanNode,
  result: Record<string, unknown>,
  state: RunState,
  outputs: PipelineOutputs,
  includeAll: boolean,
  cache?: Map<PlanEdge, Converted>,
): void {
  for (const edge of node.edges) {
    state.write(edge.receiver, edge.receiverSocket, node.name, edgeValue(node, edge, result, cache));
  }
  let reported: Record<string, unknown> | undefined;
  for (const key of Object.keys(result)) {
    const value = result[key];
    if (value === undefined || (!includeAll && node.connectedOutputs.has(key))) continue;
    reported ??= {};
    // Defined, not assigned: a key such as "__proto__" stays a plain entry.
    Object.defineProperty(reported, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (reported !== undefined) outputs[node.name] = reported;
  else if (includeAll) outputs[node.name] = {};
}
