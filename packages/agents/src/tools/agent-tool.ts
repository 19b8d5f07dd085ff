import {
  type AnyComponent,
  DeserializationError,
  defaultRegistry,
  deserializeComponent,
  type InputSocket,
  type Issue,
  isComponent,
  JunctionError,
  type Registry,
  SerializationError,
  serializeComponent,
} from "@junction/core";
import {
  type AnyTool,
  ChatMessage,
  flattenTools,
  type JsonObjectSchema,
  type OutputsToString,
  type OutputToState,
  StreamingChunk,
  Tool,
  type ToolContext,
  ToolDefinitionError,
  type ToolDocumentOptions,
  type ToolFields,
  ToolInvocationError,
  Toolset,
  type ToolsInput,
  tagToolChunk,
  toolFieldsFromJSON,
  toolFieldsToJSON,
} from "@junction/llm";
import { z } from "zod";

/** The type name an `AgentTool` is written under; its reader is registered in the default registry. */
export const agentToolType = "junction.AgentTool";

/** The default limit on nested agent runs (see {@link AgentToolInit.maxDepth}). */
export const defaultMaxAgentDepth = 8;

const runInputs = new Set(["messages", "streaming_callback", "generation_kwargs", "tools"]);

/** What the {@link AgentTool} constructor takes. */
export interface AgentToolInit {
  /** The sub-agent (an `Agent` instance). */
  readonly agent: AnyComponent;
  /** The name the calling agent's model uses. */
  readonly name: string;
  /** What the sub-agent does, for the calling model. */
  readonly description: string;
  /** An explicit parameters JSON Schema, replacing the derived one (`request` plus the sub-agent's inputs). */
  readonly parameters?: JsonObjectSchema | undefined;
  /** `{ parentStateKey: parameterName }`: seeds a sub-agent input (a State key) from the caller's State. */
  readonly inputsFromState?: Readonly<Record<string, string>> | undefined;
  /** `{ parentStateKey: { source?: subAgentOutput, handler? } }`: lifts sub-agent outputs into the caller's State. */
  readonly outputsToState?: Readonly<Record<string, OutputToState>> | undefined;
  /** How the sub-agent's outputs become the tool message (default: its last message's text). */
  readonly outputsToString?: OutputsToString | undefined;
  /**
   * The deepest nesting the sub-agent may run at (default {@link defaultMaxAgentDepth}): a top-level
   * agent runs at depth 0, its sub-agents at 1, theirs at 2; each `SuperComponent` adds one too.
   */
  readonly maxDepth?: number | undefined;
}

function isAgent(value: unknown): value is AnyComponent {
  return isComponent(value) && value.type === "junction.Agent";
}

function configuredTools(agent: AnyComponent): ToolsInput | undefined {
  return (agent.params as { tools?: ToolsInput }).tools;
}

/** The static AgentTools of an agent (dynamic toolsets are not called: they are checked when they run). */
function staticAgentTools(agent: AnyComponent): AgentTool[] {
  const items = configuredTools(agent);
  if (items === undefined) return [];
  const list = items instanceof Toolset ? [items] : items;
  const out: AgentTool[] = [];
  for (const item of list) {
    if (item instanceof Toolset) {
      if (!item.dynamic) for (const tool of item.tools()) if (tool instanceof AgentTool) out.push(tool);
    } else if (item instanceof AgentTool) out.push(item);
  }
  return out;
}

/**
 * Walks the agents reachable through AgentTools: throws when one contains itself, returns how deep the
 * nesting goes below `agent`.
 */
function nestingBelow(agent: AnyComponent, path: readonly AnyComponent[], label: string): number {
  let deepest = 0;
  for (const tool of staticAgentTools(agent)) {
    if (tool.agent === agent || path.includes(tool.agent)) {
      throw new ToolDefinitionError(
        `${label}: the agent is its own tool (through AgentTool "${tool.name}"), which would nest runs forever. An agent cannot call itself; give the tool another agent.`,
        {
          issues: [
            { path: ["agent"], message: `the agent reaches itself through AgentTool "${tool.name}".` },
          ],
        },
      );
    }
    deepest = Math.max(deepest, 1 + nestingBelow(tool.agent, [...path, agent], label));
  }
  return deepest;
}

