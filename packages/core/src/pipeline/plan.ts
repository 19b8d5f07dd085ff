import type { AnyComponent } from "../component/contract.js";
import type { Conversion } from "../sockets/compatibility.js";
import type { InputSocket } from "../sockets/sockets.js";
import { describeType } from "./describe-type.js";
import type { EngineEdge, EngineNode, EngineSocketKind } from "./model.js";
import { topologicalIndex } from "./topology.js";

/**
 * The compiled form of a pipeline's wiring that runs use: dense indices and arrays instead of maps, so a
 * component run touches only its own sockets and its receivers. Rebuilt lazily after the graph changes.
 */

/** One input socket, compiled. */
export interface PlanSocket {
  readonly index: number;
  readonly name: string;
  readonly socket: InputSocket;
  readonly kind: EngineSocketKind;
  readonly autoVariadic: boolean;
  readonly mandatory: boolean;
  /** The sending component of each connection (a name repeats per connection). */
  readonly senders: readonly string[];
  /** How many distinct components send to this socket. */
  readonly distinctSenders: number;
}

/** One connection leaving a component, compiled. */
export interface PlanEdge {
  readonly senderSocket: string;
  readonly receiver: PlanNode;
  readonly receiverSocket: PlanSocket;
  readonly conversion: Conversion | undefined;
}

/** One component, compiled. */
export interface PlanNode {
  readonly index: number;
  readonly name: string;
  readonly instance: AnyComponent;
  readonly type: string;
  readonly sockets: readonly PlanSocket[];
  readonly socketByName: ReadonlyMap<string, PlanSocket>;
  /** True when some input socket has a sender. */
  readonly hasConnectedInputs: boolean;
  /** Outgoing connections in connect order. */
  readonly edges: readonly PlanEdge[];
  /** Distinct receivers, in first-connection order. */
  readonly receivers: readonly PlanNode[];
  /** Distinct senders, in first-connection order. */
  readonly senders: readonly PlanNode[];
  /** The output sockets that are connected (their values are consumed, not reported). */
  readonly connectedOutputs: ReadonlySet<string>;
  /** The declared output socket names. */
  readonly outputNames: ReadonlySet<string>;
  /** Position in the topological order (members of one cycle share it). */
  readonly topologicalIndex: number;
  /** Lower-cased name, the second tiebreak key. */
  readonly lowerName: string;
  /** Input and output specs for tracing (type and senders/receivers per socket). */
  readonly inputSpec: Readonly<Record<string, { type: string; senders: string[] }>>;
  readonly outputSpec: Readonly<Record<string, { type: string; receivers: string[] }>>;
}

/** A compiled pipeline. */
export interface Plan {
  readonly nodes: readonly PlanNode[];
  readonly byName: ReadonlyMap<string, PlanNode>;
}

/** Compiles the socket table. */
export function compilePlan(
  nodes: ReadonlyMap<string, EngineNode>,
  connections: readonly EngineEdge[],
  successors: (name: string) => Iterable<string>,
): Plan {
  const names = [...nodes.keys()];
  const topology = topologicalIndex(names, successors);
  const planNodes: PlanNode[] = [];
  const byName = new Map<string, PlanNode>();
  const pendingEdges = new Map<string, { edges: PlanEdge[]; receivers: PlanNode[]; senders: PlanNode[] }>();
  names.forEach((name, index) => {
    const engine = nodes.get(name)!;
    const sockets: PlanSocket[] = [];
    const socketByName = new Map<string, PlanSocket>();
    const inputSpec: Record<string, { type: string; senders: string[] }> = {};
    for (const input of engine.inputs.values()) {
      const socket: PlanSocket = {
        index: sockets.length,
        name: input.name,
        socket: input.socket,
        kind: input.kind,
        autoVariadic: input.autoVariadic,
        mandatory: input.socket.mandatory,
        senders: [...input.senders],
        distinctSenders: new Set(input.senders).size,
      };
      sockets.push(socket);
      socketByName.set(input.name, socket);
      inputSpec[input.name] = {
        type: describeType(input.socket.schema),
        senders: [...new Set(input.senders)],
      };
    }
    const outputSpec: Record<string, { type: string; receivers: string[] }> = {};
    const connectedOutputs = new Set<string>();
    for (const output of engine.outputs.values()) {
      outputSpec[output.name] = {
        type: describeType(output.socket.schema),
        receivers: [...new Set(output.edges.map((edge) => edge.receiver))],
      };
      if (output.edges.length > 0) connectedOutputs.add(output.name);
    }
    const edges: PlanEdge[] = [];
    const receivers: PlanNode[] = [];
    const senders: PlanNode[] = [];
    const node: PlanNode = {
      index,
      name,
      instance: engine.instance,
      type: engine.instance.type,
      sockets,
      socketByName,
      hasConnectedInputs: sockets.some((socket) => socket.senders.length > 0),
      edges,
      receivers,
      senders,
      connectedOutputs,
      outputNames: new Set(engine.outputs.keys()),
      topologicalIndex: topology.get(name) ?? 0,
      lowerName: name.toLowerCase(),
      inputSpec,
      outputSpec,
    };
    planNodes.push(node);
    byName.set(name, node);
    pendingEdges.set(name, { edges, receivers, senders });
  });
  for (const edge of connections) {
    const { edges, receivers } = pendingEdges.get(edge.sender)!;
    const receiver = byName.get(edge.receiver)!;
    edges.push({
      senderSocket: edge.senderSocket,
      receiver,
      receiverSocket: receiver.socketByName.get(edge.receiverSocket)!,
      conversion: edge.conversion,
    });
    if (!receivers.includes(receiver)) {
      receivers.push(receiver);
      pendingEdges.get(edge.receiver)!.senders.push(byName.get(edge.sender)!);
    }
  }
  return { nodes: planNodes, byName };
}
