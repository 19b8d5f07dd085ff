import { ComponentError, excerpt, isStreaming, type MaybePromise, type RunContext } from "@junction/core";
import {
  type AnyTool,
  ChatMessage,
  flattenTools,
  type StreamingCallback,
  type StreamingChunk,
  Toolset,
  type ToolsInput,
} from "@junction/llm";
import { State, writeUnchecked } from "../state/state.js";
import type { AgentParams, AgentSetup } from "./agent-config.js";
import { renderTemplate } from "./template.js";

/** Everything a run decides before its first step. */
export interface PreparedRun {
  /** The run's State, holding the initial conversation and the run metadata. */
  readonly state: State;
  /** Where each step re-reads its tools from (dynamic toolsets show new tools on the next step). */
  readonly tools: ToolsInput | undefined;
  /** The tools at the start of the run. */
  readonly initialTools: readonly AnyTool[];
  /** The tool names at the start of the run (for traces). */
  readonly initialToolNames: readonly string[];
  /**
   * The generator's inputs other than `messages` and `tools`: each socket whose value is not `undefined`
   * (a default, `generation_kwargs`, the streaming callback); `undefined` when there is none, so a step
   * builds only `{ messages, tools }`.
   */
  readonly generatorInputs: Readonly<Record<string, unknown>> | undefined;
  /** Whether the generator has a `tools` input. */
  readonly generatorHasTools: boolean;
  /** Whether the generator has a `response_format` input (JSON-schema replies). */
  readonly generatorHasResponseFormat: boolean;
  /**
   * Where the generator's `context.emit` calls go (the Agent's own `context.emit`); `undefined` when
   * nobody streams, so the generator builds no chunks.
   */
  readonly onGeneratorEmit: ((payload: unknown) => MaybePromise<void>) | undefined;
  /**
   * Receives tool-result chunks (to the streaming callback and `context.emit`); `undefined` when nobody
   * streams (no callback, and the Agent's emit goes nowhere), so no chunk is built.
   */
  readonly onChunk: ((chunk: StreamingChunk) => MaybePromise<void>) | undefined;
}

function spawnTools(tools: ToolsInput | undefined): ToolsInput | undefined {
  if (tools === undefined) return undefined;
  if (tools instanceof Toolset) return tools.spawn();
  return tools.map((item) => (item instanceof Toolset ? item.spawn() : item));
}

function selectTools(configured: ToolsInput | undefined, names: readonly string[]): AnyTool[] {
  const all = flattenTools(configured);
  if (all.length === 0) {
    throw new ComponentError(
      `Agent.run: the "tools" input selects tools by name (${names.map((name) => `"${excerpt(name)}"`).join(", ")}), but the Agent has no tools. Configure tools on the Agent first.`,
    );
  }
  const known = new Set(all.map((tool) => tool.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ComponentError(
      `Agent.run: unknown tool name${unknown.length === 1 ? "" : "s"} ${unknown.map((name) => `"${excerpt(name)}"`).join(", ")} in the "tools" input. Available: ${[...known].map((name) => `"${excerpt(name)}"`).join(", ")}.`,
    );
  }
  const wanted = new Set(names);
  return all.filter((tool) => wanted.has(tool.name));
}

async function warmUpTools(tools: ToolsInput | undefined): Promise<void> {
  if (tools === undefined) return;
  const items = tools instanceof Toolset ? [tools] : tools;
  for (const item of items) await item.warmUp();
}

function initialMessages(inputs: Record<string, unknown>, params: AgentParams, variables: readonly string[]) {
  const values: Record<string, unknown> = {};
  for (const name of variables) values[name] = inputs[name];
  const messages: ChatMessage[] = [];
  if (params.systemPrompt !== undefined) {
    messages.push(ChatMessage.fromSystem(renderTemplate(params.systemPrompt, values)));
  }
  messages.push(...((inputs.messages as readonly ChatMessage[] | undefined) ?? []));
  if (params.userPrompt !== undefined)
    messages.push(ChatMessage.fromUser(renderTemplate(params.userPrompt, values)));
  return messages;
}

/** Selects and warms up the tools, builds the State, and decides how chunks flow. */
export async function prepareRun(
  inputs: Record<string, unknown>,
  context: RunContext<AgentParams, AgentSetup>,
): Promise<PreparedRun> {
  const { params, resources: setup } = context;
  const selection = inputs.tools as readonly string[] | undefined;
  const tools = selection === undefined ? spawnTools(params.tools) : selectTools(params.tools, selection);
  await warmUpTools(tools);
  const flat = flattenTools(tools);
  const generator = params.chatGenerator;
  const sockets = generator.inputSockets as Readonly<Record<string, { defaultValue(): unknown }>>;
  const generatorHasTools = Object.hasOwn(sockets, "tools");
  if (flat.length > 0 && !generatorHasTools) {
    throw new ComponentError(
      `Agent.run: the chat generator "${excerpt(generator.type)}" has no "tools" input, so it cannot offer tools to the model.`,
    );
  }

  const data: Record<string, unknown> = {};
  for (const key of setup.userStateKeys) if (inputs[key] !== undefined) data[key] = inputs[key];
  const state = new State({ schema: setup.stateSchema, data });
  // The messages are checked (in a pipeline they come from another component as they are); the run
  // metadata is built here and written without a schema check.
  state.set("messages", initialMessages(inputs, params, setup.templateVariables) as never);
  writeUnchecked(state, "step_count", 0);
  writeUnchecked(state, "token_usage", {});
  writeUnchecked(state, "tool_call_counts", Object.fromEntries(flat.map((tool) => [tool.name, 0])));
  writeUnchecked(state, "exit_reason", null);

  const userCallback =
    (inputs.streaming_callback as StreamingCallback | undefined) ?? params.streamingCallback;
  const emit = context.emit;
  const streaming = isStreaming(emit);
  const onChunk =
    userCallback === undefined
      ? streaming
        ? (chunk: StreamingChunk) => emit(chunk)
        : undefined
      : async (chunk: StreamingChunk) => {
          await userCallback(chunk);
          await emit(chunk);
        };
  const generatorInputs: Record<string, unknown> = {};
  for (const socket of setup.generatorDefaults) {
    const value = socket.defaultValue();
    if (value !== undefined) generatorInputs[socket.name] = value;
  }
  if (Object.hasOwn(sockets, "generation_kwargs") && inputs.generation_kwargs !== undefined) {
    generatorInputs.generation_kwargs = inputs.generation_kwargs;
  }
  // The chat generator contract: a generator sends each chunk both to its streaming_callback and to
  // context.emit, so the callback goes in as-is and the generator's emits surface through ours.
  if (userCallback !== undefined && Object.hasOwn(sockets, "streaming_callback")) {
    generatorInputs.streaming_callback = userCallback;
  }
  return {
    state,
    tools,
    initialTools: flat,
    initialToolNames: flat.map((tool) => tool.name),
    generatorInputs: Object.keys(generatorInputs).length === 0 ? undefined : generatorInputs,
    generatorHasTools,
    generatorHasResponseFormat: Object.hasOwn(sockets, "response_format"),
    onGeneratorEmit: streaming ? emit : undefined,
    onChunk,
  };
}
