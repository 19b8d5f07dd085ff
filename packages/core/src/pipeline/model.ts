import type { AnyComponent } from "../component/contract.js";
import type { Conversion } from "../sockets/compatibility.js";
import type { InputSocket, OutputSocket } from "../sockets/sockets.js";

/**
 * The engine-side socket table of one pipeline.
 *
 * A component's socket descriptions are frozen and may be shared, so everything a pipeline learns while
 * it is wired (senders, receivers, auto-variadic promotion) lives here, per pipeline.
 */

/** One connection, `sender.senderSocket → receiver.receiverSocket`. */
export interface EngineEdge {
  readonly sender: string;
  readonly senderSocket: string;
  readonly receiver: string;
  readonly receiverSocket: string;
  /** Set when values must be converted on the way (e.g. ChatMessage → string). */
  readonly conversion: Conversion | undefined;
}

/** How a socket collects values in this pipeline. */
export type EngineSocketKind = "none" | "lazy" | "greedy";

/** One input socket as wired in this pipeline. */
export interface EngineInputSocket {
  readonly name: string;
  readonly socket: InputSocket;
  /** `"lazy"` for `variadic(...)` sockets and for list sockets promoted by a second sender. */
  kind: EngineSocketKind;
  /** True for a list socket promoted to lazy variadic: incoming lists are concatenated. */
  autoVariadic: boolean;
  /** The sending component of each connection, in connect order (a name repeats per connection). */
  readonly senders: string[];
  /** The connections into this socket, in connect order. */
  readonly edges: EngineEdge[];
}

/** One output socket as wired in this pipeline. */
export interface EngineOutputSocket {
  readonly name: string;
  readonly socket: OutputSocket;
  /** The connections out of this socket, in connect order. */
  readonly edges: EngineEdge[];
}

/** One component as held by a pipeline. */
export interface EngineNode {
  readonly name: string;
  readonly instance: AnyComponent;
  readonly inputs: Map<string, EngineInputSocket>;
  readonly outputs: Map<string, EngineOutputSocket>;
}

/** Builds the node for a component instance. */
export function createEngineNode(name: string, instance: AnyComponent): EngineNode {
  const inputs = new Map<string, EngineInputSocket>();
  for (const socket of Object.values(instance.inputSockets as Record<string, InputSocket>)) {
    inputs.set(socket.name, {
      name: socket.name,
      socket,
      kind: socket.variadic,
      autoVariadic: false,
      senders: [],
      edges: [],
    });
  }
  const outputs = new Map<string, EngineOutputSocket>();
  for (const socket of Object.values(instance.outputSockets as Record<string, OutputSocket>)) {
    outputs.set(socket.name, { name: socket.name, socket, edges: [] });
  }
  return { name, instance, inputs, outputs };
}

/** Splits `"comp.socket"` on the first dot; `"comp"` has no socket. */
export function parseAddress(address: string): { component: string; socket: string | undefined } {
  const dot = address.indexOf(".");
  if (dot === -1) return { component: address, socket: undefined };
  return { component: address.slice(0, dot), socket: address.slice(dot + 1) };
}
