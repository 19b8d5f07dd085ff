import { PipelineConnectError } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { didYouMean } from "../errors/suggest.js";
import { type Compatibility, checkCompatibility } from "../sockets/compatibility.js";
import { describeType, isListSchema } from "./describe-type.js";
import {
  type EngineEdge,
  type EngineInputSocket,
  type EngineNode,
  type EngineOutputSocket,
  parseAddress,
} from "./model.js";

/**
 * `Pipeline.connect`: the reference's candidate selection (every compatible socket pair; strict
 * matches beat conversions; then equal names), auto-variadic promotion, and every error case.
 */

interface Candidate {
  readonly output: EngineOutputSocket;
  readonly input: EngineInputSocket;
  readonly compatibility: Compatibility;
}

/**
 * Resolves `sender` → `receiver` to one socket pair and wires it into the socket table.
 *
 * @returns the new edge, or `undefined` when the same pair is already connected (a no-op)
 */
export function connectSockets(
  nodes: ReadonlyMap<string, EngineNode>,
  sender: string,
  receiver: string,
  typeValidation: boolean,
): EngineEdge | undefined {
  const from = parseAddress(sender);
  const to = parseAddress(receiver);
  if (from.component === to.component) {
    throw new PipelineConnectError(
      `Pipeline.connect: cannot connect "${excerpt(from.component)}" to itself. A loop needs at least two components; route the value back through another component such as a BranchJoiner.`,
      { componentName: from.component },
    );
  }
  const senderNode = requireNode(nodes, from.component, "sender");
  const receiverNode = requireNode(nodes, to.component, "receiver");
  if (senderNode.outputs.size === 0) {
    throw new PipelineConnectError(
      `Pipeline.connect: "${excerpt(from.component)}" (${senderNode.instance.type}) has no output sockets, so it cannot send anything. Declare \`outputs\` in its defineComponent call.`,
      { componentName: from.component, componentType: senderNode.instance.type },
    );
  }
  const outputs = pickSockets(senderNode, senderNode.outputs, from.socket, "output");
  const inputs = pickSockets(receiverNode, receiverNode.inputs, to.socket, "input");

  let candidates: Candidate[] = [];
  for (const output of outputs) {
    for (const input of inputs) {
      const compatibility = typeValidation
        ? checkCompatibility(output.socket.schema, input.socket.schema)
        : { compatible: true };
      if (compatibility.compatible) candidates.push({ output, input, compatibility });
    }
  }
  if (candidates.length > 1 && typeValidation) {
    const strict = candidates.filter((candidate) => candidate.compatibility.conversion === undefined);
    if (strict.length > 0) candidates = strict;
  }
  const status = () => connectionStatus(senderNode, outputs, receiverNode, inputs);
  if (candidates.length === 0) {
    const what =
      outputs.length === 1 && inputs.length === 1
        ? `cannot connect "${excerpt(from.component)}.${outputs[0]!.name}" (${describeType(outputs[0]!.socket.schema)}) to "${excerpt(to.component)}.${inputs[0]!.name}" (${describeType(inputs[0]!.socket.schema)}): their types do not match.`
        : `cannot connect "${excerpt(from.component)}" to "${excerpt(to.component)}": no output socket of "${excerpt(from.component)}" matches an input socket of "${excerpt(to.component)}" by type.`;
    throw new PipelineConnectError(
      `Pipeline.connect: ${what} Connect sockets whose types match, or put a converting component in between.\n${status()}`,
      { componentName: to.component, socket: `${from.component}.${from.socket ?? "*"}` },
    );
  }
  let chosen = candidates[0]!;
  if (candidates.length > 1) {
    const byName = candidates.filter((candidate) => candidate.output.name === candidate.input.name);
    if (byName.length !== 1) {
      throw new PipelineConnectError(
        `Pipeline.connect: more than one connection between "${excerpt(from.component)}" and "${excerpt(to.component)}" is possible (${candidates
          .map(
            (candidate) =>
              `"${excerpt(from.component)}.${candidate.output.name}" → "${excerpt(to.component)}.${candidate.input.name}"`,
          )
          .join(
            ", ",
          )}). Name the sockets, for example pipeline.connect("${excerpt(from.component)}.${chosen.output.name}", "${excerpt(to.component)}.${chosen.input.name}").\n${status()}`,
        { componentName: to.component },
      );
    }
    chosen = byName[0]!;
  }
  const { output, input, compatibility } = chosen;
  if (input.edges.some((edge) => edge.sender === from.component && edge.senderSocket === output.name)) {
    return undefined;
  }
  if (input.senders.length > 0 && input.kind === "none") {
    if (!isListSchema(input.socket.schema)) {
      throw new PipelineConnectError(
        `Pipeline.connect: socket "${excerpt(to.component)}.${input.name}" already has a sender ("${excerpt(input.edges[0]!.sender)}.${input.edges[0]!.senderSocket}") and is not a list (${describeType(input.socket.schema)}), so it cannot take a second sender "${excerpt(from.component)}.${output.name}". Connect both through a BranchJoiner, or declare "${excerpt(input.name)}" as variadic(...) or a list.`,
        {
          componentName: to.component,
          componentType: receiverNode.instance.type,
          socket: `${to.component}.${input.name}`,
        },
      );
    }
    input.kind = "lazy";
    input.autoVariadic = true;
  }
  const edge: EngineEdge = {
    sender: from.component,
    senderSocket: output.name,
    receiver: to.component,
    receiverSocket: input.name,
    conversion: compatibility.conversion,
  };
  output.edges.push(edge);
  input.edges.push(edge);
  input.senders.push(from.component);
  return edge;
}

