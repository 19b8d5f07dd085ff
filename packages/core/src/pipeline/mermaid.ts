import type { InputSocket } from "../sockets/sockets.js";
import { describeType } from "./describe-type.js";
import type { Pipeline } from "./pipeline.js";

/**
 * Mermaid text for a pipeline: drawn offline (no rendering service), deterministic (components in the order
 * they were added, connections in connect order), safe for any component or socket name (nodes get
 * generated ids; labels are escaped).
 */

/** Escapes text for a quoted mermaid label (mermaid decodes `#name;` / `#code;` entities). */
function escapeLabel(text: string): string {
  return text
    .replace(/#/g, "#35;")
    .replace(/"/g, "#quot;")
    .replace(/</g, "#lt;")
    .replace(/>/g, "#gt;")
    .replace(/\r?\n/g, " ");
}

/** How a receiving socket collects values, as shown next to its name. */
function marks(socket: InputSocket | undefined, kind: string | undefined): string {
  const notes: string[] = [];
  if (kind === "lazy") notes.push("variadic");
  if (kind === "greedy") notes.push("greedy variadic");
  if (socket !== undefined && !socket.mandatory) notes.push("optional");
  return notes.length === 0 ? "" : ` (${notes.join(", ")})`;
}

/**
 * Draws the pipeline as a mermaid flowchart: one box per component (name and type), one edge per
 * connection labelled `out → in` with the socket type, and the pipeline's own inputs and outputs as
 * edges from an `inputs` node and to an `outputs` node. Optional and variadic inputs are marked.
 *
 * @param pipeline - the pipeline to draw
 * @returns mermaid source text
 */
export function pipelineToMermaid(pipeline: Pipeline): string {
  const names = pipeline.componentNames();
  const ids = new Map(names.map((name, index) => [name, `c${index}`] as const));
  const kinds = pipeline.inputs({ includeConnected: true });
  const open = pipeline.inputs();
  const outputs = pipeline.outputs();
  const connections = pipeline.connections();
  const lines = ["flowchart LR"];
  for (const name of names) {
    const component = pipeline.getComponent(name);
    lines.push(`  ${ids.get(name)}["<b>${escapeLabel(name)}</b><br/><i>${escapeLabel(component.type)}</i>"]`);
  }
  const inputEdges: string[] = [];
  const outputEdges: string[] = [];
  for (const name of names) {
    const component = pipeline.getComponent(name);
    const sockets = component.inputSockets as Readonly<Record<string, InputSocket>>;
    // Every input the run may give, as pipeline.inputs() lists them: also variadic sockets that have
    // senders (a loop's entry takes the run input on the first visit and the loop-back value after).
    for (const [socketName, description] of Object.entries(open[name] ?? {})) {
      const head = escapeLabel(`${socketName}${marks(sockets[socketName], description.variadic)}`);
      inputEdges.push(
        `  inputs -- "${head}<br/>${escapeLabel(describeType(description.schema))}" --> ${ids.get(name)}`,
      );
    }
    for (const [socketName, description] of Object.entries(outputs[name] ?? {})) {
      const label = `${escapeLabel(socketName)}<br/>${escapeLabel(describeType(description.schema))}`;
      outputEdges.push(`  ${ids.get(name)} -- "${label}" --> outputs`);
    }
  }
  if (inputEdges.length > 0) lines.push('  inputs(["inputs"])');
  if (outputEdges.length > 0) lines.push('  outputs(["outputs"])');
  lines.push(...inputEdges);
  for (const { sender, receiver } of connections) {
    const from = split(sender);
    const to = split(receiver);
    const senderComponent = pipeline.getComponent(from.name);
    const receiverComponent = pipeline.getComponent(to.name);
    const output = (
      senderComponent.outputSockets as Record<string, { schema: Parameters<typeof describeType>[0] }>
    )[from.socket];
    const input = (receiverComponent.inputSockets as Readonly<Record<string, InputSocket>>)[to.socket];
    const senderType = output === undefined ? "unknown" : describeType(output.schema);
    const receiverType = input === undefined ? "unknown" : describeType(input.schema);
    const type = senderType === receiverType ? senderType : `${senderType} → ${receiverType}`;
    const head = `${escapeLabel(from.socket)} → ${escapeLabel(to.socket)}${escapeLabel(marks(input, kinds[to.name]?.[to.socket]?.variadic))}`;
    lines.push(`  ${ids.get(from.name)} -- "${head}<br/>${escapeLabel(type)}" --> ${ids.get(to.name)}`);
  }
  lines.push(...outputEdges);
  return `${lines.join("\n")}\n`;
}

function split(address: string): { name: string; socket: string } {
  const dot = address.indexOf(".");
  return { name: address.slice(0, dot), socket: address.slice(dot + 1) };
}
