/**
 * The pipeline served as a Restate workflow: the tip agent (offline model, `search` and `calculator`
 * tools) followed by a router. A calculation on a bill of 100 or more needs a person's approval, so a
 * run for a large bill pauses until someone decides over HTTP.
 */
import { Agent } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { Pipeline } from "@junction/core";
import { ScriptedChatGenerator, tool } from "@junction/llm";
import { junctionWorkflow } from "@junction/restate";
import { z } from "zod";
import { offlineTipModel } from "../tip-agent/offline-model.js";
import { evaluateExpression, search, tipStateSchema } from "../tip-agent/tools.js";

/** The tip agent's calculator, gated: an expression with a number of 100 or more waits for approval. */
export const approvedCalculator = tool({
  name: "calculator",
  description: "Evaluates an arithmetic expression, e.g. '85 * 10%' or '(85 + 4.25) / 2'.",
  parameters: z.object({ expression: z.string().describe("The arithmetic expression to evaluate.") }),
  needsApproval: ({ expression }) => (expression.match(/\d+(\.\d+)?/g) ?? []).some((n) => Number(n) >= 100),
  function: evaluateExpression,
});

/** agent → router: the answer when the agent replied in text. */
export function tipPipeline(): Pipeline {
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({ respond: offlineTipModel }),
    tools: [search, approvedCalculator],
    stateSchema: tipStateSchema,
    systemPrompt: "You are a travel assistant. Look customs up, calculate, answer briefly.",
    maxAgentSteps: 6,
  });
  const router = new ConditionalRouter({
    routes: [
      {
        condition: 'exit_reason == "text"',
        output: "last_message.text",
        outputName: "answer",
        outputType: z.string(),
      },
    ],
  });
  return new Pipeline()
    .addComponent("agent", agent)
    .addComponent("router", router)
    .connect("agent.exit_reason", "router.exit_reason")
    .connect("agent.last_message", "router.last_message");
}

/** The workflow: `POST /TipApproval/<runId>/run`, `/interrupts`, `/decide`, `/status`, `/cancel`. */
export const tipWorkflow = junctionWorkflow({ name: "TipApproval", target: tipPipeline() });