/**
 * The default `outputsToString`: a sub-agent with an `outputSchema` answers with its structured output as
 * JSON (or says its answer failed the schema, with the issues); any other with its last message text. A
 * note is added when it hit its step limit.
 */
function lastMessageText(outputs: unknown): string {
  const record = (typeof outputs === "object" && outputs !== null ? outputs : {}) as Record<string, unknown>;
  const answer = structuredAnswer(record) ?? textAnswer(record);
  if (record.exit_reason !== "max_agent_steps") return answer;
  return `${answer}\n\n[Note: the agent stopped at its step limit (max_agent_steps) before finishing; this answer may be incomplete.]`;
}

function textAnswer(record: Record<string, unknown>): string {
  const last = record.last_message;
  const text = last instanceof ChatMessage ? last.text : undefined;
  return text === undefined || text === "" ? "(The agent ended without a text answer.)" : text;
}

function structuredAnswer(record: Record<string, unknown>): string | undefined {
  if (record.structured_output !== undefined) return JSON.stringify(record.structured_output);
  if (record.exit_reason === "invalid_output" && Array.isArray(record.output_issues)) {
    return `(The agent's answer did not match its output schema: ${JSON.stringify(record.output_issues)})`;
  }
  return undefined;
}

function parameterShape(agent: AnyComponent): Record<string, z.ZodType> {
  const hasUserPrompt = typeof (agent.params as { userPrompt?: unknown }).userPrompt === "string";
  const request = z
    .string()
    .describe("The task or question for this agent, with every detail it needs (it sees nothing else).");
  const shape: Record<string, z.ZodType> = { request: hasUserPrompt ? request.optional() : request };
  for (const socket of Object.values(agent.inputSockets as Record<string, InputSocket>)) {
    if (runInputs.has(socket.name)) continue;
    if (socket.name === "request") {
      throw new ToolDefinitionError(
        'new AgentTool: the sub-agent has an input named "request", which the tool uses for the task. Rename the State key or template variable.',
      );
    }
    shape[socket.name] = socket.schema;
  }
  return shape;
}

/**
 * An agent as a tool of another agent.
 *
 * Each call runs the sub-agent with a fresh State seeded from the call's arguments: `request` becomes
 * the user message, and every other parameter (the sub-agent's State keys and prompt variables) its
 * input; `inputsFromState` fills them from the caller's State. The tool message is the sub-agent's last
 * message text, with a note when it ended on `max_agent_steps`; `outputsToState` lifts its outputs (State
 * keys, `messages`, ...) into the caller's State. The sub-agent's chunks reach the caller's streaming
 * callback tagged with the tool call (`meta.tool_call_id`, `meta.tool_name`); its spans nest under the
 * tool call's span; aborting the caller aborts it; its token usage is added to the caller's
 * `token_usage` and kept under `token_usage.by_tool[name]`. An agent cannot be its own tool (checked at
 * construction, when loading, and before each call), and nesting is bounded by `maxDepth`.
 *
 * @example
 * ```ts
 * const research = new AgentTool({ agent: researcher, name: "research", description: "Finds sources" });
 * const lead = new Agent({ chatGenerator, tools: [research] });
 * ```
 */
export class AgentTool extends Tool<Record<string, unknown>, Record<string, unknown>> {
  /** The sub-agent. */
  readonly agent: AnyComponent;
  /** The deepest nesting the sub-agent may run at. */
  readonly maxDepth: number;
  /** The explicit parameters given at construction (`undefined` when derived). */
  readonly explicitParameters: JsonObjectSchema | undefined;
  /** The `outputsToString` given at construction (`undefined` for the default). */
  readonly explicitOutputsToString: OutputsToString | undefined;

