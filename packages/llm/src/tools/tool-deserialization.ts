import {
  DeserializationError,
  defaultRegistry,
  deserializeComponent,
  excerpt,
  type InputMapping,
  type Issue,
  JunctionError,
  type OutputMapping,
  Pipeline,
  quoteExcerpt,
  type Registry,
} from "@junction/core";
import { formatIssues, problems } from "../format-issues.js";
import { isRecord } from "../messages/content-part-checks.js";
import { ComponentTool } from "./component-tool.js";
import { PipelineTool } from "./pipeline-tool.js";
import { type AnyTool, Tool } from "./tool.js";
import type { OutputsToString, OutputToState, StateMergeHandler } from "./tool-config.js";
import type { JsonObjectSchema } from "./tool-parameters.js";
import type { ToolFields, ToolSerializationOptions } from "./tool-serialization.js";
import { Toolset, type ToolsInput } from "./toolset.js";

type Path = readonly (string | number)[];
type AnyFunction = (...args: any[]) => unknown;

interface Reader {
  readonly registry: Registry;
  readonly issues: Issue[];
}

const fieldNames: Readonly<Record<string, string>> = {
  inputsFromState: "inputs_from_state",
  outputsToState: "outputs_to_state",
  outputsToString: "outputs_to_string",
  needsState: "needs_state",
  needsApproval: "needs_approval",
  rawResult: "raw_result",
};

function resolve(r: Reader, name: unknown, path: Path): AnyFunction | undefined {
  if (typeof name !== "string" || name === "") {
    r.issues.push({ path, message: "expected the registered name of a function (a non-empty string)." });
    return undefined;
  }
  const fn = r.registry.getFunction(name);
  if (fn === undefined)
    r.issues.push({
      path,
      message: `no function is registered as "${excerpt(name)}". Register it with registry.registerFunction("${excerpt(name)}", fn) and pass { registry }.`,
    });
  return fn;
}

function readMapping(r: Reader, value: unknown, path: Path): Record<string, OutputToState> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    r.issues.push({ path, message: "must be an object or null." });
    return undefined;
  }
  const out: Record<string, OutputToState> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!isRecord(entry)) {
      out[key] = entry as OutputToState; // the Tool constructor reports the shape problem
      continue;
    }
    const { handler, ...rest } = entry;
    out[key] = {
      ...rest,
      ...(handler === undefined || handler === null
        ? {}
        : { handler: resolve(r, handler, [...path, key, "handler"]) as StateMergeHandler }),
    };
  }
  return out;
}

function readOutputsToString(r: Reader, value: unknown, path: Path): OutputsToString | undefined {
  if (!isRecord(value) || !("source" in value || "handler" in value || "raw_result" in value))
    return readMapping(r, value, path) as OutputsToString | undefined;
  const { raw_result, handler, ...rest } = value;
  return {
    ...rest,
    ...(raw_result === undefined ? {} : { rawResult: raw_result as boolean }),
    ...(handler === undefined || handler === null
      ? {}
      : { handler: resolve(r, handler, [...path, "handler"]) }),
  } as OutputsToString;
}

/** Builds a tool, turning its definition errors into issues under the document's field names. */
function build(r: Reader, path: Path, make: () => AnyTool): AnyTool | undefined {
  try {
    return make();
  } catch (error) {
    if (!JunctionError.isInstance(error)) throw error;
    if (error.issues.length === 0) r.issues.push({ path, message: error.message });
    for (const issue of error.issues) {
      const [head, ...tail] = issue.path;
      r.issues.push({ ...issue, path: [...path, fieldNames[head as string] ?? head ?? "", ...tail] });
    }
    return undefined;
  }
}

