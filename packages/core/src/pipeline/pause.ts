import { toInterrupts } from "../durable/decisions.js";
import { fromSnapshotJSON, toSnapshotJSON } from "../durable/value-json.js";
import {
  DeserializationError,
  formatIssues,
  type Issue,
  PipelineValidationError,
  SerializationError,
} from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import type { PipelineOutputs } from "../run/events.js";
import type { ComponentInterrupt, Interrupt } from "../run/interrupt.js";
import type { PipelineSnapshotSection } from "../run/snapshot-schema.js";
import type { OutputSocket } from "../sockets/sockets.js";
import type { Plan, PlanNode, PlanSocket } from "./plan.js";
import type { PreparedInputs } from "./run-inputs.js";
import { type Entry, NO_OUTPUT, RunState } from "./run-state.js";

/**
 * Pausing a pipeline run at a wave boundary, and restoring it. When members of a wave interrupt, the
 * members before the first one that did not commit have committed as usual; every member from there on
 * is rolled back (its consumed inputs put back, its visit not counted). Members that finished keep their
 * outputs (committed, in their place, on resume); the others run again. The state saved equals the state
 * of a run that stopped right after committing that prefix, so the resumed run makes exactly the
 * scheduling decisions, commits and per-visit inputs of an uninterrupted one.
 */

/** How a wave ended when some member interrupted. */
export interface WavePause {
  /** The wave's members from the first one that did not commit, in wave order. */
  readonly members: readonly PlanNode[];
  /** Members of `members` that finished: their outputs. */
  readonly finished: ReadonlyMap<PlanNode, Record<string, unknown>>;
  /** Members that interrupted, with the visit they ran as. */
  readonly paused: ReadonlyMap<PlanNode, { readonly visit: number; readonly interrupt: ComponentInterrupt }>;
}

/** A restored run: its state and where it continues. */
export interface RestoredRun {
  readonly state: RunState;
  readonly outputs: PipelineOutputs;
  readonly wave: readonly PlanNode[];
  readonly finished: ReadonlyMap<PlanNode, Record<string, unknown>>;
  readonly paused: ReadonlyMap<PlanNode, { readonly visit: number; readonly state: unknown }>;
  readonly includeOutputsFrom: ReadonlySet<string>;
}

function encodeOutputs(
  node: PlanNode,
  result: Record<string, unknown>,
  path: (string | number)[],
  issues: Issue[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    if (value === undefined || !node.outputNames.has(key)) continue;
    const json = toSnapshotJSON(value, [...path, key], issues);
    if (json !== undefined) out[key] = json;
  }
  return out;
}

/** The pipeline section of the snapshot, and the run-level interrupts. */
export function pipelineSection(
  plan: Plan,
  state: RunState,
  outputs: PipelineOutputs,
  includeOutputsFrom: ReadonlySet<string>,
  pause: WavePause,
): { section: PipelineSnapshotSection; interrupts: Interrupt[] } {
  const issues: Issue[] = [];
  const sockets: Record<string, Record<string, unknown[]>> = {};
  for (const node of plan.nodes) {
    const slots = state.inputs[node.index]!;
    for (const socket of node.sockets) {
      const entries = slots[socket.index];
      if (entries === undefined) continue;
      const written = entries.map((entry, index) =>
        entry.value === NO_OUTPUT
          ? { from: entry.sender, noOutput: true }
          : {
              from: entry.sender,
              value: toSnapshotJSON(entry.value, [node.name, socket.name, index], issues),
            },
      );
      sockets[node.name] ??= {};
      sockets[node.name]![socket.name] = written;
    }
  }
  const reported: Record<string, Record<string, unknown>> = {};
  for (const [name, values] of Object.entries(outputs)) {
    if (values === undefined) continue;
    reported[name] = encodeOutputs(plan.byName.get(name)!, values, ["outputs", name], issues);
  }
  const finished: Record<string, Record<string, unknown>> = {};
  for (const [node, result] of pause.finished) {
    finished[node.name] = encodeOutputs(node, result, ["finished", node.name], issues);
  }
  if (issues.length > 0) {
    throw new SerializationError(
      `Pipeline.run: the run cannot pause at its interrupt: these values have no JSON form for the snapshot:\n${formatIssues(issues)}\nUse JSON data or named types with fromJSON (defineNamedType) on sockets of pipelines that interrupt.`,
      { issues },
    );
  }
  const visits: Record<string, number> = {};
  for (const node of plan.nodes)
    if (state.visits[node.index]! > 0) visits[node.name] = state.visits[node.index]!;
  const paused: PipelineSnapshotSection["paused"] = {};
  const interrupts: Interrupt[] = [];
  for (const node of pause.members) {
    const entry = pause.paused.get(node);
    if (entry === undefined) continue;
    paused[node.name] = {
      visit: entry.visit,
      ...(entry.interrupt.state === undefined ? {} : { state: entry.interrupt.state }),
    };
    interrupts.push(...toInterrupts(entry.interrupt.interrupts, `${node.name}#${entry.visit}`, [node.name]));
  }
  return {
    section: {
      sockets: sockets as PipelineSnapshotSection["sockets"],
      visits,
      outputs: reported,
      promoted: [...state.promoted].map((socket) => socketAddress(plan, socket)),
      includeOutputsFrom: [...includeOutputsFrom],
      wave: pause.members.map((node) => node.name),
      finished,
      paused,
    },
    interrupts,
  };
}

