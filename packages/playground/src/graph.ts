import { type AnyComponent, describeType, type Pipeline } from "@junction/core";

/**
 * The picture of a pipeline the playground draws: components in layers (sources left, sinks right),
 * their sockets with types, and connections with the edges that close loops marked.
 */

/** One socket as the page shows it on hover. */
export interface GraphSocket {
  /** The socket's name. */
  readonly name: string;
  /** A readable type (`string`, `ChatMessage[]`, …). */
  readonly type: string;
  /** For inputs: true when a run cannot start the component without it. */
  readonly mandatory?: boolean;
  /** For inputs: `"none"`, `"lazy"` or `"greedy"` (variadic kinds). */
  readonly variadic?: string;
  /** For inputs: true when nothing is connected to it (a run input). */
  readonly open?: boolean;
}

/** What kind of node the page draws (routers and joiners look different). */
export type GraphNodeKind = "router" | "joiner" | "agent" | "generator" | "component";

/** One component. */
export interface GraphNode {
  /** Its name in the pipeline. */
  readonly name: string;
  /** Its registered type. */
  readonly type: string;
  /** How the page draws it. */
  readonly kind: GraphNodeKind;
  /** Its column, counted from the sources (back edges ignored). */
  readonly layer: number;
  /** Its row in the column. */
  readonly row: number;
  /** Input sockets. */
  readonly inputs: readonly GraphSocket[];
  /** Output sockets. */
  readonly outputs: readonly GraphSocket[];
}

/** One connection. */
export interface GraphEdge {
  /** `"component.socket"` of the sender. */
  readonly sender: string;
  /** `"component.socket"` of the receiver. */
  readonly receiver: string;
  /** True when this edge goes back to an earlier component and so closes a loop. */
  readonly loop: boolean;
}

/** The whole picture. */
export interface PipelineGraph {
  /** Components, in the order they were added. */
  readonly nodes: readonly GraphNode[];
  /** Connections, in connect order. */
  readonly edges: readonly GraphEdge[];
}

function kindOf(type: string): GraphNodeKind {
  const last = type.slice(type.lastIndexOf(".") + 1);
  if (last.endsWith("Router")) return "router";
  if (last.endsWith("Joiner")) return "joiner";
  if (last === "Agent") return "agent";
  if (last.endsWith("Generator")) return "generator";
  return "component";
}

function componentOf(name: string): string {
  return name.slice(0, name.indexOf("."));
}

/**
 * Finds the edges that close loops: a depth-first walk from the components with no senders (then any
 * unvisited one, in insertion order); an edge into a component still on the walk's stack goes back.
 */
function backEdges(names: readonly string[], edges: readonly { from: string; to: string }[]): Set<number> {
  const outgoing = new Map<string, number[]>(names.map((name) => [name, []]));
  const hasSender = new Set<string>();
  edges.forEach((edge, index) => {
    outgoing.get(edge.from)?.push(index);
    if (edge.from !== edge.to) hasSender.add(edge.to);
  });
  const state = new Map<string, "open" | "done">();
  const back = new Set<number>();
  const visit = (start: string): void => {
    // An explicit stack: pipelines loaded from documents may be deep.
    const stack: { name: string; next: number }[] = [{ name: start, next: 0 }];
    state.set(start, "open");
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const out = outgoing.get(top.name) ?? [];
      if (top.next >= out.length) {
        state.set(top.name, "done");
        stack.pop();
        continue;
      }
      const index = out[top.next++]!;
      const target = edges[index]!.to;
      const seen = state.get(target);
      if (seen === "open") back.add(index);
      else if (seen === undefined) {
        state.set(target, "open");
        stack.push({ name: target, next: 0 });
      }
    }
  };
  for (const name of names) if (!hasSender.has(name) && !state.has(name)) visit(name);
  for (const name of names) if (!state.has(name)) visit(name);
  return back;
}

/** Longest-path layers over the forward edges. */
function layers(
  names: readonly string[],
  forward: readonly { from: string; to: string }[],
): Map<string, number> {
  const incoming = new Map<string, number>(names.map((name) => [name, 0]));
  const outgoing = new Map<string, string[]>(names.map((name) => [name, []]));
  for (const edge of forward) {
    incoming.set(edge.to, (incoming.get(edge.to) ?? 0) + 1);
    outgoing.get(edge.from)?.push(edge.to);
  }
  const layer = new Map<string, number>(names.map((name) => [name, 0]));
  const ready = names.filter((name) => incoming.get(name) === 0);
  while (ready.length > 0) {
    const name = ready.shift()!;
    for (const next of outgoing.get(name) ?? []) {
      layer.set(next, Math.max(layer.get(next) ?? 0, (layer.get(name) ?? 0) + 1));
      const left = (incoming.get(next) ?? 1) - 1;
      incoming.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  return layer;
}

function sockets(component: AnyComponent, openInputs: ReadonlySet<string>) {
  const inputs = Object.values(component.inputSockets).map((socket) => ({
    name: socket.name,
    type: describeType(socket.schema),
    mandatory: socket.mandatory,
    variadic: socket.variadic,
    open: openInputs.has(socket.name),
  }));
  const outputs = Object.values(component.outputSockets).map((socket) => ({
    name: socket.name,
    type: describeType(socket.schema),
  }));
  return { inputs, outputs };
}

/**
 * Describes a pipeline for drawing.
 *
 * @param pipeline - the pipeline
 * @returns nodes with layers and sockets, and edges with loops marked
 */
export function describeGraph(pipeline: Pipeline): PipelineGraph {
  const names = pipeline.componentNames();
  const connections = pipeline.connections();
  const plain = connections.map((edge) => ({
    from: componentOf(edge.sender),
    to: componentOf(edge.receiver),
  }));
  const back = backEdges(names, plain);
  const layer = layers(
    names,
    plain.filter((_, index) => !back.has(index)),
  );
  const open = pipeline.inputs();
  const rows = new Map<number, number>();
  const nodes = names.map((name) => {
    const component = pipeline.getComponent(name);
    const column = layer.get(name) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    return {
      name,
      type: component.type,
      kind: kindOf(component.type),
      layer: column,
      row,
      ...sockets(component, new Set(Object.keys(open[name] ?? {}))),
    };
  });
  const edges = connections.map((edge, index) => ({ ...edge, loop: back.has(index) }));
  return { nodes, edges };
}