  /**
   * @param init - the sub-agent, name, description and State/string options
   * @throws ToolDefinitionError when `agent` is not an Agent, the agent would be its own tool, or the
   *   static nesting is deeper than `maxDepth`
   */
  constructor(init: AgentToolInit) {
    const label = `new AgentTool(${JSON.stringify(init?.name)})`;
    const agent = init?.agent;
    if (!isAgent(agent)) {
      throw new ToolDefinitionError(`${label}: \`agent\` must be an Agent instance.`, {
        issues: [{ path: ["agent"], message: "must be an Agent instance." }],
      });
    }
    const maxDepth = init.maxDepth ?? defaultMaxAgentDepth;
    if (!Number.isInteger(maxDepth) || maxDepth < 1) {
      throw new ToolDefinitionError(
        `${label}: maxDepth must be a positive integer; got ${String(maxDepth)}.`,
        {
          issues: [{ path: ["maxDepth"], message: "must be a positive integer." }],
        },
      );
    }
    const below = nestingBelow(agent, [], label);
    if (1 + below > maxDepth) {
      const message = `the agent nests ${below} more level${below === 1 ? "" : "s"} of AgentTools below it, so it would run ${1 + below} deep, more than maxDepth (${maxDepth}). Flatten the agents or raise maxDepth.`;
      throw new ToolDefinitionError(`${label}: ${message}`, { issues: [{ path: ["maxDepth"], message }] });
    }
    const shape = parameterShape(agent);
    const name = init.name;
    super(
      {
        name,
        description: init.description,
        parameters: init.parameters ?? z.object(shape),
        function: (args, context) => this.#runAgent(args, context),
        inputsFromState: init.inputsFromState,
        outputsToState: init.outputsToState,
        outputsToString: init.outputsToString ?? { handler: lastMessageText },
      },
      {
        validOutputs: Object.keys(agent.outputSockets),
        defaultDescriptions: Object.fromEntries(
          Object.keys(shape).map((key) => [key, `Input '${key}' of the agent.`]),
        ),
      },
    );
    this.agent = agent;
    this.maxDepth = maxDepth;
    this.explicitParameters = init.parameters;
    this.explicitOutputsToString = init.outputsToString;
  }

  async #runAgent(args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown>> {
    const depth = context.depth + 1;
    if (depth > this.maxDepth) {
      throw new ToolInvocationError(
        `AgentTool "${this.name}": its agent would run ${depth} levels deep, more than maxDepth (${this.maxDepth}). Agents are probably calling each other in a loop; answer without this tool.`,
        { toolName: this.name, arguments: args },
      );
    }
    if (flattenTools(configuredTools(this.agent)).includes(this)) {
      throw new ToolInvocationError(
        `AgentTool "${this.name}": the agent is its own tool, which would nest runs forever. An agent cannot call itself.`,
        { toolName: this.name, arguments: args },
      );
    }
    const { request, ...rest } = args;
    const inputs: Record<string, unknown> = {
      messages: typeof request === "string" && request !== "" ? [ChatMessage.fromUser(request)] : [],
    };
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) inputs[key] = value;
    const toolCall = context.toolCall;
    const outputs = (await this.agent.run(inputs, {
      signal: context.signal,
      tracer: context.tracer,
      span: context.span,
      logger: context.logger,
      depth,
      componentName: this.name,
      onEmit: (payload) =>
        payload instanceof StreamingChunk
          ? context.emit(tagToolChunk(payload, toolCall, this.name))
          : undefined,
    })) as Record<string, unknown>;
    const usage = outputs.token_usage;
    if (typeof usage === "object" && usage !== null && Object.keys(usage).length > 0)
      context.reportUsage(usage as Record<string, unknown>);
    return outputs;
  }

  /** Warms up the sub-agent (once). */
  override warmUp(): Promise<void> {
    return this.agent.warmUp();
  }

  /** Writes `{ type: "junction.AgentTool", data: { agent, name, description, ... } }`. */
  override toDocument(options: ToolDocumentOptions): { type: string; data: Record<string, unknown> } {
    const dataPath = [...options.path, "data"];
    const issues: Issue[] = [];
    let agent: unknown = null;
    try {
      agent = serializeComponent(this.agent, { registry: options.registry, path: [...dataPath, "agent"] });
    } catch (error) {
      if (!JunctionError.isInstance(error)) throw error;
      issues.push(...error.issues);
    }
    let fields: Record<string, unknown> = {};
    try {
      fields = toolFieldsToJSON(
        {
          inputsFromState: this.inputsFromState,
          outputsToState: this.outputsToState,
          outputsToString: this.explicitOutputsToString,
        },
        options,
      );
    } catch (error) {
      if (!JunctionError.isInstance(error)) throw error;
      issues.push(...error.issues);
    }
    if (issues.length > 0) {
      throw new SerializationError(`AgentTool "${this.name}": cannot serialize the tool.`, { issues });
    }
    return {
      type: agentToolType,
      data: {
        agent,
        name: this.name,
        description: this.description,
        parameters: this.explicitParameters ?? null,
        ...fields,
        max_depth: this.maxDepth,
      },
    };
  }
}

