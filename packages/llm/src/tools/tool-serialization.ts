import {
  defaultRegistry,
  excerpt,
  type Issue,
  JunctionError,
  type Registry,
  SerializationError,
  serializeComponent,
} from "@junction/core";
import { formatIssues, problems } from "../format-issues.js";
import { ComponentTool } from "./component-tool.js";
import { PipelineTool } from "./pipeline-tool.js";
import type { AnyTool } from "./tool.js";
import { isSingleOutputConfig, type OutputsToString, type OutputToState } from "./tool-config.js";
import { Toolset, type ToolsInput } from "./toolset.js";

/** A serialized tool or toolset: `{ type, data }` (the reference's shape). */
export interface ToolDocument {
  /** `"junction.Tool"`, `"junction.ComponentTool"` or `"junction.Toolset"`. */
  readonly type: string;
  /** The fields, snake_case; functions by registered name. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** Options of the tool (de)serialization functions. */
export interface ToolSerializationOptions {
  /** Where functions and component types are looked up (default: the default registry). */
  readonly registry?: Registry | undefined;
  /** Where the tools sit in the enclosing document, for error messages. */
  readonly path?: readonly (string | number)[] | undefined;
}

type Path = readonly (string | number)[];
type AnyFunction = (...args: any[]) => unknown;

interface Writer {
  readonly registry: Registry;
  readonly issues: Issue[];
  fn(fn: AnyFunction, path: Path): string | null;
}

function writer(registry: Registry): Writer {
  const issues: Issue[] = [];
  return {
    registry,
    issues,
    fn(fn, path) {
      const name = registry.functionName(fn);
      if (name !== undefined) return name;
      issues.push({
        path,
        message: `${fn.name === "" ? "an anonymous function" : `the function "${excerpt(fn.name)}"`} is not registered, so it cannot be written by name. Register it with registry.registerFunction("myapp.${fn.name || "myFunction"}", fn) and pass { registry } when saving and loading.`,
      });
      return null;
    },
  };
}

function writeOutputsToState(
  config: Readonly<Record<string, OutputToState>> | undefined,
  w: Writer,
  path: Path,
) {
  if (config === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(config)) {
    out[key] = {
      ...(entry.source === undefined ? {} : { source: entry.source }),
      ...(entry.handler === undefined ? {} : { handler: w.fn(entry.handler, [...path, key, "handler"]) }),
    };
  }
  return out;
}

function writeOutputsToString(config: OutputsToString | undefined, w: Writer, path: Path) {
  if (config === undefined) return null;
  if (isSingleOutputConfig(config)) {
    return {
      ...(config.source === undefined ? {} : { source: config.source }),
      ...(config.handler === undefined ? {} : { handler: w.fn(config.handler, [...path, "handler"]) }),
      ...(config.rawResult === undefined ? {} : { raw_result: config.rawResult }),
    };
  }
  return writeOutputsToState(config as Readonly<Record<string, OutputToState>>, w, path);
}

function writeTool(tool: AnyTool, w: Writer, path: Path): ToolDocument {
  const own = ownDocument(tool, w, path);
  if (own !== undefined) return own;
  const dataPath = [...path, "data"];
  const common = {
    name: tool.name,
    description: tool.description,
    inputs_from_state: tool.inputsFromState === undefined ? null : { ...tool.inputsFromState },
    outputs_to_state: writeOutputsToState(tool.outputsToState, w, [...dataPath, "outputs_to_state"]),
    outputs_to_string: writeOutputsToString(tool.outputsToString, w, [...dataPath, "outputs_to_string"]),
  };
  if (tool instanceof PipelineTool) {
    let pipeline: unknown = null;
    try {
      pipeline = tool.pipeline.toJSON({ registry: w.registry });
    } catch (error) {
      if (!JunctionError.isInstance(error)) throw error;
      w.issues.push(
        ...error.issues.map((issue) => ({ ...issue, path: [...dataPath, "pipeline", ...issue.path] })),
      );
    }
    return {
      type: "junction.PipelineTool",
      data: {
        pipeline,
        input_mapping: tool.inputMapping === undefined ? null : structuredClone(tool.inputMapping),
        output_mapping: tool.outputMapping === undefined ? null : { ...tool.outputMapping },
        ...common,
        parameters: tool.explicitParameters ?? null,
      },
    };
  }
  if (tool instanceof ComponentTool) {
    let component: unknown = null;
    try {
      component = serializeComponent(tool.component, {
        registry: w.registry,
        path: [...dataPath, "component"],
      });
    } catch (error) {
      if (JunctionError.isInstance(error)) w.issues.push(...error.issues);
      else throw error;
    }
    return {
      type: "junction.ComponentTool",
      data: { component, ...common, parameters: tool.explicitParameters ?? null },
    };
  }
  return {
    type: "junction.Tool",
    data: {
      ...common,
      parameters: structuredClone(tool.parameters),
      function: w.fn(tool.function as AnyFunction, [...dataPath, "function"]),
      needs_state: tool.needsState,
      ...(tool.needsApproval === false
        ? {}
        : {
            needs_approval:
              typeof tool.needsApproval === "boolean"
                ? tool.needsApproval
                : w.fn(tool.needsApproval as AnyFunction, [...dataPath, "needs_approval"]),
          }),
    },
  };
}

/** A tool class from another package writes itself (see `Tool.toDocument`). */
function ownDocument(tool: AnyTool, w: Writer, path: Path): ToolDocument | undefined {
  try {
    return tool.toDocument({ registry: w.registry, path });
  } catch (error) {
    if (!JunctionError.isInstance(error) || error.issues.length === 0) throw error;
    w.issues.push(...error.issues);
    return { type: "junction.Tool", data: {} };
  }
}

function writeToolset(toolset: Toolset, w: Writer, path: Path): ToolDocument {
  const own = toolset.toDocument();
  if (own !== undefined) return own;
  const source = toolset.source;
  if (source !== undefined)
    return { type: "junction.Toolset", data: { source: w.fn(source, [...path, "data", "source"]) } };
  return {
    type: "junction.Toolset",
    data: {
      tools: toolset.tools().map((tool, index) => writeTool(tool, w, [...path, "data", "tools", index])),
    },
  };
}

function finish<T>(where: string, w: Writer, value: T): T {
  if (w.issues.length > 0)
    throw new SerializationError(
      `${where}: cannot serialize (${problems(w.issues)}):\n${formatIssues(w.issues)}`,
      {
        issues: w.issues,
      },
    );
  return value;
}

/** The State and result options every tool has, as {@link toolFieldsToJSON} writes them. */
export interface ToolFields {
  /** `{ stateKey: parameterName }`. */
  readonly inputsFromState?: Readonly<Record<string, string>> | undefined;
  /** `{ stateKey: { source?, handler? } }`. */
  readonly outputsToState?: Readonly<Record<string, OutputToState>> | undefined;
  /** How the result becomes the tool message. */
  readonly outputsToString?: OutputsToString | undefined;
}

/**
 * Writes the State and result options of a tool as `{ inputs_from_state, outputs_to_state,
 * outputs_to_string }` (handlers by registered name, `null` when absent): for tool classes of other
 * packages that write their own documents (see `Tool.toDocument`).
 *
 * @param fields - the options
 * @param options - `registry` and the tool document's `path` (fields sit under `data`)
 * @throws SerializationError listing every unregistered handler
 */
export function toolFieldsToJSON(
  fields: ToolFields,
  options: ToolSerializationOptions = {},
): Record<string, unknown> {
  const w = writer(options.registry ?? defaultRegistry);
  const dataPath = [...(options.path ?? []), "data"];
  return finish("toolFieldsToJSON", w, {
    inputs_from_state: fields.inputsFromState === undefined ? null : { ...fields.inputsFromState },
    outputs_to_state: writeOutputsToState(fields.outputsToState, w, [...dataPath, "outputs_to_state"]),
    outputs_to_string: writeOutputsToString(fields.outputsToString, w, [...dataPath, "outputs_to_string"]),
  });
}

/**
 * Writes a tool as `{ type: "junction.Tool", data: { name, description, parameters, function, ... } }`
 * (a `ComponentTool` as `junction.ComponentTool` with its component document). Functions and handlers
 * are written by their registered name.
 *
 * @param tool - the tool
 * @param options - `registry` (default: the default registry) and `path` for messages
 * @throws SerializationError listing every unregistered function, saying how to register it
 * @example
 * ```ts
 * const registry = createRegistry().registerFunction("myapp.weather", weatherFunction);
 * const doc = toolToJSON(weatherTool, { registry });
 * ```
 */
export function toolToJSON(tool: AnyTool, options: ToolSerializationOptions = {}): ToolDocument {
  const w = writer(options.registry ?? defaultRegistry);
  return finish("toolToJSON", w, writeTool(tool, w, options.path ?? []));
}

/**
 * Writes a toolset as `{ type: "junction.Toolset", data: { tools: [...] } }`, or a dynamic toolset as
 * `{ type: "junction.Toolset", data: { source: "<registered function name>" } }`.
 *
 * @param toolset - the toolset
 * @param options - `registry` and `path`
 * @throws SerializationError listing every unregistered function
 */
export function toolsetToJSON(toolset: Toolset, options: ToolSerializationOptions = {}): ToolDocument {
  const w = writer(options.registry ?? defaultRegistry);
  return finish("toolsetToJSON", w, writeToolset(toolset, w, options.path ?? []));
}

/**
 * Writes what an agent or generator takes as `tools`, keeping tool and toolset boundaries: a toolset
 * document, or a list of tool and toolset documents.
 *
 * @param tools - a toolset or a list of tools and toolsets
 * @param options - `registry` and `path`
 */
export function toolsToJSON(
  tools: ToolsInput,
  options: ToolSerializationOptions = {},
): ToolDocument | ToolDocument[] {
  const w = writer(options.registry ?? defaultRegistry);
  const path = options.path ?? [];
  const out =
    tools instanceof Toolset
      ? writeToolset(tools, w, path)
      : tools.map((item, index) =>
          item instanceof Toolset
            ? writeToolset(item, w, [...path, index])
            : writeTool(item, w, [...path, index]),
        );
  return finish("toolsToJSON", w, out);
}
