import { formatIssues, type Issue, PipelineValidationError, zodIssues } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { didYouMean } from "../errors/suggest.js";
import { describeValueProblem, describeValueProblemFix } from "../json/value-limits.js";
import { listNames } from "./connect.js";
import { isListSchema } from "./describe-type.js";
import { isolate, ValueTooDeep } from "./isolate.js";
import type { Plan, PlanNode, PlanSocket } from "./plan.js";

/**
 * The pipeline boundary: reads nested (`{ component: { socket: value } }`) or flat (`{ socket: value }`)
 * run inputs, validates them against the socket schemas, and copies them so components cannot mutate
 * the caller's data.
 */

/** How run inputs are written: `"nested"` (`{ component: { socket: value } }`) or `"flat"` (`{ socket: value }`). */
export type InputsFormat = "nested" | "flat";

/** Validated, isolated caller inputs. */
export interface PreparedInputs {
  /** Each component's caller values by socket. */
  readonly values: Map<PlanNode, Map<PlanSocket, unknown>>;
  /** Connected list sockets that also take caller input, promoted to lazy variadic for this run. */
  readonly promoted: Set<PlanSocket>;
  /** The inputs in nested form (for tracing). */
  readonly nested: Record<string, Record<string, unknown>>;
}

/**
 * Decides the form (nested when every top-level key names a component, or when some do and every value
 * is a plain object; flat when none does; `format` forces one), distributes flat keys to every component with an unconnected or variadic socket of that
 * name, and validates. Every problem is collected and thrown once as a `PipelineValidationError`.
 *
 * `trusted` inputs (a SuperComponent's inner run) are neither copied nor parsed again: the enclosing
 * run already checked them against the same socket types, as it does for values passed along a
 * connection, and parsing twice would apply a schema's transforms twice.
 */
