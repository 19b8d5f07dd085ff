import { Agent } from "@junction/agents";
import { type ScriptedReply, tool } from "@junction/llm";
import { z } from "zod";
import { scripted } from "./helpers.js";

/** A refund tool that counts its runs and needs approval above 100. */
export function refundTool(runs: { amount: number }[]) {
  return tool({
    name: "refund",
    description: "Refunds an order",
    parameters: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 100,
    function: ({ order, amount }) => {
      runs.push({ amount });
      return `refunded ${amount} for ${order}`;
    },
  });
}

/** A reply asking for refunds with explicit call ids. */
export function refunds(...items: [id: string, order: string, amount: number][]): ScriptedReply {
  return {
    toolCalls: items.map(([id, order, amount]) => ({ id, toolName: "refund", arguments: { order, amount } })),
  };
}

/** An agent over a scripted model whose calls are counted. */
export function refundAgent(
  script: readonly (string | ScriptedReply)[],
  runs: { amount: number }[],
  extra = {},
) {
  const generator = scripted([...script]);
  const agent = new Agent({
    chatGenerator: generator,
    tools: [refundTool(runs)],
    ...extra,
  });
  return { agent, generator };
}

export { interruptOf } from "../../core/test/support/interrupts.js";
