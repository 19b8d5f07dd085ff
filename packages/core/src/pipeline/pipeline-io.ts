import type { z } from "zod";
import { formatIssues, type Issue, PipelineValidationError } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import type { PipelineOutputs } from "../run/events.js";
import { decodeWireValue, wireJSONSchema } from "../sockets/wire-schema.js";
import { declaredTargets } from "./declared-io.js";
import type { Pipeline } from "./pipeline.js";

/**
 * A pipeline as a remote caller sees it (HTTP, MCP, the command line): the JSON Schemas of the request
 * and the response, and the translation between that JSON and `Pipeline.run`. With declared inputs or
 * outputs (`Pipeline.declareIO`, the document's `inputs` / `outputs`) the friendly names are used;
 * otherwise the nested form `{ component: { socket: value } }`.
 */

/** One value a caller gives or receives. */
export interface PipelineIOField {
  /** Where it sits in the request or response: `[name]` when declared, `[component, socket]` when nested. */
  readonly path: readonly string[];
  /** The socket addresses behind it (`"component.socket"`). */
  readonly sockets: readonly string[];
  /** The socket schema (of the first socket). */
  readonly schema: z.ZodType;
  /** True when a request must give it. Always false for outputs. */
  readonly mandatory: boolean;
  /** Its wire JSON Schema, or `undefined` when it cannot travel as JSON (it is then left out). */
  readonly jsonSchema: Record<string, unknown> | undefined;
}

/** What {@link describePipelineIO} returns. */
export interface PipelineIO {
  /** True when the pipeline declares its inputs (else the request is nested). */
  readonly declaredInputs: boolean;
  /** True when the pipeline declares its outputs (else the response is nested). */
  readonly declaredOutputs: boolean;
  /** Every input a caller may give (sockets that cannot travel as JSON are left out). */
  readonly inputs: readonly PipelineIOField[];
  /** Every output a caller receives. */
  readonly outputs: readonly PipelineIOField[];
  /** JSON Schema (draft 2020-12) of the request object. */
  readonly inputSchema: Record<string, unknown>;
  /** JSON Schema (draft 2020-12) of the response object. */
  readonly outputSchema: Record<string, unknown>;
  /** The components whose outputs must be collected for the declared outputs (pass to `run`). */
  readonly includeOutputsFrom: readonly string[];
  /**
   * Turns a request object into nested run inputs, decoding named types from their wire form.
   *
   * @throws PipelineValidationError listing unknown names and values that cannot be decoded
   */
  toRunInputs(request: unknown): Record<string, Record<string, unknown>>;
  /** Picks the response from a run's outputs (declared names, or the nested outputs unchanged). */
  fromRunOutputs(outputs: PipelineOutputs): Record<string, unknown>;
}

const anyJSON = { description: "Any JSON value (the socket's type has no JSON Schema)." };

/**
 * Describes a pipeline for remote callers. Fails when a **mandatory** input socket cannot travel as
 * JSON (a `Tools` list, a callback, a class without a wire form), naming the socket; optional ones are
 * left out of the request.
 *
 * @param pipeline - the pipeline
 * @param options - `where`: the prefix of error messages (e.g. `serve: pipeline "chat"`)
 * @throws PipelineValidationError naming every mandatory socket that cannot travel as JSON, or
 *   declared inputs/outputs that no longer fit the pipeline
 * @example
 * ```ts
 * const io = describePipelineIO(pipeline);
 * const outputs = await pipeline.run(io.toRunInputs({ question: "Hi" }), { includeOutputsFrom: [...io.includeOutputsFrom] });
 * const response = io.fromRunOutputs(outputs);
 * ```
 */
