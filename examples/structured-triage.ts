/**
 * A support agent with a typed answer. It looks up the customer's order with a tool, then answers a
 * `{ category, priority, summary }` object (the Agent's `outputSchema`). A `ConditionalRouter` routes
 * on the answer's fields — `structured_output.priority == "high"` goes to the on-call queue — and sends
 * `exit_reason == "invalid_output"` (the model never produced a valid answer) to a human.
 *
 * Offline by default (a scripted model). With OPENAI_BASE_URL (and OPENAI_MODEL) set it uses that
 * OpenAI-compatible server instead:
 *
 *   npx tsx --conditions=@junction/source examples/structured-triage.ts
 *   OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=llama3.2 npx tsx --conditions=@junction/source examples/structured-triage.ts
 */
import { Agent } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { type AnyComponent, MemoryLogger, Pipeline } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, type ScriptedReplyFunction, tool } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

/** The answer every ticket gets. */
export const Triage = z.object({
  category: z.enum(["shipping", "billing", "other"]).describe("what the ticket is about"),
  priority: z.enum(["low", "normal", "high"]).describe("high when the customer is blocked or money is lost"),
  summary: z.string().describe("one sentence for the support team"),
});

const orders: Record<string, { status: string; days_late: number }> = {
  A1: { status: "lost in transit", days_late: 12 },
  B7: { status: "delivered", days_late: 0 },
};

/** Looks up an order by id. */
export const lookupOrder = tool({
  name: "lookup_order",
  description: "Looks up an order's shipping status by its id (e.g. A1).",
  parameters: z.object({ id: z.string() }),
  function: ({ id }) => orders[id] ?? { status: "unknown order" },
});

/** The offline model: asks for the order when a ticket names one, then answers through final_answer. */
const offlineModel: ScriptedReplyFunction = (messages) => {
  const last = messages[messages.length - 1];
  const ticket = messages.find((message) => message.role === "user")?.text ?? "";
  if (ticket.includes("???")) return "Hmm, I am not sure what this customer wants.";
  const order = /order (\w+)/.exec(ticket)?.[1];
  if (order !== undefined && last?.role === "user") {
    return { toolCalls: [{ toolName: "lookup_order", arguments: { id: order } }] };
  }
  const status = JSON.stringify(last?.toolCallResult?.result ?? "");
  const answer = status.includes("lost")
    ? { category: "shipping", priority: "high", summary: `Order ${order} is lost in transit, 12 days late.` }
    : { category: "billing", priority: "low", summary: "Customer asks how to download an invoice." };
  return { toolCalls: [{ toolName: "final_answer", arguments: answer }] };
};

function chatGenerator(env: Readonly<Record<string, string | undefined>>): AnyComponent {
  if (!env.OPENAI_BASE_URL) return new ScriptedChatGenerator({ respond: offlineModel });
  return new OpenAIChatGenerator({ baseURL: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL ?? "llama3.2" });
}

/** The triage pipeline: the agent, then a router on its structured answer. */
export function triagePipeline(env: Readonly<Record<string, string | undefined>> = {}): Pipeline {
  const routeType = Triage;
  return new Pipeline({ logger: new MemoryLogger() })
    .addComponent(
      "agent",
      new Agent({
        chatGenerator: chatGenerator(env),
        tools: [lookupOrder],
        systemPrompt: "You triage support tickets. Look up orders the customer mentions before answering.",
        outputSchema: Triage,
        maxOutputRetries: 1,
        maxAgentSteps: 6,
      }),
    )
    .addComponent(
      "router",
      new ConditionalRouter({
        routes: [
          {
            condition: 'exit_reason == "invalid_output"',
            output: "output_issues",
            outputName: "human",
            outputType: z.array(z.object({ path: z.array(z.unknown()), message: z.string() })),
          },
          {
            condition: 'structured_output.priority == "high"',
            output: "structured_output",
            outputName: "on_call",
            outputType: routeType,
          },
          { condition: "true", output: "structured_output", outputName: "queue", outputType: routeType },
        ],
        optionalVariables: ["structured_output", "output_issues"],
      }),
    )
    .connect("agent.exit_reason", "router.exit_reason")
    .connect("agent.structured_output", "router.structured_output")
    .connect("agent.output_issues", "router.output_issues");
}

/** What happened to one ticket. */
export interface TriageOutcome {
  readonly ticket: string;
  readonly route: string;
  readonly value: unknown;
}

/** Triages three tickets and prints where each one went. */
export async function main(
  io: ExampleIO,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<TriageOutcome[]> {
  io.write(
    env.OPENAI_BASE_URL ? `model: ${env.OPENAI_BASE_URL}\n` : "model: ScriptedChatGenerator — offline\n",
  );
  const tickets = [
    "Where is my order A1? It should have arrived last week.",
    "How do I download the invoice for my order B7?",
    "??? asdf",
  ];
  const outcomes: TriageOutcome[] = [];
  for (const ticket of tickets) {
    // A fresh pipeline per ticket: the scripted model keeps its position per instance.
    const outputs = await triagePipeline(env).run(
      { agent: { messages: [ChatMessage.fromUser(ticket)] } },
      { includeOutputsFrom: ["agent"] },
    );
    const agent = outputs.agent as { exit_reason: string; step_count: number };
    const routed = (outputs.router ?? {}) as Record<string, unknown>;
    const [route = "none", value] = Object.entries(routed)[0] ?? [];
    outcomes.push({ ticket, route, value });
    io.write(
      `\nticket: ${ticket}\n  agent: exit_reason ${agent.exit_reason} after ${agent.step_count} step(s)\n  → router.${route}: ${JSON.stringify(value)}\n`,
    );
  }
  return outcomes;
}

runIfMain(import.meta.url, main);