export function prepareRunInputs(
  plan: Plan,
  data: unknown,
  format: InputsFormat | undefined,
  trusted = false,
): PreparedInputs {
  if (!isPlainObject(data)) {
    throw new PipelineValidationError(
      "Pipeline.run: inputs must be an object, either nested ({ component: { socket: value } }) or flat ({ socket: value }).",
    );
  }
  const keys = Object.keys(data);
  const issues: Issue[] = [];
  const nested: Record<string, Record<string, unknown>> = {};
  const form = format ?? detectFormat(plan, data, keys);
  if (form === "nested") {
    for (const key of keys) {
      const node = plan.byName.get(key);
      const value = data[key];
      if (node === undefined) {
        issues.push({
          path: [key],
          message: `unknown component "${excerpt(key)}".${didYouMean(key, plan.byName.keys())} Components: ${listNames(plan.nodes.map((entry) => entry.name))}.`,
        });
        continue;
      }
      if (!isPlainObject(value)) {
        issues.push({ path: [key], message: "expected an object of socket values ({ socket: value })." });
        continue;
      }
      const sockets: Record<string, unknown> = {};
      for (const [socketName, socketValue] of Object.entries(value)) {
        if (!node.socketByName.has(socketName)) {
          issues.push({
            path: [key, socketName],
            message: `"${excerpt(key)}" (${node.type}) has no input socket "${excerpt(socketName)}".${didYouMean(socketName, node.socketByName.keys())} Its input sockets: ${listNames(node.sockets.map((socket) => socket.name))}.`,
          });
          continue;
        }
        if (socketValue !== undefined) sockets[socketName] = socketValue;
      }
      nested[key] = sockets;
    }
  } else {
    for (const key of keys) {
      const value = data[key];
      if (value === undefined) continue;
      let matched = false;
      for (const node of plan.nodes) {
        const socket = node.socketByName.get(key);
        if (socket === undefined || (socket.senders.length > 0 && socket.kind === "none")) continue;
        matched = true;
        nested[node.name] ??= {};
        nested[node.name]![key] = value;
      }
      if (!matched) {
        issues.push({
          path: [key],
          message: `no component has an unconnected input socket "${excerpt(key)}".${didYouMean(key, pipelineInputNames(plan))} Pipeline inputs: ${describePipelineInputs(plan)}. Use the nested form ({ component: { socket: value } }) to address a specific component.`,
        });
      }
    }
  }

  const values = new Map<PlanNode, Map<PlanSocket, unknown>>();
  const promoted = new Set<PlanSocket>();
  for (const node of plan.nodes) {
    const given = nested[node.name];
    let nodeValues: Map<PlanSocket, unknown> | undefined;
    for (const socket of node.sockets) {
      const provided = given !== undefined && Object.hasOwn(given, socket.name);
      if (!provided) {
        if (socket.mandatory && socket.senders.length === 0) {
          issues.push({
            path: [node.name, socket.name],
            message: `missing mandatory input "${excerpt(socket.name)}" of "${excerpt(node.name)}" (${node.type}); nothing is connected to it, so the run must provide it.`,
          });
        }
        continue;
      }
      if (socket.senders.length > 0 && socket.kind === "none") {
        if (!isListSchema(socket.socket.schema)) {
          issues.push({
            path: [node.name, socket.name],
            message: loopEntry(plan, node, socket)
              ? `"${excerpt(node.name)}.${socket.name}" is fed by the loop (from ${listNames([...new Set(socket.senders)])}) and cannot also take the run input that starts the loop. Enter a loop through a socket that takes both: declare "${excerpt(socket.name)}" as greedyVariadic(...) in "${excerpt(node.name)}", or put a BranchJoiner in front of it and connect the loop-back value to the joiner (see "Loops" in docs/pipelines.md).`
              : `"${excerpt(node.name)}.${socket.name}" already receives from ${listNames([...new Set(socket.senders)])} and is not a list, so it cannot also take a run input. Remove the connection or feed the value through the sender.`,
          });
          continue;
        }
        promoted.add(socket);
      }
      nodeValues ??= new Map();
      if (trusted) {
        nodeValues.set(socket, given[socket.name]);
        continue;
      }
      const parsed = parseInput(node, socket, given[socket.name], issues);
      if (parsed !== refused) nodeValues.set(socket, parsed);
    }
    if (nodeValues !== undefined) values.set(node, nodeValues);
  }
  if (issues.length > 0) {
    throw new PipelineValidationError(
      `Pipeline.run: invalid inputs (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
      { issues },
    );
  }
  return { values, promoted, nested };
}

const refused = Symbol("refused");

/**
 * Copies a caller's value (bounded by `maxValueDepth`) and parses it with the socket's schema; a
 * problem is recorded in `issues`.
 */
function parseInput(
  node: PlanNode,
  socket: PlanSocket,
  value: unknown,
  issues: Issue[],
): unknown | typeof refused {
  const path = [node.name, socket.name];
  let copy: unknown;
  try {
    copy = isolate(value);
  } catch (error) {
    if (!(error instanceof ValueTooDeep)) throw error;
    issues.push({ path, message: tooDeepMessage(node, socket, error) });
    return refused;
  }
  try {
    const parsed = socket.socket.schema.safeParse(copy);
    if (parsed.success) return parsed.data;
    issues.push(...zodIssues(parsed.error, path));
    return refused;
  } catch (error) {
    // A recursive schema (z.lazy) over a value it cannot finish walking (a cycle, or nesting the schema
    // recurses on several times per level) exhausts the stack inside zod.
    if (!(error instanceof RangeError)) throw error;
    issues.push({
      path,
      message: `the schema of "${excerpt(node.name)}.${socket.name}" (${node.type}) could not validate this value: validation ran out of stack (${error.message}). The value is cyclic or nests too deeply for this recursive schema; pass a smaller value.`,
    });
    return refused;
  }
}

function tooDeepMessage(node: PlanNode, socket: PlanSocket, error: ValueTooDeep): string {
  const fix =
    error.problem.kind === "too_deep"
      ? "Flatten it, or pass it as JSON text (a string) and parse it inside the component."
      : describeValueProblemFix(error.problem);
  return `the value for "${excerpt(node.name)}.${socket.name}" (${node.type}) ${describeValueProblem(error.problem)}. ${fix}`;
}

/** True when a sender of the socket is in the same cycle as its component (the socket is a loop entry). */
function loopEntry(plan: Plan, node: PlanNode, socket: PlanSocket): boolean {
  return socket.senders.some((sender) => plan.byName.get(sender)?.topologicalIndex === node.topologicalIndex);
}

function detectFormat(plan: Plan, data: Record<string, unknown>, keys: readonly string[]): InputsFormat {
  const components = keys.filter((key) => plan.byName.has(key));
  if (components.length === keys.length) return "nested";
  // Evidently nested: every value is an object of socket values and no key is an input socket name
  // (a misspelled component such as { nmu: { value: 3 } }), or some keys name components. The other
  // keys are then unknown components, reported with a did-you-mean and every socket problem.
  const objects = keys.every((key) => isPlainObject(data[key]));
  if (components.length === 0) {
    const inputs = new Set(pipelineInputNames(plan));
    return objects && keys.length > 0 && !keys.some((key) => inputs.has(key)) ? "nested" : "flat";
  }
  if (objects) return "nested";
  const others = keys.filter((key) => !plan.byName.has(key));
  const are = (names: readonly string[]) => (names.length === 1 ? "is" : "are");
  throw new PipelineValidationError(
    `Pipeline.run: cannot tell whether the inputs are nested or flat: ${listNames(components)} ${are(components)} a component name${components.length === 1 ? "" : "s"}, but ${listNames(others)} ${are(others)} not. Write every key as a component name ({ component: { socket: value } }) or every key as a socket name ({ socket: value }), or pass { inputsFormat: "nested" | "flat" }.`,
    {
      issues: others.map((key) => ({
        path: [key],
        message: `not a component name.${didYouMean(key, plan.byName.keys())}`,
      })),
    },
  );
}

function pipelineInputNames(plan: Plan): string[] {
  const names = new Set<string>();
  for (const node of plan.nodes) {
    for (const socket of node.sockets) {
      if (socket.senders.length === 0 || socket.kind !== "none") names.add(socket.name);
    }
  }
  return [...names];
}

function describePipelineInputs(plan: Plan): string {
  return listNames(pipelineInputNames(plan));
}

/** True for `{}`-style objects (not arrays, not class instances). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