export function describePipelineIO(pipeline: Pipeline, options: { where?: string } = {}): PipelineIO {
  const where = options.where ?? "describePipelineIO";
  const declared = pipeline.declaredIO();
  const open = pipeline.inputs();
  const issues: Issue[] = [];
  const inputs: PipelineIOField[] = [];

  const inputField = (path: string[], sockets: readonly string[]): void => {
    const descriptions = sockets.map((address) => {
      const [component = "", socket = ""] = address.split(".");
      return open[component]?.[socket];
    });
    const first = descriptions[0];
    if (first === undefined || descriptions.some((description) => description === undefined)) {
      issues.push({
        path: ["inputs", ...path],
        message: `declares ${sockets.map((s) => `"${s}"`).join(", ")}, which is not an open input socket (the pipeline changed after declareIO).`,
      });
      return;
    }
    const mandatory = descriptions.some((description) => description?.mandatory === true);
    const wire = wireJSONSchema(first.schema, "input");
    if (wire.problem !== undefined) {
      if (mandatory) {
        issues.push({
          path: ["inputs", ...path],
          message: `the mandatory input socket ${sockets.map((s) => `"${s}"`).join(", ")} cannot be given by a remote caller: ${wire.problem}. Give it a default, or wrap the pipeline so it is not an input.`,
        });
      }
      return;
    }
    inputs.push({ path, sockets, schema: first.schema, mandatory, jsonSchema: wire.schema });
  };

  if (declared?.inputs !== undefined) {
    for (const [name, targets] of Object.entries(declared.inputs))
      inputField([name], declaredTargets(targets));
  } else {
    for (const [component, sockets] of Object.entries(open))
      for (const socket of Object.keys(sockets)) inputField([component, socket], [`${component}.${socket}`]);
  }

  const outputs: PipelineIOField[] = [];
  const includeOutputsFrom = new Set<string>();
  const outputField = (path: string[], sockets: readonly string[]): void => {
    const [component = "", socket = ""] = (sockets[0] ?? "").split(".");
    if (!pipeline.componentNames().includes(component)) {
      issues.push({ path: ["outputs", ...path], message: `unknown component "${component}".` });
      return;
    }
    const schema = pipeline.getComponent(component).outputSockets[socket]?.schema;
    if (schema === undefined) {
      issues.push({ path: ["outputs", ...path], message: `no output socket "${sockets[0]}".` });
      return;
    }
    const wire = wireJSONSchema(schema, "output");
    outputs.push({ path, sockets, schema, mandatory: false, jsonSchema: wire.schema ?? anyJSON });
  };
  if (declared?.outputs !== undefined) {
    for (const [name, targets] of Object.entries(declared.outputs)) {
      const sockets = declaredTargets(targets);
      for (const address of sockets) includeOutputsFrom.add(address.split(".")[0] ?? "");
      outputField([name], sockets);
    }
  } else {
    for (const [component, sockets] of Object.entries(pipeline.outputs()))
      for (const socket of Object.keys(sockets)) outputField([component, socket], [`${component}.${socket}`]);
  }

  if (issues.length > 0) {
    throw new PipelineValidationError(
      `${where}: the pipeline cannot be called with JSON:\n${formatIssues(issues)}`,
      { issues },
    );
  }

  const declaredInputs = declared?.inputs !== undefined;
  const declaredOutputs = declared?.outputs !== undefined;
  const targets = inputTargets(inputs, declaredInputs);
  const picks = outputs.map((field) => ({
    name: field.path[0] ?? "",
    sockets: splitAddresses(field.sockets),
  }));
  return {
    declaredInputs,
    declaredOutputs,
    inputs,
    outputs,
    inputSchema: objectSchema(inputs, "input"),
    outputSchema: objectSchema(outputs, "output"),
    includeOutputsFrom: [...includeOutputsFrom],
    toRunInputs: (request) => toRunInputs(inputs, targets, declaredInputs, request, where),
    fromRunOutputs: (result) => (declaredOutputs ? pickOutputs(picks, result) : result),
  };
}

/** An input field and the `[component, socket]` pairs its value goes to. */
interface InputTarget {
  readonly field: PipelineIOField;
  readonly sockets: readonly (readonly [string, string])[];
}

/** The input fields by request key: the declared name, or `"component.socket"` for the nested form. */
function inputTargets(fields: readonly PipelineIOField[], declared: boolean): Map<string, InputTarget> {
  const targets = new Map<string, InputTarget>();
  for (const field of fields) {
    const key = declared ? (field.path[0] ?? "") : (field.sockets[0] ?? "");
    targets.set(key, { field, sockets: splitAddresses(field.sockets) });
  }
  return targets;
}

/** `"component.socket"` addresses as `[component, socket]` pairs. */
function splitAddresses(addresses: readonly string[]): (readonly [string, string])[] {
  return addresses.map((address) => {
    const dot = address.indexOf(".");
    return [address.slice(0, dot), address.slice(dot + 1)] as const;
  });
}

