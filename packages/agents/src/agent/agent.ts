import { defineComponent } from "@junction/core";
import { flattenTools } from "@junction/llm";
import { z } from "zod";
import { outputIssuesSchema, outputZodSchema } from "../output/output-schema.js";
import { type AgentParams, type AgentSetup, agentParamsSchema, setupAgent } from "./agent-config.js";
import { agentSerializer } from "./agent-serializer.js";
import { readAgentSnapshot } from "./agent-snapshot.js";
import { agentMetadataOutputs, agentRunInputs } from "./agent-sockets.js";
import type {
  AgentClass,
  AgentInputSpecsOf,
  AgentInstance,
  AgentOptions,
  AgentOutputSpecsOf,
} from "./agent-types.js";
import { conversationInputs } from "./conversation.js";
import { runAgent } from "./run-agent.js";
import { templateVariables } from "./template.js";
import { checkEditDecisions } from "./tool-gates.js";

/** The Agent's input sockets as declared at run time (any options); see {@link AgentInputSpecsOf} for the inferred ones. */
export type AgentInputSpecs = AgentInputSpecsOf<AgentOptions>;
/** The Agent's output sockets as declared at run time (any options); see {@link AgentOutputSpecsOf} for the inferred ones. */
export type AgentOutputSpecs = AgentOutputSpecsOf<AgentOptions>;

function promptTemplateVariables(params: AgentParams): string[] {
  return [
    ...new Set([
      ...templateVariables(params.systemPrompt ?? ""),
      ...templateVariables(params.userPrompt ?? ""),
    ]),
  ];
}

function agentInputs(params: AgentParams): AgentInputSpecs {
  const inputs: Record<string, z.ZodType> = { ...agentRunInputs };
  if (params.conversation !== undefined) Object.assign(inputs, conversationInputs);
  for (const [key, spec] of Object.entries(params.stateSchema)) {
    if (key !== "messages") inputs[key] = spec.type.optional();
  }
  for (const variable of promptTemplateVariables(params)) inputs[variable] = z.unknown();
  return inputs as AgentInputSpecs;
}

function agentOutputs(params: AgentParams): AgentOutputSpecs {
  const outputs: Record<string, z.ZodType> = { ...agentMetadataOutputs };
  for (const [key, spec] of Object.entries(params.stateSchema)) {
    if (key !== "messages") outputs[key] = spec.type;
  }
  if (params.outputSchema !== undefined) {
    outputs.structured_output = outputZodSchema(params.outputSchema);
    outputs.output_issues = outputIssuesSchema;
  }
  return outputs as AgentOutputSpecs;
}

/**
 * An LLM agent: calls a chat generator in a loop, runs the tools it asks for, and stops on an exit
 * condition. It is a component (it goes into pipelines and serializes), but its loop is a plain
 * `while` over steps.
 *
 * Each step re-reads the tool list, runs the `beforeLlm` hooks, calls the model, and exits with
 * `"text"` (a reply without tool calls), `"length"` / `"content_filter"` (the model stopped for that
 * reason), or else runs the `beforeTool` hooks, the requested tools (scheduled by their State reads
 * and writes, see `planToolCalls`), the `afterTool` hooks, and exits with the tool's name when an
 * exit-condition tool ran without error. `maxAgentSteps` ends the loop with `"max_agent_steps"`;
 * a hook can end it with `control.stop(reason)`, and an `onExit` hook can veto an exit with
 * `control.continueRun()`.
 *
 * Outputs: `messages`, `last_message`, `exit_reason`, `step_count`, `token_usage`,
 * `tool_call_counts`, and every state key. Failures and aborts reject with an `AgentRunError` that
 * carries the conversation so far.
 *
 * With an `outputSchema` the final answer must be a value of that schema: the model is asked for it
 * with a final-answer tool or a strict JSON-schema response format (`outputStrategy`), an invalid
 * answer goes back to the model with its problems (up to `maxOutputRetries` times, each a step), and
 * the valid value comes out on the `structured_output` socket (and State key). When the retries are
 * used up the run ends with `exit_reason` `"invalid_output"` and the problems on `output_issues`.
 *
 * @example
 * ```ts
 * const agent = new Agent({
 *   chatGenerator: new ScriptedChatGenerator({ replies: ["Hello!"] }),
 *   tools: [search],
 *   exitConditions: ["text"],
 *   stateSchema: { documents: { type: z.array(z.string()) } },
 * });
 * const result = await agent.run({ messages: [ChatMessage.fromUser("Hi")] });
 * result.exit_reason; // "text"
 * ```
 *
 * Types: `new Agent(options)` infers the sockets from the options — State keys with their zod types,
 * `{{ variables }}` of literal prompts as inputs, and `exit_reason` as the union of the built-in
 * reasons, the `exitConditions` names and (with hooks) `string`. The result's run metadata is always
 * present. `Agent` is also a type: `function f(agent: Agent)` accepts every agent, and
 * `Agent<typeof options>` is the instance built from those options.
 */
export const Agent: AgentClass = defineComponent({
  type: "junction.Agent",
  description: "An LLM agent that calls tools in a loop until an exit condition is met.",
  params: agentParamsSchema,
  inputs: agentInputs,
  outputs: agentOutputs,
  setup: (params): AgentSetup => setupAgent(params),
  // Each model call and tool call is its own durable step (llm#<step>, tool#<step>/<call id>).
  ownsDurableSteps: true,
  run: (inputs, context) => runAgent(inputs as Record<string, unknown>, context) as never,
  checkResume: (resume, { params, resources }) => {
    if (resume.state === undefined) return;
    const { snapshot, state } = readAgentSnapshot(resume.state, resources.stateSchema);
    const tools = new Map(flattenTools(params.tools).map((tool) => [tool.name, tool]));
    checkEditDecisions(snapshot, state, resume.decisions, tools);
  },
  warmUp: async ({ params }) => {
    await params.chatGenerator.warmUp();
  },
  close: async ({ params }) => {
    await params.chatGenerator.close();
  },
  serializer: agentSerializer,
}) as unknown as AgentClass;

/** An Agent instance; `Agent<TOptions>` is the one built from `TOptions` (see {@link AgentClass}). */
export type Agent<TOptions extends AgentOptions = AgentOptions> = AgentInstance<TOptions>;
