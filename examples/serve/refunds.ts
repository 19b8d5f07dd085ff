/**
 * An agent with a tool that needs approval, for `junction dev` and `junction serve --store`: the
 * `refund` tool asks a person before refunding more than 100 EUR. Offline: a scripted model.
 *
 *   npx junction dev examples/serve examples/serve/refunds.ts   (a directory serves its documents only)
 *   # open the playground, pick "refunds", send "Refund order A-17: 250 EUR";
 *   # the run waits in the approval inbox; approve or reject it there, or over HTTP:
 *   curl -X POST localhost:3700/pipelines/refunds/run -H 'content-type: application/json' \
 *     -d '{"refunds":{"messages":[{"role":"user","content":"Refund order A-17: 250 EUR"}]}}'
 *   # → 202 { "status": "interrupted", "run_id": "refunds.…", "interrupts": [{ "id": "refunds#1/s1/refund_A-17", … }] }
 *   curl -X POST localhost:3700/runs/<run_id>/resume -H 'content-type: application/json' \
 *     -d '{"decisions":{"refunds#1/s1/refund_A-17":{"action":"approve"}}}'
 */
import { Agent } from "@junction/agents";
import { ScriptedChatGenerator, type ScriptedReply, tool } from "@junction/llm";
import { z } from "zod";

const refund = tool({
  name: "refund",
  description: "Refunds an order (amounts over 100 EUR need a person's approval)",
  parameters: z.object({ order: z.string(), amount: z.number() }),
  needsApproval: ({ amount }) => amount > 100,
  function: ({ order, amount }) => `refunded ${amount} EUR for order ${order}`,
});

/** Asks for a refund when the user names an order and an amount, then reports what happened. */
const model = new ScriptedChatGenerator({
  respond: (messages): ScriptedReply | string => {
    const last = messages[messages.length - 1];
    const result = last?.toolCallResult;
    if (result !== undefined) {
      return result.error ? `The refund was not made: ${result.result}` : `Done: ${result.result}.`;
    }
    const match = /order\s+([\w-]+)\D+(\d+)/i.exec(last?.text ?? "");
    if (match === null) return 'Which order, and how much? For example: "Refund order A-17: 250 EUR".';
    const [, order = "", amount = "0"] = match;
    return {
      toolCalls: [
        { id: `refund_${order}`, toolName: "refund", arguments: { order, amount: Number(amount) } },
      ],
    };
  },
});

export default new Agent({
  chatGenerator: model,
  tools: [refund],
  systemPrompt: "You handle refunds.",
});
