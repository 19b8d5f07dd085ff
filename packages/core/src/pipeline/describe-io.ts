import type { z } from "zod";
import type { EngineNode, EngineSocketKind } from "./model.js";

/** How a pipeline describes its open sockets and its connections (`inputs()`, `outputs()`, `connections()`). */

/** One pipeline input socket as described by `Pipeline.inputs`. */
export interface PipelineInputDescription {
  /** The socket's schema (for variadic sockets, of one element). */
  readonly schema: z.ZodType;
  /** True when the run must provide it (nothing is connected and it has no default). */
  readonly mandatory: boolean;
  /** How the socket collects values in this pipeline (`"lazy"` also for promoted list sockets). */
  readonly variadic: EngineSocketKind;
  /** The default, when the socket has one. */
  readonly defaultValue?: unknown;
}

/** One pipeline output socket as described by `Pipeline.outputs`. */
export interface PipelineOutputDescription {
  /** The socket's schema. */
  readonly schema: z.ZodType;
}

/** One connection as listed by `Pipeline.connections`. */
export interface PipelineConnection {
  /** `"component.socket"` of the sender. */
  readonly sender: string;
  /** `"component.socket"` of the receiver. */
  readonly receiver: string;
}

/** The input sockets a run can give, per component (see `Pipeline.inputs`). */
export function describeInputs(
  nodes: Iterable<EngineNode>,
  includeConnected: boolean,
): Record<string, Record<string, PipelineInputDescription>> {
  const result: Record<string, Record<string, PipelineInputDescription>> = {};
  for (const node of nodes) {
    const sockets: Record<string, PipelineInputDescription> = {};
    for (const input of node.inputs.values()) {
      if (!includeConnected && input.senders.length > 0 && input.kind === "none") continue;
      sockets[input.name] = {
        schema: input.socket.schema,
        mandatory: input.socket.mandatory && input.senders.length === 0,
        variadic: input.kind,
        ...(input.socket.hasDefault ? { defaultValue: input.socket.defaultValue() } : {}),
      };
    }
    if (Object.keys(sockets).length > 0) result[node.name] = sockets;
  }
  return result;
}

/** The output sockets a run reports, per component (see `Pipeline.outputs`). */
export function describeOutputs(
  nodes: Iterable<EngineNode>,
  includeConnected: boolean,
): Record<string, Record<string, PipelineOutputDescription>> {
  const result: Record<string, Record<string, PipelineOutputDescription>> = {};
  for (const node of nodes) {
    const sockets: Record<string, PipelineOutputDescription> = {};
    for (const output of node.outputs.values()) {
      if (!includeConnected && output.edges.length > 0) continue;
      sockets[output.name] = { schema: output.socket.schema };
    }
    if (Object.keys(sockets).length > 0) result[node.name] = sockets;
  }
  return result;
}