function readTool(r: Reader, doc: unknown, path: Path): AnyTool | undefined {
  if (!isRecord(doc) || typeof doc.type !== "string" || !isRecord(doc.data)) {
    r.issues.push({ path, message: 'a tool must be written as { type: "junction.Tool", data: {...} }.' });
    return undefined;
  }
  const data = doc.data;
  const at = [...path, "data"];
  const before = r.issues.length;
  const inputsFromState = data.inputs_from_state ?? undefined;
  const outputsToState = readMapping(r, data.outputs_to_state, [...at, "outputs_to_state"]);
  const outputsToString = readOutputsToString(r, data.outputs_to_string, [...at, "outputs_to_string"]);
  if (doc.type === "junction.PipelineTool") {
    let pipeline: Pipeline | undefined;
    try {
      pipeline = Pipeline.fromJSON(data.pipeline, { registry: r.registry });
    } catch (error) {
      if (!JunctionError.isInstance(error)) throw error;
      r.issues.push(...error.issues.map((issue) => ({ ...issue, path: [...at, "pipeline", ...issue.path] })));
    }
    if (r.issues.length > before || pipeline === undefined) return undefined;
    return build(
      r,
      at,
      () =>
        new PipelineTool({
          pipeline: pipeline!,
          name: data.name as string,
          description: data.description as string,
          inputMapping: (data.input_mapping ?? undefined) as InputMapping | undefined,
          outputMapping: (data.output_mapping ?? undefined) as OutputMapping | undefined,
          parameters: (data.parameters ?? undefined) as JsonObjectSchema | undefined,
          inputsFromState: inputsFromState as Record<string, string> | undefined,
          outputsToState,
          outputsToString,
        }),
    );
  }
  if (doc.type === "junction.ComponentTool") {
    let component: unknown;
    try {
      component = deserializeComponent(data.component, { registry: r.registry, path: [...at, "component"] });
    } catch (error) {
      if (!JunctionError.isInstance(error)) throw error;
      r.issues.push(...error.issues);
    }
    if (r.issues.length > before) return undefined;
    return build(
      r,
      at,
      () =>
        new ComponentTool({
          component: component as ComponentTool["component"],
          name: data.name as string,
          description: data.description as string,
          parameters: (data.parameters ?? undefined) as JsonObjectSchema | undefined,
          inputsFromState: inputsFromState as Record<string, string> | undefined,
          outputsToState,
          outputsToString,
        }),
    );
  }
  if (doc.type !== "junction.Tool" && r.registry.getFunction(doc.type) !== undefined) {
    return readOwnTool(r, doc.type, data, path);
  }
  if (doc.type !== "junction.Tool") {
    r.issues.push({
      path: [...path, "type"],
      message: `unknown tool type ${quoteExcerpt(doc.type)}; expected "junction.Tool", "junction.ComponentTool", "junction.PipelineTool" or a type whose reader is registered (import the package that defines it, e.g. @junction/agents for "junction.AgentTool").`,
    });
    return undefined;
  }
  const fn = resolve(r, data.function, [...at, "function"]);
  const approval = data.needs_approval;
  const needsApproval =
    typeof approval === "string" ? resolve(r, approval, [...at, "needs_approval"]) : approval;
  if (r.issues.length > before || fn === undefined) return undefined;
  return build(
    r,
    at,
    () =>
      new Tool({
        name: data.name as string,
        description: data.description as string,
        parameters: data.parameters as JsonObjectSchema,
        function: fn,
        inputsFromState: inputsFromState as Record<string, string> | undefined,
        outputsToState,
        outputsToString,
        needsState: (data.needs_state ?? undefined) as boolean | undefined,
        needsApproval: (needsApproval ?? undefined) as boolean | undefined,
      }),
  );
}

/** A tool class from another package (see `Tool.toDocument`): read by the function registered under its type. */
function readOwnTool(
  r: Reader,
  type: string,
  data: Record<string, unknown>,
  path: Path,
): AnyTool | undefined {
  try {
    const tool = r.registry.getFunction(type)!(data, { registry: r.registry, path });
    if (tool instanceof Tool) return tool;
    r.issues.push({ path, message: `the function registered as "${type}" did not return a tool.` });
  } catch (error) {
    if (JunctionError.isInstance(error) && error.issues.length > 0) r.issues.push(...error.issues);
    else r.issues.push({ path, message: error instanceof Error ? error.message : String(error) });
  }
  return undefined;
}

function readToolset(r: Reader, doc: Record<string, unknown>, path: Path): Toolset | undefined {
  const data = doc.data;
  if (!isRecord(data)) {
    r.issues.push({ path: [...path, "data"], message: "must be an object { tools } or { source }." });
    return undefined;
  }
  if (data.source !== undefined) {
    const source = resolve(r, data.source, [...path, "data", "source"]);
    return source === undefined ? undefined : new Toolset(source as () => Iterable<AnyTool>);
  }
  if (!Array.isArray(data.tools)) {
    r.issues.push({ path: [...path, "data", "tools"], message: "must be a list of tool documents." });
    return undefined;
  }
  const tools = data.tools.map((item, index) => readTool(r, item, [...path, "data", "tools", index]));
  if (tools.some((tool) => tool === undefined)) return undefined;
  try {
    return new Toolset(tools as AnyTool[]);
  } catch (error) {
    r.issues.push({ path: [...path, "data", "tools"], message: (error as Error).message });
    return undefined;
  }
}

function reader(options: ToolSerializationOptions): Reader {
  return { registry: options.registry ?? defaultRegistry, issues: [] };
}

function done<T>(where: string, r: Reader, value: T | undefined): T {
  if (r.issues.length > 0 || value === undefined)
    throw new DeserializationError(
      `${where}: cannot load (${problems(r.issues)}):\n${formatIssues(r.issues)}`,
      {
        issues: r.issues,
      },
    );
  return value;
}

function isToolsetDocument(doc: unknown): doc is Record<string, unknown> {
  return isRecord(doc) && doc.type === "junction.Toolset";
}

/** A toolset subclass's document (see `Toolset.toDocument`): a type read by a registered function. */
function isOwnToolsetDocument(r: Reader, doc: unknown): doc is Record<string, unknown> {
  return (
    isRecord(doc) &&
    typeof doc.type === "string" &&
    doc.type !== "junction.Tool" &&
    doc.type !== "junction.ComponentTool" &&
    doc.type !== "junction.PipelineTool" &&
    r.registry.getFunction(doc.type) !== undefined
  );
}

