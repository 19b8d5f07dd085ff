/**
 * A multi-agent pipeline: a triage agent decides the route with its exit tools (`to_billing`,
 * `to_support`); a `ConditionalRouter` on `exit_reason` sends the conversation to one of two specialist
 * agents. The support agent asks a research sub-agent through an `AgentTool` and searches a knowledge
 * base through a `PipelineTool`. The streamed output shows which agent is speaking; the whole pipeline
 * is saved to JSON, loaded, and run again with the same result.
 *
 * Offline by default (scripted models); set OPENAI_API_KEY or OPENAI_BASE_URL (and OPENAI_MODEL) to use
 * a real model.
 *
 * Run: npx tsx --conditions=@junction/source examples/multi-agent-pipeline.ts
 */
import { Agent, AgentTool } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { type AnyComponent, createRegistry, defineComponent, Pipeline, type Registry } from "@junction/core";
import {
  ChatMessage,
  chatMessageSchema,
  PipelineTool,
  ScriptedChatGenerator,
  type ScriptedReply,
  StreamingChunk,
  tool,
} from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

const articles = [
  "Reset a password under Settings → Security → Reset password.",
  "The app crashes on start when the cache is corrupt: clear it under Settings → Storage.",
  "Invoices are sent on the 1st of each month.",
];

/** A tiny keyword search over the knowledge base (the retrieval pipeline's only component). */
export const KnowledgeBase = defineComponent({
  type: "examples.KnowledgeBase",
  description: "Finds knowledge-base articles that share a word with the query.",
  inputs: {
    query: z.string().describe("Keywords to look for."),
    top_k: z.number().int().default(2).describe("How many articles to return at most."),
  },
  outputs: { documents: z.array(z.string()) },
  run: ({ query, top_k }) => {
    const words = query
      .toLowerCase()
      .split(/\W+/)
      .filter((word) => word.length > 3);
    const hits = articles.filter((text) => words.some((word) => text.toLowerCase().includes(word)));
    return { documents: hits.slice(0, top_k) };
  },
});

/** What the exit tools do: nothing but record the hand-off (the route is the tool's name). */
export function handOff({ reason }: { reason: string }): string {
  return `handed off: ${reason}`;
}

/** The registry the saved pipeline is loaded with: our component and the hand-off function. */
export function exampleRegistry(): Registry {
  return createRegistry().register(KnowledgeBase).registerFunction("examples.handOff", handOff);
}

type Env = Readonly<Record<string, string | undefined>>;

function model(script: (string | ScriptedReply)[], env: Env): AnyComponent {
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    return new OpenAIChatGenerator({
      ...(env.OPENAI_MODEL ? { model: env.OPENAI_MODEL } : {}),
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      generationKwargs: { stream: true },
    });
  }
  // ScriptedReply uses readonly arrays; the params schema's input type wants mutable ones.
  return new ScriptedChatGenerator({ script: script as never[], stream: true });
}

const call = (toolName: string, args: Record<string, unknown>, id: string): ScriptedReply => ({
  toolCalls: [{ toolName, arguments: args, id }],
});

