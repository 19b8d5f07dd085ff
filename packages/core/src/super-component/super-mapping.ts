import type { z } from "zod";
import type { Issue } from "../errors/errors.js";
import { didYouMean } from "../errors/suggest.js";
import { listNames } from "../pipeline/connect.js";
import { describeType } from "../pipeline/describe-type.js";
import { parseAddress } from "../pipeline/model.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { isStrictlyCompatible } from "../sockets/compat-strict.js";
import { kindWrappers, unwrapSchema } from "../sockets/unwrap.js";

/**
 * How a `SuperComponent`'s sockets map to the sockets of the pipeline it wraps, resolved and checked
 * once at construction.
 */

/** `{ outerInput: ["component.socket", ...] }` (a single address may be given as a string). */
export type InputMapping = Readonly<Record<string, string | readonly string[]>>;

/** `{ "component.socket": "outerOutput" }`. */
export type OutputMapping = Readonly<Record<string, string>>;

/** One inner socket an outer input feeds. */
export interface InnerAddress {
  readonly component: string;
  readonly socket: string;
}

/** One outer input socket. */
export interface MappedInput {
  readonly name: string;
  readonly targets: readonly InnerAddress[];
  /** The outer socket's schema: the common type of the targets, optional only when all of them are. */
  readonly schema: z.ZodType;
}

/** One outer output socket. */
export interface MappedOutput {
  readonly name: string;
  readonly source: InnerAddress;
  readonly schema: z.ZodType;
}

/** The resolved mappings. */
export interface ResolvedMapping {
  readonly inputs: readonly MappedInput[];
  readonly outputs: readonly MappedOutput[];
  /** Components whose mapped outputs are connected inside, so the inner run must report them. */
  readonly includeOutputsFrom: readonly string[];
}

/** The schema without `optional` / `default` / `prefault` / `readonly` wrappers. */
function baseSchema(schema: z.ZodType): z.ZodType {
  return unwrapSchema(schema, kindWrappers);
}

