import type { Agent } from "@junction/agents";
import { MemoryLogger } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, type ScriptedReply, tool } from "@junction/llm";
import { z } from "zod";

/** The reference tests' weather tool. */
export const weatherTool = tool({
  name: "weather_tool",
  description: "Current weather for a location",
  parameters: z.object({ location: z.string() }),
  function: () => ({ weather: "mostly sunny", temperature: 7, unit: "celsius" }),
});

/** A tool that echoes its argument. */
export const parrotTool = tool({
  name: "parrot",
  description: "Repeats what it is told",
  parameters: z.object({ parrot: z.string() }),
  function: ({ parrot }) => parrot,
});

/** A tool that always throws. */
export const faultyTool = tool({
  name: "faulty_tool",
  description: "Always fails",
  parameters: z.object({ location: z.string() }),
  function: () => {
    throw new Error("Could not get weather");
  },
});

/** A scripted generator over the given replies. */
export function scripted(
  script: readonly (string | ScriptedReply)[],
  options: { onScriptEnd?: "error" | "repeatLast" | "loop"; stream?: boolean; delayMs?: number } = {},
) {
  // ScriptedReply uses readonly arrays; the params schema's input type wants mutable ones.
  return new ScriptedChatGenerator({ script: [...script] as never[], ...options });
}

/** A scripted reply requesting tool calls. */
export function callTools(...calls: [name: string, args?: Record<string, unknown>][]): ScriptedReply {
  return { toolCalls: calls.map(([toolName, args]) => ({ toolName, arguments: args ?? {} })) };
}

/** A user message. */
export function user(text: string): ChatMessage {
  return ChatMessage.fromUser(text);
}

/** Run options with a memory logger (tests must not write to the console). */
export function quiet(extra: { signal?: AbortSignal } = {}) {
  const logger = new MemoryLogger();
  return { logger, ...extra };
}

/** What an agent run returns, with the sockets every run fills made non-optional. */
export type AgentResult = Awaited<ReturnType<InstanceType<typeof Agent>["run"]>> & {
  messages: ChatMessage[];
  exit_reason: string;
  step_count: number;
  token_usage: Record<string, unknown>;
  tool_call_counts: Record<string, number>;
};

/** Runs an agent and returns its outputs typed as {@link AgentResult}. */
export async function runAgent(
  agent: InstanceType<typeof Agent>,
  inputs: Parameters<InstanceType<typeof Agent>["run"]>[0],
  options: Parameters<InstanceType<typeof Agent>["run"]>[1] = quiet(),
): Promise<AgentResult> {
  return (await agent.run(inputs, options)) as AgentResult;
}
