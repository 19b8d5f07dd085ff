import {
  type InputMapping,
  JunctionError,
  type OutputMapping,
  Pipeline,
  SuperComponent,
} from "@junction/core";
import { ComponentTool } from "./component-tool.js";
import type { OutputsToString, OutputToState } from "./tool-config.js";
import { ToolDefinitionError } from "./tool-errors.js";
import type { JsonObjectSchema } from "./tool-parameters.js";

/** What the {@link PipelineTool} constructor takes. */
export interface PipelineToolInit {
  /** The pipeline the tool runs. */
  readonly pipeline: Pipeline;
  /** The name the model calls the tool by. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** `{ parameter: ["component.socket", ...] }`: which pipeline inputs the model fills (default: every open input, by socket name). */
  readonly inputMapping?: InputMapping | undefined;
  /** `{ "component.socket": "result_key" }`: what the tool returns (default: every leaf output, by socket name). */
  readonly outputMapping?: OutputMapping | undefined;
  /** An explicit parameters JSON Schema, replacing the one derived from the mapped inputs. */
  readonly parameters?: JsonObjectSchema | undefined;
  /** `{ stateKey: parameterName }`: fills a pipeline input from the agent's State. */
  readonly inputsFromState?: Readonly<Record<string, string>> | undefined;
  /** `{ stateKey: { source?: resultKey, handler? } }`: merges mapped outputs into State. */
  readonly outputsToState?: Readonly<Record<string, OutputToState>> | undefined;
  /** How the mapped outputs become the tool message. */
  readonly outputsToString?: OutputsToString | undefined;
}

/**
 * A pipeline as an agent tool. The pipeline is wrapped in a `SuperComponent` with the given mappings,
 * so the tool's parameters are the mapped input sockets (their schemas and `.describe()` texts; a
 * parameter without one is described by the sockets it feeds) and its result is the object of mapped
 * outputs, turned into the tool message by `outputsToString` and merged into State by `outputsToState`
 * as for {@link ComponentTool}. The run's signal, tracer, logger and depth reach the pipeline; chunks
 * its components stream reach the agent's streaming callback, tagged with the tool call.
 *
 * @example
 * ```ts
 * const search = new PipelineTool({
 *   pipeline: retrieval,
 *   name: "search_docs",
 *   description: "Searches the product documentation",
 *   inputMapping: { query: ["retriever.query"] },
 *   outputMapping: { "retriever.documents": "documents" },
 * });
 * ```
 */
export class PipelineTool extends ComponentTool {
  /** The pipeline the tool runs. */
  readonly pipeline: Pipeline;
  /** The input mapping as given (`undefined` for the default). */
  readonly inputMapping: InputMapping | undefined;
  /** The output mapping as given (`undefined` for the default). */
  readonly outputMapping: OutputMapping | undefined;

  /**
   * @param init - the pipeline, name, description, mappings and State/string options
   * @throws ToolDefinitionError listing every problem (an invalid mapping, an invalid name, ...)
   */
  constructor(init: PipelineToolInit) {
    const pipeline = init?.pipeline;
    const label = `new PipelineTool(${JSON.stringify(init?.name)})`;
    if (!(pipeline instanceof Pipeline)) {
      throw new ToolDefinitionError(`${label}: \`pipeline\` must be a Pipeline instance.`, {
        issues: [{ path: ["pipeline"], message: "must be a Pipeline instance." }],
      });
    }
    let component: InstanceType<typeof SuperComponent>;
    try {
      component = new SuperComponent({
        pipeline,
        inputMapping: init.inputMapping,
        outputMapping: init.outputMapping,
      });
    } catch (error) {
      if (!JunctionError.isInstance(error)) throw error;
      const issues = error.issues.map((issue) => ({
        ...issue,
        path: issue.path[0] === "params" ? issue.path.slice(1) : issue.path,
      }));
      throw new ToolDefinitionError(`${label}: ${error.message}`, { issues, cause: error });
    }
    const targets = new Map<string, string>();
    const mapping = init.inputMapping;
    for (const name of Object.keys(component.inputSockets)) {
      const mapped = mapping?.[name];
      const addresses = mapped === undefined ? [] : typeof mapped === "string" ? [mapped] : mapped;
      targets.set(name, addresses.length > 0 ? addresses.join(", ") : name);
    }
    super(
      {
        component,
        name: init.name,
        description: init.description,
        parameters: init.parameters,
        inputsFromState: init.inputsFromState,
        outputsToState: init.outputsToState,
        outputsToString: init.outputsToString,
      },
      { describeInput: (socket) => `Input '${socket}' of the pipeline (${targets.get(socket) ?? socket}).` },
    );
    this.pipeline = pipeline;
    this.inputMapping = init.inputMapping;
    this.outputMapping = init.outputMapping;
  }
}
