/**
 * The showcase pipeline: an Agent with `search` (BM25 retrieval over the knowledge base; the documents
 * it finds collect in State key `documents`, an output socket of the agent) and `calculator`, and a ConditionalRouter on its
 * `exit_reason`: a text answer goes to the `answer` output; anything else (the step limit) goes to a
 * fallback component that explains what the agent found before it stopped.
 */
import { Agent, type HookControl, planToolCalls, type State } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { type AnyComponent, defineComponent, Pipeline, type Registry } from "@junction/core";
import type { InMemoryDocumentStore } from "@junction/documents";
import { type ChatMessage, chatMessageSchema } from "@junction/llm";
import { z } from "zod";
import { offlineTipModel } from "./offline-model.js";
import { calculator, createDemoRegistry, createSearchTool, tipStateSchema } from "./tools.js";

/** The fallback branch: summarises what the agent gathered when it ran out of steps. */
export const Fallback = defineComponent({
  type: "tip_agent.Fallback",
  description: "Explains that the agent stopped early and lists the tool results it had.",
  inputs: { messages: z.array(chatMessageSchema) },
  outputs: { answer: z.string() },
  run: ({ messages }) => {
    const found = messages
      .filter((message) => message.role === "tool")
      .map(
        (message) =>
          `- ${message.toolCallResult?.origin.toolName}: ${String(message.toolCallResult?.result)}`,
      );
    return {
      answer: `The agent reached its step limit before answering.${found.length > 0 ? `\nWhat it found:\n${found.join("\n")}` : ""}`,
    };
  },
});

/**
 * A `beforeTool` hook that reports the schedule of the step's tool calls through the run's logger
 * (the demo's logger prints it). Registered by name so the pipeline still serializes.
 */
export function reportToolPlan(state: State, control: HookControl): void {
  const messages = state.get("messages") as readonly ChatMessage[];
  const calls = messages.at(-1)?.toolCalls ?? [];
  if (calls.length === 0) return;
  const batches = planToolCalls(calls, control.tools);
  control.logger.info("tool plan", {
    step: control.stepCount + 1,
    calls: calls.map((call) => `${call.toolName}(${JSON.stringify(call.arguments)})`),
    batches: batches.map((batch) => batch.map((index) => `${calls[index]?.toolName}#${index}`)),
  });
}

/** The registry a saved demo pipeline is loaded with: every built-in plus the demo's own names. */
export function createTipRegistry(): Registry {
  return createDemoRegistry({
    "tip_agent.offlineModel": offlineTipModel,
    "tip_agent.reportToolPlan": reportToolPlan,
  }).register(Fallback);
}

/** The tip agent's system prompt. */
export const tipSystemPrompt =
  "You are a travel assistant. Use the search tool to look up local customs and the calculator tool for any arithmetic. Answer in two or three sentences.";

/** Builds the showcase pipeline around `chatGenerator`, searching `knowledgeBase`. */
export function buildTipPipeline(options: {
  chatGenerator: AnyComponent;
  knowledgeBase: InMemoryDocumentStore;
  maxAgentSteps?: number;
}): Pipeline {
  const agent = new Agent({
    chatGenerator: options.chatGenerator,
    tools: [createSearchTool(options.knowledgeBase), calculator],
    stateSchema: tipStateSchema,
    systemPrompt: tipSystemPrompt,
    maxAgentSteps: options.maxAgentSteps ?? 6,
    hooks: { beforeTool: reportToolPlan },
  });
  const router = new ConditionalRouter({
    routes: [
      {
        condition: 'exit_reason == "text"',
        output: "last_message.text",
        outputName: "answer",
        outputType: z.string(),
      },
      {
        condition: 'exit_reason != "text"',
        output: "messages",
        outputName: "fallback",
        outputType: z.array(chatMessageSchema),
      },
    ],
  });
  return new Pipeline({ metadata: { example: "tip-agent" } })
    .addComponent("agent", agent)
    .addComponent("router", router)
    .addComponent("fallback", new Fallback())
    .connect("agent.exit_reason", "router.exit_reason")
    .connect("agent.last_message", "router.last_message")
    .connect("agent.messages", "router.messages")
    .connect("router.fallback", "fallback.messages");
}