function socketAddress(plan: Plan, socket: PlanSocket): string {
  for (const node of plan.nodes)
    if (node.sockets[socket.index] === socket) return `${node.name}.${socket.name}`;
  return socket.name;
}

function decodeOutputs(node: PlanNode, values: Record<string, unknown>): Record<string, unknown> {
  const sockets = node.instance.outputSockets as Readonly<Record<string, OutputSocket>>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) out[key] = fromSnapshotJSON(sockets[key]?.schema, value);
  return out;
}

/**
 * Rebuilds a run from a snapshot's pipeline section (untrusted: every name is checked against this
 * pipeline, every problem reported at once).
 *
 * @throws DeserializationError when the section does not fit this pipeline
 */
export function restoreRun(
  plan: Plan,
  section: PipelineSnapshotSection,
  maxRuns: number,
  where: string,
): RestoredRun {
  const issues: Issue[] = [];
  const nodeOf = (name: string, path: (string | number)[]): PlanNode | undefined => {
    const node = plan.byName.get(name);
    if (node === undefined) issues.push({ path, message: `the pipeline has no component "${name}".` });
    return node;
  };
  const promoted = new Set<PlanSocket>();
  for (const address of section.promoted) {
    const [name = "", socketName = ""] = address.split(".");
    const socket = nodeOf(name, ["pipeline", "promoted"])?.socketByName.get(socketName);
    if (socket === undefined)
      issues.push({ path: ["pipeline", "promoted"], message: `no socket "${address}".` });
    else promoted.add(socket);
  }
  const state = new RunState(plan.nodes, promoted, maxRuns);
  for (const [name, sockets] of Object.entries(section.sockets)) {
    const node = nodeOf(name, ["pipeline", "sockets", name]);
    if (node === undefined) continue;
    for (const [socketName, entries] of Object.entries(sockets)) {
      const socket = node.socketByName.get(socketName);
      if (socket === undefined) {
        issues.push({
          path: ["pipeline", "sockets", name, socketName],
          message: `"${name}" has no input "${socketName}".`,
        });
        continue;
      }
      const restored: Entry[] = [];
      entries.forEach((raw, index) => {
        const entry = raw as { from: string | null; value?: unknown; noOutput?: true };
        if (entry.from !== null && !plan.byName.has(entry.from)) {
          issues.push({
            path: ["pipeline", "sockets", name, socketName, index, "from"],
            message: `unknown sender "${entry.from}".`,
          });
          return;
        }
        try {
          const value =
            entry.noOutput === true ? NO_OUTPUT : fromSnapshotJSON(socket.socket.schema, entry.value);
          restored.push({ sender: entry.from, value });
        } catch (error) {
          issues.push({
            path: ["pipeline", "sockets", name, socketName, index],
            message: (error as Error).message,
          });
        }
      });
      state.inputs[node.index]![socket.index] = restored;
    }
  }
  for (const [name, visits] of Object.entries(section.visits)) {
    const node = nodeOf(name, ["pipeline", "visits", name]);
    if (node === undefined) continue;
    state.visits[node.index] = visits;
    if (visits >= maxRuns) state.atLimit.add(node);
  }
  const outputs: PipelineOutputs = {};
  for (const [name, values] of Object.entries(section.outputs)) {
    const node = nodeOf(name, ["pipeline", "outputs", name]);
    if (node !== undefined) outputs[name] = decodeOutputs(node, values);
  }
  const wave = section.wave.flatMap((name, index) => nodeOf(name, ["pipeline", "wave", index]) ?? []);
  const finished = new Map<PlanNode, Record<string, unknown>>();
  for (const [name, values] of Object.entries(section.finished)) {
    const node = nodeOf(name, ["pipeline", "finished", name]);
    if (node !== undefined) finished.set(node, decodeOutputs(node, values));
  }
  const paused = new Map<PlanNode, { visit: number; state: unknown }>();
  for (const [name, entry] of Object.entries(section.paused)) {
    const node = nodeOf(name, ["pipeline", "paused", name]);
    if (node !== undefined) paused.set(node, { visit: entry.visit, state: entry.state });
  }
  for (const node of [...finished.keys(), ...paused.keys()]) {
    if (!wave.includes(node))
      issues.push({ path: ["pipeline", "wave"], message: `"${node.name}" is not in the paused wave.` });
  }
  if (issues.length > 0) {
    throw new DeserializationError(
      `${where}: the snapshot does not fit this pipeline:\n${formatIssues(issues.slice(0, 50))}`,
      {
        issues,
      },
    );
  }
  return { state, outputs, wave, finished, paused, includeOutputsFrom: new Set(section.includeOutputsFrom) };
}