const documentFields: Readonly<Record<string | number, string>> = {
  maxDepth: "max_depth",
  inputsFromState: "inputs_from_state",
  outputsToState: "outputs_to_state",
  outputsToString: "outputs_to_string",
};

/** Reads what {@link AgentTool.toDocument} wrote (registered in the default registry as `"junction.AgentTool"`). */
function readAgentTool(
  data: unknown,
  options: { readonly registry?: Registry; readonly path?: readonly (string | number)[] },
): AgentTool {
  const registry = options.registry ?? defaultRegistry;
  const path = options.path ?? [];
  const dataPath = [...path, "data"];
  const record = (typeof data === "object" && data !== null && !Array.isArray(data) ? data : {}) as Record<
    string,
    unknown
  >;
  const issues: Issue[] = [];
  let agent: AnyComponent | undefined;
  let fields: ToolFields = {};
  try {
    agent = deserializeComponent(record.agent, { registry, path: [...dataPath, "agent"] });
  } catch (error) {
    if (!JunctionError.isInstance(error)) throw error;
    issues.push(...error.issues);
  }
  try {
    fields = toolFieldsFromJSON(record, { registry, path });
  } catch (error) {
    if (!JunctionError.isInstance(error)) throw error;
    issues.push(...error.issues);
  }
  if (issues.length > 0) throw new DeserializationError("AgentTool: cannot load the tool.", { issues });
  try {
    return new AgentTool({
      agent: agent!,
      name: record.name as string,
      description: record.description as string,
      parameters: (record.parameters ?? undefined) as JsonObjectSchema | undefined,
      ...fields,
      maxDepth: (record.max_depth ?? undefined) as number | undefined,
    });
  } catch (error) {
    if (!JunctionError.isInstance(error)) throw error;
    throw new DeserializationError(error.message, {
      issues:
        error.issues.length > 0
          ? error.issues.map((issue) => ({
              ...issue,
              path: [...dataPath, ...issue.path.map((part) => documentFields[part] ?? part)],
            }))
          : [{ path: dataPath, message: error.message }],
    });
  }
}

defaultRegistry.registerFunction(agentToolType, readAgentTool);

/**
 * Problems with the AgentTools among an agent's tools: an agent that became its own tool after the tool
 * was made (a toolset changed later), or nesting deeper than a tool's `maxDepth`.
 */
export function agentToolIssues(tools: readonly AnyTool[]): Issue[] {
  const issues: Issue[] = [];
  for (const tool of tools) {
    if (!(tool instanceof AgentTool)) continue;
    try {
      const below = nestingBelow(tool.agent, [], `AgentTool "${tool.name}"`);
      if (1 + below > tool.maxDepth) {
        issues.push({
          path: ["tools", tool.name],
          message: `AgentTool "${tool.name}" nests agents ${1 + below} deep, more than its maxDepth (${tool.maxDepth}).`,
        });
      }
    } catch (error) {
      issues.push({
        path: ["tools", tool.name],
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return issues;
}
