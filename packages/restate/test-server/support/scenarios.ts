/**
 * What the Restate tests serve (imported by the service process and, for in-process comparisons, by
 * the tests): the conformance loop and agent scenarios and a "Tips" agent whose tools log every
 * execution to the file in JUNCTION_EXEC_LOG.
 */
import { appendFileSync } from "node:fs";
import { Agent } from "@junction/agents";
import { Pipeline } from "@junction/core";
import { ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";
import "../../../../test/conformance/components/durable-types.js";
import { agentScenarios } from "../../../../test/conformance/scenarios-agents.js";
import { loopScenarios } from "../../../../test/conformance/scenarios-loops.js";

const log = (line: string) => {
  if (process.env.JUNCTION_EXEC_LOG) appendFileSync(process.env.JUNCTION_EXEC_LOG, `${line}\n`);
};
const slowMs = () => Number(process.env.JUNCTION_SLOW_MS ?? "0");

/** The conformance scenarios served: `<prefix><scenario>run<run>`, one workflow per run, sharing the pipeline. */
export const conformance = [
  ...loopScenarios.map((scenario, index) => ({ prefix: `loop${index}`, scenario })),
  ...agentScenarios.map((scenario, index) => ({ prefix: `agent${index}`, scenario })),
];

const lookup = (name: string, delay: () => number) =>
  tool({
    name,
    description: `Looks the bill up (${name})`,
    parameters: z.object({ amount: z.number() }),
    function: async ({ amount }) => {
      log(`tool:${name}:start`);
      await new Promise((resolve) => setTimeout(resolve, delay()));
      log(`tool:${name}:end`);
      return `${name}: ${amount * 0.1}`;
    },
  });

/** The Tips agent: one model turn asks for both tools in one batch, the next answers. */
export function tipsAgent(variant: string | undefined) {
  const tools = [lookup("fast", () => 0), lookup("slow", slowMs)];
  if (variant === "changed") tools.push(lookup("extra", () => 0));
  return new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) => {
        log("llm");
        const results = messages.filter((message) => message.role === "tool");
        if (results.length === 0) {
          return {
            toolCalls: [
              { toolName: "fast", arguments: { amount: 85 }, id: "call_fast" },
              { toolName: "slow", arguments: { amount: 85 }, id: "call_slow" },
            ],
          };
        }
        return `Tip: ${results.map((message) => message.toolCallResult?.result).join(" / ")}`;
      },
    }),
    tools,
  });
}

/**
 * The Refunds agent: looks the order up, then asks for a refund that needs approval (above 100), then
 * reports the refund's result (or its rejection).
 */
export function refundAgent() {
  const lookupOrder = tool({
    name: "lookup_order",
    description: "Finds an order",
    parameters: z.object({ order: z.string() }),
    function: ({ order }) => {
      log(`tool:lookup_order:${order}`);
      return `order ${order}: 250 EUR`;
    },
  });
  const refund = tool({
    name: "refund",
    description: "Refunds an order",
    parameters: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 100,
    function: ({ order, amount }) => {
      log(`tool:refund:${order}:${amount}`);
      return `refunded ${amount} EUR for ${order}`;
    },
  });
  return new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) => {
        log("llm");
        const results = messages.filter((message) => message.role === "tool");
        if (results.length === 0) {
          return {
            toolCalls: [{ id: "call_lookup", toolName: "lookup_order", arguments: { order: "A-17" } }],
          };
        }
        if (results.length === 1) {
          return {
            toolCalls: [{ id: "call_refund", toolName: "refund", arguments: { order: "A-17", amount: 250 } }],
          };
        }
        const last = results.at(-1)?.toolCallResult;
        return last?.error ? `Not refunded: ${last.result}` : `Done: ${last?.result}`;
      },
    }),
    tools: [lookupOrder, refund],
  });
}

/** The Refunds agent inside a pipeline (its interrupt ids get the `agent#1/` prefix). */
export function refundPipeline(): Pipeline {
  return new Pipeline().addComponent("agent", refundAgent());
}

/** The chat thread's agent: answers with the number of user messages it sees and the last one. */
export function threadAgent() {
  return new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) => {
        log("llm");
        const users = messages.filter((message) => message.role === "user");
        return `turn ${users.length}: you said "${users.at(-1)?.text}"`;
      },
    }),
    systemPrompt: "You are a test thread.",
  });
}