function readOwnToolset(r: Reader, doc: Record<string, unknown>, path: Path): Toolset | undefined {
  try {
    const toolset = r.registry.getFunction(doc.type as string)!(doc.data, { registry: r.registry, path });
    if (toolset instanceof Toolset) return toolset;
    r.issues.push({
      path,
      message: `the function registered as "${String(doc.type)}" did not return a Toolset.`,
    });
  } catch (error) {
    if (JunctionError.isInstance(error) && error.issues.length > 0) r.issues.push(...error.issues);
    else r.issues.push({ path, message: error instanceof Error ? error.message : String(error) });
  }
  return undefined;
}

/** A list item written by a class of another package: its registered reader returns a tool or a toolset. */
function readOwnItem(r: Reader, doc: Record<string, unknown>, path: Path): AnyTool | Toolset | undefined {
  try {
    const item = r.registry.getFunction(doc.type as string)!(doc.data, { registry: r.registry, path });
    if (item instanceof Toolset || item instanceof Tool) return item;
    r.issues.push({
      path,
      message: `the function registered as "${String(doc.type)}" did not return a tool or a toolset.`,
    });
  } catch (error) {
    if (JunctionError.isInstance(error) && error.issues.length > 0) r.issues.push(...error.issues);
    else r.issues.push({ path, message: error instanceof Error ? error.message : String(error) });
  }
  return undefined;
}

/**
 * Reads what {@link toolFieldsToJSON} wrote (handlers resolved by registered name only): for tool classes
 * of other packages that read their own documents.
 *
 * @param data - the tool document's `data`
 * @param options - `registry` and the tool document's `path`
 * @throws DeserializationError listing every problem
 */
export function toolFieldsFromJSON(data: unknown, options: ToolSerializationOptions = {}): ToolFields {
  const r = reader(options);
  const at = [...(options.path ?? []), "data"];
  const record = isRecord(data) ? data : {};
  const inputsFromState = record.inputs_from_state ?? undefined;
  const fields: ToolFields = {
    inputsFromState: inputsFromState as Record<string, string> | undefined,
    outputsToState: readMapping(r, record.outputs_to_state, [...at, "outputs_to_state"]),
    outputsToString: readOutputsToString(r, record.outputs_to_string, [...at, "outputs_to_string"]),
  };
  return done("toolFieldsFromJSON", r, fields);
}

/**
 * Reads a tool written by {@link toolToJSON}. Functions are resolved **only** by registered name.
 *
 * @param doc - the tool document
 * @param options - `registry` (default: the default registry) and `path` for messages
 * @throws DeserializationError listing every problem with its path
 */
export function toolFromJSON(doc: unknown, options: ToolSerializationOptions = {}): AnyTool {
  const r = reader(options);
  return done("toolFromJSON", r, readTool(r, doc, options.path ?? []));
}

/**
 * Reads a toolset written by {@link toolsetToJSON}.
 *
 * @param doc - the toolset document
 * @param options - `registry` and `path`
 * @throws DeserializationError listing every problem with its path
 */
export function toolsetFromJSON(doc: unknown, options: ToolSerializationOptions = {}): Toolset {
  const r = reader(options);
  const path = options.path ?? [];
  if (isOwnToolsetDocument(r, doc)) return done("toolsetFromJSON", r, readOwnToolset(r, doc, path));
  if (!isToolsetDocument(doc)) {
    r.issues.push({
      path,
      message: 'a toolset must be written as { type: "junction.Toolset", data: {...} }.',
    });
    return done<Toolset>("toolsetFromJSON", r, undefined);
  }
  return done("toolsetFromJSON", r, readToolset(r, doc, path));
}

/**
 * Reads what {@link toolsToJSON} wrote: a toolset document, or a list of tool and toolset documents.
 *
 * @param doc - the document
 * @param options - `registry` and `path`
 * @throws DeserializationError listing every problem with its path
 */
export function toolsFromJSON(doc: unknown, options: ToolSerializationOptions = {}): ToolsInput {
  const r = reader(options);
  const path = options.path ?? [];
  if (isToolsetDocument(doc)) return done("toolsFromJSON", r, readToolset(r, doc, path));
  if (isOwnToolsetDocument(r, doc)) return done("toolsFromJSON", r, readOwnToolset(r, doc, path));
  if (!Array.isArray(doc)) {
    r.issues.push({ path, message: "expected a toolset document or a list of tool and toolset documents." });
    return done<ToolsInput>("toolsFromJSON", r, undefined);
  }
  const items = doc.map((item, index) =>
    isToolsetDocument(item)
      ? readToolset(r, item, [...path, index])
      : isOwnToolsetDocument(r, item)
        ? readOwnItem(r, item, [...path, index])
        : readTool(r, item, [...path, index]),
  );
  return done(
    "toolsFromJSON",
    r,
    items.some((item) => item === undefined) ? undefined : (items as (AnyTool | Toolset)[]),
  );
}
