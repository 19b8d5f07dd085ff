import { Agent } from "@junction/agents";
import { BranchJoiner, ConditionalRouter, PromptBuilder } from "@junction/components";
import { defineComponent, Pipeline } from "@junction/core";
import { ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";
import { refundApprovalPipeline } from "../../../test/support/refund-approval.js";

/** Pipelines the playground tests serve. */

export const Add = defineComponent({
  type: "playground_test.Add",
  inputs: { value: z.number(), add: z.number().default(1) },
  outputs: { result: z.number() },
  run: ({ value, add }) => ({ result: value + add }),
});

/** A loop: add → router → back to add until the value reaches 3. */
export function loopPipeline(): Pipeline {
  const router = new ConditionalRouter({
    routes: [
      { condition: "result < 3", output: "result", outputName: "again", outputType: z.number() },
      { condition: "result >= 3", output: "result", outputName: "done", outputType: z.number() },
    ],
  });
  const p = new Pipeline({ metadata: { description: "Counts to three in a loop." } });
  p.addComponent("entry", new BranchJoiner({ type: z.number() }))
    .addComponent("add", new Add())
    .addComponent("router", router);
  p.connect("entry.value", "add.value")
    .connect("add.result", "router.result")
    .connect("router.again", "entry.value");
  return p;
}

export const clock = tool({
  name: "clock",
  description: "The time in a city.",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => `It is noon in ${city}.`,
});

export const weather = tool({
  name: "weather",
  description: "The weather in a city.",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => `Sunny in ${city}.`,
});

/** An agent that calls two tools in one turn, then answers with streamed text; a router on exit_reason. */
export function agentPipeline(): Pipeline {
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) =>
        messages.some((message) => message.role === "tool")
          ? { text: "It is sunny and noon in Paris." }
          : {
              toolCalls: [
                { toolName: "weather", arguments: { city: "Paris" }, id: "call_w" },
                { toolName: "clock", arguments: { city: "Paris" }, id: "call_c" },
              ],
            },
      stream: true,
    }),
    tools: [weather, clock],
    systemPrompt: "You answer questions about cities.",
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
        output: "exit_reason",
        outputName: "other",
        outputType: z.string(),
      },
    ],
  });
  const p = new Pipeline({ metadata: { description: "An agent with two tools, routed on exit_reason." } });
  p.addComponent("agent", agent).addComponent("router", router);
  p.connect("agent.exit_reason", "router.exit_reason").connect("agent.last_message", "router.last_message");
  return p;
}

/** An agent whose `refund` tool needs approval: the run stops and waits in the approval inbox. */
export function refundPipeline(): Pipeline {
  return refundApprovalPipeline("Refunded order A-1.").pipeline;
}

/** A prompt builder alone: its template variables are typed \`any\` (the form takes plain text for them). */
export function promptPipeline(): Pipeline {
  return new Pipeline().addComponent("prompt", new PromptBuilder({ template: "Hello, {{ name }}!" }));
}
