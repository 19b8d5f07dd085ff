import { Agent } from "@junction/agents";
import { Pipeline } from "@junction/core";
import { ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";

/**
 * The approval fixture shared by the serve, CLI and playground tests: a pipeline around an agent whose
 * `refund` tool needs approval. The scripted model asks for one refund (order A-1, 500), then answers
 * `answer` when the refund ran and "Not refunded." when it was rejected. `refunds` records what really ran.
 */
export function refundApprovalPipeline(answer = "Refunded."): { pipeline: Pipeline; refunds: string[] } {
  const refunds: string[] = [];
  const refund = tool({
    name: "refund",
    description: "Refunds an order.",
    parameters: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: true,
    function: ({ order, amount }) => {
      refunds.push(`${order}:${amount}`);
      return `refunded ${amount} for ${order}`;
    },
  });
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) => {
        const result = messages.findLast((message) => message.role === "tool");
        if (result === undefined) {
          return {
            toolCalls: [{ id: "call_1", toolName: "refund", arguments: { order: "A-1", amount: 500 } }],
          };
        }
        return {
          text: String(result.toolCallResult?.result).startsWith("refunded") ? answer : "Not refunded.",
        };
      },
    }),
    tools: [refund],
  });
  const pipeline = new Pipeline({ metadata: { description: "Refunds orders, with approval." } });
  pipeline.addComponent("agent", agent);
  pipeline.declareIO({ inputs: { messages: "agent.messages" }, outputs: { reply: "agent.last_message" } });
  return { pipeline, refunds };
}