/** Builds the object schema of fields with paths of length 1 or 2 (nested by component). */
function objectSchema(fields: readonly PipelineIOField[], io: "input" | "output"): Record<string, unknown> {
  const root: Record<string, unknown> = { type: "object", properties: {}, additionalProperties: false };
  const required = new Set<string>();
  for (const field of fields) {
    const [first = "", second] = field.path;
    const properties = root.properties as Record<string, unknown>;
    if (second === undefined) {
      properties[first] = field.jsonSchema;
      if (field.mandatory) required.add(first);
      continue;
    }
    properties[first] ??= { type: "object", properties: {}, additionalProperties: false };
    const group = properties[first] as Record<string, unknown>;
    (group.properties as Record<string, unknown>)[second] = field.jsonSchema;
    if (field.mandatory) {
      required.add(first);
      group.required = [...((group.required as string[] | undefined) ?? []), second];
    }
  }
  if (required.size > 0) root.required = [...required];
  if (io === "output") {
    delete root.additionalProperties;
    for (const group of Object.values(root.properties as Record<string, Record<string, unknown>>))
      if (group.type === "object" && group.additionalProperties === false) delete group.additionalProperties;
  }
  return root;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `target[key] = value`, also for a key such as `__proto__` (which must not set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

/**
 * Why `{ key: value }` is not a component's socket values: the request is nested by component, so a
 * key that is an input's socket name (`{ "messages": [...] }`) is shown in its nested form.
 */
function notSocketValues(key: string, fields: readonly PipelineIOField[]): string {
  const matches = fields.filter((field) => field.path.length === 2 && field.path[1] === key);
  if (matches.length > 0) {
    const [component] = matches[0]!.path;
    return `expected an object of socket values ({ socket: value }); the request is nested by component: write { "${excerpt(String(component))}": { "${excerpt(key)}": ... } }. Inputs: ${listPaths(fields)}.`;
  }
  return `expected an object of socket values ({ socket: value }). Inputs: ${listPaths(fields)}.`;
}

/** Puts a value at `nested[component][socket]`. */
function put(nested: Record<string, Record<string, unknown>>, target: InputTarget, value: unknown): void {
  for (const [component, socket] of target.sockets) {
    let group = Object.hasOwn(nested, component) ? nested[component] : undefined;
    if (group === undefined) {
      group = {};
      setOwn(nested, component, group);
    }
    setOwn(group, socket, value);
  }
}

function toRunInputs(
  fields: readonly PipelineIOField[],
  targets: ReadonlyMap<string, InputTarget>,
  declared: boolean,
  request: unknown,
  where: string,
): Record<string, Record<string, unknown>> {
  const issues: Issue[] = [];
  const nested: Record<string, Record<string, unknown>> = {};
  if (!isRecord(request)) {
    issues.push({ path: [], message: "the request must be a JSON object." });
  } else if (declared) {
    for (const name of Object.keys(request)) {
      const target = targets.get(name);
      if (target === undefined) {
        issues.push({ path: [name], message: `unknown input "${name}". Inputs: ${listPaths(fields)}.` });
        continue;
      }
      put(nested, target, decodeWireValue(target.field.schema, request[name], [name], issues));
    }
    for (const field of fields) {
      const name = field.path[0] ?? "";
      if (field.mandatory && request[name] === undefined)
        issues.push({ path: [name], message: `the input "${name}" is required.` });
    }
  } else {
    for (const component of Object.keys(request)) {
      const sockets = request[component];
      if (!isRecord(sockets)) {
        issues.push({ path: [component], message: notSocketValues(component, fields) });
        continue;
      }
      for (const socket of Object.keys(sockets)) {
        const target = targets.get(`${component}.${socket}`);
        if (target === undefined) {
          issues.push({
            path: [component, socket],
            message: `"${component}.${socket}" is not an input a caller can give. Inputs: ${listPaths(fields)}.`,
          });
          continue;
        }
        put(
          nested,
          target,
          decodeWireValue(target.field.schema, sockets[socket], [component, socket], issues),
        );
      }
    }
  }
  if (issues.length > 0) {
    throw new PipelineValidationError(`${where}: invalid request:\n${formatIssues(issues)}`, { issues });
  }
  return nested;
}

function listPaths(fields: readonly PipelineIOField[]): string {
  return fields.length === 0 ? "none" : fields.map((field) => `"${field.path.join(".")}"`).join(", ");
}

function pickOutputs(
  picks: readonly { readonly name: string; readonly sockets: readonly (readonly [string, string])[] }[],
  outputs: PipelineOutputs,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const { name, sockets } of picks) {
    for (const [component, socket] of sockets) {
      const values = Object.hasOwn(outputs, component) ? outputs[component] : undefined;
      if (values !== undefined && Object.hasOwn(values, socket)) {
        setOwn(result, name, values[socket]);
        break;
      }
    }
  }
  return result;
}
