/**
 * W3–W5 built with Junction's public API: an Agent with a ScriptedChatGenerator and a trivial tool.
 */
import { Agent } from "@junction/agents";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";
import { sleep } from "../harness.js";

/** An agent that calls `increment` for `steps` turns (`callsPerStep` calls per turn), then answers. */
export function junctionAgent(options: {
  steps: number;
  callsPerStep: number;
  toolDelayMs: number;
  onToolCall?: () => void;
}): () => Promise<number> {
  const increment = tool({
    name: "increment",
    description: "Adds one to a number.",
    parameters: z.object({ value: z.number() }),
    function: async ({ value }) => {
      options.onToolCall?.();
      if (options.toolDelayMs > 0) await sleep(options.toolDelayMs);
      return String(value + 1);
    },
  });
  // A counter, not a scan of the conversation: the model costs O(1) per turn on both systems.
  let turn = 0;
  const calls = Array.from({ length: options.callsPerStep }, (_, index) => ({
    toolName: "increment",
    arguments: { value: index },
  }));
  const generator = new ScriptedChatGenerator({
    respond: () => {
      turn += 1;
      return turn > options.steps ? { text: "done" } : { toolCalls: calls };
    },
  });
  const agent = new Agent({ chatGenerator: generator, tools: [increment], maxAgentSteps: options.steps + 1 });
  return async () => {
    turn = 0;
    const result = await agent.run({ messages: [ChatMessage.fromUser("count")] });
    return result.messages?.length ?? 0;
  };
}