/** Removes the edges of `name` from its neighbours and undoes auto-variadic promotions left with ≤ 1 sender. */
export function disconnectNode(nodes: ReadonlyMap<string, EngineNode>, node: EngineNode): void {
  for (const input of node.inputs.values()) {
    for (const edge of input.edges) {
      const output = nodes.get(edge.sender)?.outputs.get(edge.senderSocket);
      if (output !== undefined) removeEdge(output.edges, edge);
    }
  }
  for (const output of node.outputs.values()) {
    for (const edge of output.edges) {
      const input = nodes.get(edge.receiver)?.inputs.get(edge.receiverSocket);
      if (input === undefined) continue;
      removeEdge(input.edges, edge);
      const index = input.senders.indexOf(edge.sender);
      if (index !== -1) input.senders.splice(index, 1);
      if (input.autoVariadic && input.senders.length <= 1) {
        input.kind = "none";
        input.autoVariadic = false;
      }
    }
  }
}

function removeEdge(edges: EngineEdge[], edge: EngineEdge): void {
  const index = edges.indexOf(edge);
  if (index !== -1) edges.splice(index, 1);
}

function requireNode(nodes: ReadonlyMap<string, EngineNode>, name: string, role: string): EngineNode {
  const node = nodes.get(name);
  if (node === undefined) {
    throw new PipelineConnectError(
      `Pipeline.connect: ${role} component "${excerpt(name)}" is not in the pipeline.${didYouMean(name, nodes.keys())} Components: ${listNames([...nodes.keys()])}. Add it with addComponent("${excerpt(name)}", ...) first.`,
      { componentName: name },
    );
  }
  return node;
}

function pickSockets<T extends { name: string; socket: { schema: import("zod").z.ZodType } }>(
  node: EngineNode,
  sockets: ReadonlyMap<string, T>,
  name: string | undefined,
  direction: "input" | "output",
): T[] {
  if (name === undefined) return [...sockets.values()];
  const socket = sockets.get(name);
  if (socket === undefined) {
    throw new PipelineConnectError(
      `Pipeline.connect: "${excerpt(node.name)}" (${node.instance.type}) has no ${direction} socket "${excerpt(name)}".${didYouMean(name, sockets.keys())} Its ${direction} sockets: ${
        [...sockets.values()]
          .map((entry) => `"${excerpt(entry.name)}" (${describeType(entry.socket.schema)})`)
          .join(", ") || "none"
      }.`,
      { componentName: node.name, componentType: node.instance.type, socket: `${node.name}.${name}` },
    );
  }
  return [socket];
}

function connectionStatus(
  senderNode: EngineNode,
  outputs: readonly EngineOutputSocket[],
  receiverNode: EngineNode,
  inputs: readonly EngineInputSocket[],
): string {
  const senderLines = outputs.map((output) => `  - ${output.name}: ${describeType(output.socket.schema)}`);
  const receiverLines = inputs.map((input) => {
    const kind = input.kind === "none" ? "" : ` ${input.kind === "greedy" ? "greedy " : ""}variadic,`;
    const state =
      input.edges.length === 0
        ? "available"
        : `sent by ${input.edges.map((edge) => `${edge.sender}.${edge.senderSocket}`).join(", ")}`;
    return `  - ${input.name}: ${describeType(input.socket.schema)} (${kind.trim()}${kind ? " " : ""}${state})`;
  });
  return `"${excerpt(senderNode.name)}" outputs:\n${senderLines.join("\n")}\n"${excerpt(receiverNode.name)}" inputs:\n${receiverLines.join("\n")}`;
}

/** Formats names as `"a", "b"` (or `none`): at most 20, each a bounded excerpt. */
export function listNames(names: readonly string[]): string {
  if (names.length === 0) return "none";
  const shown = names.slice(0, 20).map((name) => `"${excerpt(name)}"`);
  return names.length > 20 ? `${shown.join(", ")} and ${names.length - 20} more` : shown.join(", ");
}