/** The target whose values fit every other target, or `undefined` when none does. */
function commonSchema(schemas: readonly z.ZodType[]): z.ZodType | undefined {
  return schemas.find((candidate) => schemas.every((other) => isStrictlyCompatible(candidate, other)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Resolves and checks the mappings; records every problem in `issues` (paths start with
 * `"inputMapping"` / `"outputMapping"`).
 *
 * Defaults follow the reference: every open input socket name maps to all open sockets of that name;
 * every leaf output maps to its socket name (two leaves with the same socket name are an error naming both).
 */
export function resolveMapping(
  pipeline: Pipeline,
  inputMapping: InputMapping | undefined,
  outputMapping: OutputMapping | undefined,
  issues: Issue[],
): ResolvedMapping {
  return {
    inputs: resolveInputs(pipeline, inputMapping, issues),
    ...resolveOutputs(pipeline, outputMapping, issues),
  };
}

function resolveInputs(
  pipeline: Pipeline,
  mapping: InputMapping | undefined,
  issues: Issue[],
): MappedInput[] {
  const open = pipeline.inputs();
  const entries: [string, string[], (string | number)[]][] = [];
  if (mapping === undefined) {
    const byName = new Map<string, string[]>();
    for (const [component, sockets] of Object.entries(open)) {
      for (const socket of Object.keys(sockets)) {
        byName.set(socket, [...(byName.get(socket) ?? []), `${component}.${socket}`]);
      }
    }
    for (const [name, addresses] of byName) entries.push([name, addresses, ["inputMapping", name]]);
  } else if (!isRecord(mapping)) {
    issues.push({
      path: ["inputMapping"],
      message: 'must be an object { input: ["component.socket", ...] }.',
    });
    return [];
  } else {
    for (const [name, value] of Object.entries(mapping)) {
      const addresses = typeof value === "string" ? [value] : value;
      if (
        !Array.isArray(addresses) ||
        addresses.length === 0 ||
        !addresses.every((a) => typeof a === "string")
      ) {
        issues.push({
          path: ["inputMapping", name],
          message: 'must be a "component.socket" address or a non-empty list of them.',
        });
        continue;
      }
      entries.push([name, addresses, ["inputMapping", name]]);
    }
  }
  const inputs: MappedInput[] = [];
  const mapped = new Set<string>();
  for (const [name, addresses, path] of entries) {
    if (name.trim() === "") {
      issues.push({ path, message: "input names must not be empty." });
      continue;
    }
    const targets: InnerAddress[] = [];
    const schemas: z.ZodType[] = [];
    const descriptions: (string | undefined)[] = [];
    let allOptional = true;
    addresses.forEach((address, index) => {
      const at = mapping === undefined ? path : typeof mapping[name] === "string" ? path : [...path, index];
      const { component, socket } = parseAddress(address);
      const described = socket === undefined ? undefined : open[component]?.[socket];
      if (described === undefined) {
        issues.push({ path: at, message: unknownInput(pipeline, address, component, socket) });
        return;
      }
      if (mapped.has(address)) {
        issues.push({
          path: at,
          message: `"${address}" is mapped from more than one input; map each inner socket from one input only.`,
        });
        return;
      }
      mapped.add(address);
      targets.push({ component, socket: socket! });
      schemas.push(baseSchema(described.schema));
      descriptions.push(described.schema.description ?? baseSchema(described.schema).description);
      if (described.mandatory) allOptional = false;
    });
    if (targets.length !== addresses.length) continue;
    const common = commonSchema(schemas);
    if (common === undefined) {
      issues.push({
        path,
        message: `input "${name}" maps to sockets whose types have no common type: ${targets
          .map((target, index) => `"${target.component}.${target.socket}" (${describeType(schemas[index]!)})`)
          .join(", ")}. Map them from separate inputs.`,
      });
      continue;
    }
    let schema = allOptional ? common.optional() : common;
    // A `.describe()` text on an inner socket (or its wrapper) describes the outer input too.
    const description = descriptions.find((text) => text !== undefined);
    if (description !== undefined && schema.description === undefined) schema = schema.describe(description);
    inputs.push({ name, targets, schema });
  }
  if (mapping !== undefined) {
    for (const [component, sockets] of Object.entries(open)) {
      for (const [socket, described] of Object.entries(sockets)) {
        if (described.mandatory && !mapped.has(`${component}.${socket}`)) {
          issues.push({
            path: ["inputMapping"],
            message: `the mandatory inner input "${component}.${socket}" is not mapped, so the pipeline could never run. Map it from an input, or give the socket a default.`,
          });
        }
      }
    }
  }
  return inputs;
}

function unknownInput(
  pipeline: Pipeline,
  address: string,
  component: string,
  socket: string | undefined,
): string {
  const names = pipeline.componentNames();
  if (!names.includes(component)) {
    return `"${address}" names no component of the pipeline.${didYouMean(component, names)} Components: ${listNames(names)}.`;
  }
  if (socket === undefined) return `"${address}" must name a socket: "component.socket".`;
  const sockets = pipeline.getComponent(component).inputSockets as Record<string, unknown>;
  if (Object.hasOwn(sockets, socket)) {
    return `"${address}" is connected inside the pipeline, so it takes no input from outside. Map an open input socket instead (see pipeline.inputs()).`;
  }
  return `"${component}" has no input socket "${socket}".${didYouMean(socket, Object.keys(sockets))} Its input sockets: ${listNames(Object.keys(sockets))}.`;
}

function resolveOutputs(
  pipeline: Pipeline,
  mapping: OutputMapping | undefined,
  issues: Issue[],
): Pick<ResolvedMapping, "outputs" | "includeOutputsFrom"> {
  const outputs: MappedOutput[] = [];
  const byName = new Map<string, string>();
  const include = new Set<string>();
  const add = (address: string, name: string, path: (string | number)[]) => {
    const { component, socket } = parseAddress(address);
    const names = pipeline.componentNames();
    if (!names.includes(component) || socket === undefined) {
      issues.push({
        path,
        message: `"${address}" must be "component.socket" with a component of the pipeline.${names.includes(component) ? "" : didYouMean(component, names)} Components: ${listNames(names)}.`,
      });
      return;
    }
    const node = pipeline.getComponent(component);
    const sockets = node.outputSockets as Record<string, { schema: z.ZodType }>;
    if (!Object.hasOwn(sockets, socket)) {
      issues.push({
        path,
        message: `"${component}" has no output socket "${socket}".${didYouMean(socket, Object.keys(sockets))} Its output sockets: ${listNames(Object.keys(sockets))}.`,
      });
      return;
    }
    if (typeof name !== "string" || name.trim() === "") {
      issues.push({ path, message: "must be the name of an output (a non-empty string)." });
      return;
    }
    const previous = byName.get(name);
    if (previous !== undefined) {
      issues.push({
        path,
        message: `"${previous}" and "${address}" both map to output "${name}". Give them different names${mapping === undefined ? " with an outputMapping" : ""}.`,
      });
      return;
    }
    byName.set(name, address);
    outputs.push({ name, source: { component, socket }, schema: sockets[socket]!.schema });
  };
  if (mapping === undefined) {
    for (const [component, sockets] of Object.entries(pipeline.outputs())) {
      for (const socket of Object.keys(sockets)) add(`${component}.${socket}`, socket, ["outputMapping"]);
    }
  } else if (!isRecord(mapping)) {
    issues.push({ path: ["outputMapping"], message: 'must be an object { "component.socket": "output" }.' });
  } else {
    const leaves = pipeline.outputs();
    for (const [address, name] of Object.entries(mapping)) {
      add(address, name, ["outputMapping", address]);
      const { component, socket } = parseAddress(address);
      if (socket !== undefined && leaves[component]?.[socket] === undefined && byName.get(name) === address)
        include.add(component);
    }
  }
  return { outputs, includeOutputsFrom: [...include] };
}
