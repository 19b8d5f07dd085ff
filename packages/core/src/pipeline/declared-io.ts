import type { Issue } from "../errors/errors.js";
import { zodIssues } from "../errors/errors.js";
import { didYouMean } from "../errors/suggest.js";
import { declaredInputsSchema, declaredOutputsSchema } from "../serialization/document-schema.js";
import { listNames } from "./connect.js";
import type { Pipeline } from "./pipeline.js";

/**
 * A pipeline's declared inputs and outputs: friendly names callers use instead of the nested
 * `{ component: { socket: value } }` form (the document's optional top-level `inputs` / `outputs`).
 */
export interface DeclaredIO {
  /** Friendly name → `"component.socket"` (or a list: the value goes to each). */
  readonly inputs?: Readonly<Record<string, string | readonly string[]>> | undefined;
  /** Friendly name → `"component.socket"` (or a list: the first that produced a value). */
  readonly outputs?: Readonly<Record<string, string | readonly string[]>> | undefined;
}

/** The socket addresses a declared name maps to, as a list. */
export function declaredTargets(targets: string | readonly string[]): readonly string[] {
  return typeof targets === "string" ? [targets] : targets;
}

function split(address: string): [string, string] {
  const dot = address.indexOf(".");
  return [address.slice(0, dot), address.slice(dot + 1)];
}

/**
 * Checks declared inputs and outputs against the pipeline: every address names an existing socket,
 * inputs are open sockets (nothing connected, or variadic) used by one name only, and when inputs are
 * declared every mandatory open socket is among them (else a run through them could never start).
 *
 * @returns every problem, with paths under `["inputs", …]` / `["outputs", …]`
 */
export function checkDeclaredIO(pipeline: Pipeline, io: DeclaredIO): Issue[] {
  const issues: Issue[] = [];
  if (io.inputs !== undefined) {
    const parsed = declaredInputsSchema.safeParse(io.inputs);
    if (!parsed.success) {
      issues.push(...zodIssues(parsed.error).map((issue) => ({ ...issue, path: ["inputs", ...issue.path] })));
    } else checkInputs(pipeline, io.inputs, issues);
  }
  if (io.outputs !== undefined) {
    const parsed = declaredOutputsSchema.safeParse(io.outputs);
    if (!parsed.success) {
      issues.push(
        ...zodIssues(parsed.error).map((issue) => ({ ...issue, path: ["outputs", ...issue.path] })),
      );
    } else checkOutputs(pipeline, io.outputs, issues);
  }
  return issues;
}

/**
 * The component and socket a declared address names, or `undefined` after reporting what is wrong:
 * an unknown component, or a component without that `side` socket.
 */
function resolveAddress(
  pipeline: Pipeline,
  address: string,
  side: "input" | "output",
  path: Issue["path"],
  issues: Issue[],
): { componentName: string; socket: string } | undefined {
  const [componentName, socket] = split(address);
  const names = pipeline.componentNames();
  if (!names.includes(componentName)) {
    issues.push({
      path,
      message: `unknown component "${componentName}".${didYouMean(componentName, names)} Components: ${listNames(names)}.`,
    });
    return undefined;
  }
  const component = pipeline.getComponent(componentName);
  const sockets = Object.keys(side === "input" ? component.inputSockets : component.outputSockets);
  if (!sockets.includes(socket)) {
    issues.push({
      path,
      message: `"${componentName}" (${component.type}) has no ${side} socket "${socket}".${didYouMean(socket, sockets)} Its ${side} sockets: ${listNames(sockets)}.`,
    });
    return undefined;
  }
  return { componentName, socket };
}

function checkInputs(pipeline: Pipeline, inputs: NonNullable<DeclaredIO["inputs"]>, issues: Issue[]): void {
  const open = pipeline.inputs();
  const usedBy = new Map<string, string>();
  for (const [name, targets] of Object.entries(inputs)) {
    declaredTargets(targets).forEach((address, index) => {
      const path = typeof targets === "string" ? ["inputs", name] : ["inputs", name, index];
      const resolved = resolveAddress(pipeline, address, "input", path, issues);
      if (resolved === undefined) return;
      if (open[resolved.componentName]?.[resolved.socket] === undefined) {
        issues.push({
          path,
          message: `"${address}" is connected to another component's output, so a caller cannot give it. Declare an open input socket.`,
        });
        return;
      }
      const previous = usedBy.get(address);
      if (previous !== undefined) {
        issues.push({
          path,
          message: `"${address}" is already the target of "${previous}". Each socket takes one declared input.`,
        });
        return;
      }
      usedBy.set(address, name);
    });
  }
  for (const [componentName, sockets] of Object.entries(open)) {
    for (const [socket, description] of Object.entries(sockets)) {
      if (description.mandatory && !usedBy.has(`${componentName}.${socket}`)) {
        issues.push({
          path: ["inputs"],
          message: `the mandatory input socket "${componentName}.${socket}" is not declared, so no run through the declared inputs could start. Add it to "inputs".`,
        });
      }
    }
  }
}

function checkOutputs(
  pipeline: Pipeline,
  outputs: NonNullable<DeclaredIO["outputs"]>,
  issues: Issue[],
): void {
  for (const [name, targets] of Object.entries(outputs)) {
    declaredTargets(targets).forEach((address, index) => {
      const path = typeof targets === "string" ? ["outputs", name] : ["outputs", name, index];
      resolveAddress(pipeline, address, "output", path, issues);
    });
  }
}

/** A frozen deep copy of declared IO (arrays copied), so later edits by the caller do not leak in. */
export function freezeDeclaredIO(io: DeclaredIO): DeclaredIO {
  const copy = (map: DeclaredIO["inputs"]) =>
    map === undefined
      ? undefined
      : Object.freeze(
          Object.fromEntries(
            Object.entries(map).map(([name, targets]) => [
              name,
              typeof targets === "string" ? targets : Object.freeze([...targets]),
            ]),
          ),
        );
  return Object.freeze({
    ...(io.inputs !== undefined ? { inputs: copy(io.inputs) } : {}),
    ...(io.outputs !== undefined ? { outputs: copy(io.outputs) } : {}),
  });
}