/** Builds the pipeline: triage → router → billing | support (with research and knowledge-base tools). */
export function buildPipeline(env: Env = {}): Pipeline {
  const reason = z.object({ reason: z.string().describe("Why this team should take over.") });
  const triage = new Agent({
    chatGenerator: model([call("to_support", { reason: "the app crashes" }, "call_triage")], env),
    systemPrompt:
      "Route the customer: call to_billing for payments and invoices, to_support for anything else.",
    tools: [
      tool({
        name: "to_billing",
        description: "Hand the customer to billing.",
        parameters: reason,
        function: handOff,
      }),
      tool({
        name: "to_support",
        description: "Hand the customer to support.",
        parameters: reason,
        function: handOff,
      }),
    ],
    exitConditions: ["to_billing", "to_support"],
  });
  const researcher = new Agent({
    chatGenerator: model(["Crashes on start are usually a corrupt cache after an update."], env),
    systemPrompt: "You research technical problems and answer in one sentence.",
  });
  const retrieval = new Pipeline().addComponent("kb", new KnowledgeBase());
  const support = new Agent({
    chatGenerator: model(
      [
        call("search_kb", { query: "app crashes on start" }, "call_kb"),
        call("research", { request: "Why would the app crash on start?" }, "call_research"),
        "Sorry about the crashes! Clear the cache under Settings → Storage; it is usually corrupt after an update.",
      ],
      env,
    ),
    systemPrompt: "You are technical support. Search the knowledge base and ask research before answering.",
    tools: [
      new PipelineTool({
        pipeline: retrieval,
        name: "search_kb",
        description: "Searches the knowledge base.",
        inputMapping: { query: ["kb.query"] },
        outputMapping: { "kb.documents": "documents" },
        outputsToString: { source: "documents" },
      }),
      new AgentTool({
        agent: researcher,
        name: "research",
        description: "Asks the research agent a question.",
      }),
    ],
  });
  const billing = new Agent({
    chatGenerator: model(["Your invoice is sent on the 1st of each month."], env),
    systemPrompt: "You are billing. Answer questions about payments and invoices.",
  });
  const router = new ConditionalRouter({
    routes: [
      {
        condition: 'exit_reason == "to_billing"',
        output: "messages",
        outputName: "billing",
        outputType: z.array(chatMessageSchema),
      },
      {
        condition: 'exit_reason == "to_support"',
        output: "messages",
        outputName: "support",
        outputType: z.array(chatMessageSchema),
      },
    ],
  });
  return new Pipeline()
    .addComponent("triage", triage)
    .addComponent("router", router)
    .addComponent("billing", billing)
    .addComponent("support", support)
    .connect("triage.exit_reason", "router.exit_reason")
    .connect("triage.messages", "router.messages")
    .connect("router.billing", "billing.messages")
    .connect("router.support", "support.messages");
}

/** Streams one run, printing who speaks; returns the final answer. */
async function streamRun(pipeline: Pipeline, question: string, io: ExampleIO): Promise<string | undefined> {
  let speaker = "";
  let answer: string | undefined;
  for await (const event of pipeline.stream({ triage: { messages: [ChatMessage.fromUser(question)] } })) {
    if (event.type === "chunk" && event.chunk instanceof StreamingChunk) {
      const chunk = event.chunk;
      const via = typeof chunk.meta.tool_name === "string" ? ` › ${chunk.meta.tool_name}` : "";
      const who = `${event.componentName}${via}`;
      const text =
        chunk.content || (chunk.toolCalls?.[0]?.toolName ? `→ ${chunk.toolCalls[0].toolName} ` : "");
      if (text === "") continue;
      if (who !== speaker) io.write(`${speaker === "" ? "" : "\n"}[${who}] `);
      speaker = who;
      io.write(text);
    }
    if (event.type === "component_end" && event.componentName === "triage")
      io.write(`\n(triage exit_reason: ${String(event.outputs.exit_reason)})`);
    if (event.type === "run_end") {
      for (const outputs of Object.values(event.outputs)) {
        const last = outputs?.last_message;
        if (last instanceof ChatMessage) answer = last.text;
      }
    }
  }
  io.write("\n");
  return answer;
}

/** Runs the pipeline, saves it, loads it and runs the copy. */
export async function main(
  io: ExampleIO,
  env: Env = process.env,
): Promise<{ answer: string | undefined; reloaded: string | undefined; document: unknown }> {
  const question = "My app crashes every time I open it.";
  io.write(`customer: ${question}\n`);
  const answer = await streamRun(buildPipeline(env), question, io);
  io.write(`answer: ${answer}\n`);

  const registry = exampleRegistry();
  const document = JSON.parse(JSON.stringify(buildPipeline(env).toJSON({ registry })));
  const loaded = Pipeline.fromJSON(document, { registry });
  io.write("\nsaved to JSON and loaded again; running the copy:\n");
  const reloaded = await streamRun(loaded, question, io);
  io.write(reloaded === answer ? "same answer ✓\n" : `different answer: ${reloaded}\n`);
  return { answer, reloaded, document };
}

runIfMain(import.meta.url, main);