/**
 * The caller's inputs of a run with `durability: "steps"`, as JSON in nested form
 * (`{ component: { socket: value } }`, values as validated), for its start snapshot: a run taken over
 * after a crash starts again from them. A value without a JSON form (a callback) is refused, since the
 * run could not be continued without it.
 */
export function preparedInputsToJSON(prepared: PreparedInputs, where: string): Record<string, unknown> {
  const issues: Issue[] = [];
  const out: Record<string, Record<string, unknown>> = {};
  for (const [node, values] of prepared.values) {
    const sockets: Record<string, unknown> = {};
    for (const [socket, value] of values)
      sockets[socket.name] = toSnapshotJSON(value, [node.name, socket.name], issues);
    out[node.name] = sockets;
  }
  if (issues.length > 0) {
    throw new PipelineValidationError(
      `${where}: durability "steps" keeps the run's inputs in its store so another process can continue it, and some inputs have no JSON form:\n${formatIssues(issues)}\nPass them as data, or run without durability "steps".`,
      { issues },
    );
  }
  return out;
}

/** Reads back what {@link preparedInputsToJSON} wrote (untrusted: every name is checked). */
export function preparedInputsFromJSON(
  plan: Plan,
  json: Readonly<Record<string, unknown>>,
  where: string,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, sockets] of Object.entries(json)) {
    const node = plan.byName.get(name);
    if (node === undefined || typeof sockets !== "object" || sockets === null || Array.isArray(sockets)) {
      throw new DeserializationError(
        `${where}: the run's inputs name "${excerpt(name)}", which is not a component of this pipeline (or not an object of sockets).`,
      );
    }
    const values: Record<string, unknown> = {};
    for (const [socketName, value] of Object.entries(sockets)) {
      const socket = node.socketByName.get(socketName);
      if (socket === undefined) {
        throw new DeserializationError(
          `${where}: the run's inputs name socket "${excerpt(socketName)}" of "${excerpt(name)}", which has no such input.`,
        );
      }
      values[socketName] = fromSnapshotJSON(socket.socket.schema, value);
    }
    out[name] = values;
  }
  return out;
}
