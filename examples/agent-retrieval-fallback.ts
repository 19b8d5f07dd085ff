/**
 * An agent with a retrieval tool and a fallback route (Haystack's "fallback to web search with a
 * conditional router" tutorial, with an Agent in front).
 *
 * The agent answers from a product knowledge base through `search_docs`, a retrieval pipeline (BM25 →
 * LostInTheMiddleRanker) used as a tool with PipelineTool; the documents it finds collect in its State
 * key `documents`. When the knowledge base has no answer the agent replies NO_ANSWER, and a
 * ConditionalRouter sends the question down the fallback branch: LinkContentFetcher fetches a web page,
 * HTMLToDocument converts it, and a prompt + model answer from it. The "web" is a local HTTP server this
 * example starts on 127.0.0.1 (so the fetcher is told `allowPrivateAddresses: true`; by default it
 * refuses loopback and private addresses). The models are scripted, so it runs offline.
 *
 * Run: npx tsx --conditions=@junction/source examples/agent-retrieval-fallback.ts [--question "..."]
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { Agent } from "@junction/agents";
import { ChatPromptBuilder, ConditionalRouter } from "@junction/components";
import { HTMLToDocument, LinkContentFetcher } from "@junction/converters";
import { Pipeline } from "@junction/core";
import {
  Document,
  documentSchema,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
  LostInTheMiddleRanker,
} from "@junction/documents";
import { ChatMessage, chatMessageSchema, PipelineTool, ScriptedChatGenerator } from "@junction/llm";
import { z } from "zod";

/** The product knowledge base. */
export const productFacts = [
  "The Junction Kettle boils 1.7 litres in under four minutes and switches off by itself.",
  "The Junction Kettle has a two-year warranty; register it within 30 days of purchase.",
  "The Junction Toaster has six browning levels and a defrost button.",
  "Orders over 50 euros ship free within the EU; delivery takes three to five working days.",
];

/** The "web" page the fallback branch fetches. */
const webPage = `<!doctype html><html><head><title>Junction support forum</title></head><body>
<nav>Home · Forum</nav>
<main><h1>Descaling the Junction Kettle</h1>
<p>Fill the kettle halfway with equal parts water and white vinegar, boil, and leave it for an hour. Rinse twice.</p>
</main><footer>© Junction</footer></body></html>`;

const unknown = "NO_ANSWER";

/** The agent's offline model: search first, then answer from the documents or say NO_ANSWER. */
export function supportModel(messages: readonly ChatMessage[]) {
  const question = [...messages].reverse().find((message) => message.role === "user")?.text ?? "";
  const result = messages.find((message) => message.role === "tool")?.toolCallResult;
  if (result === undefined)
    return { toolCalls: [{ toolName: "search_docs", arguments: { query: question } }] };
  // Words that say what is asked, not which product it is about.
  const productWords = new Set(["junction", "kettle", "toaster"]);
  const words = (question.toLowerCase().match(/\w{5,}/g) ?? []).filter((word) => !productWords.has(word));
  const lines = String(result.result).split("\n");
  const scored = lines.map((line) => ({
    line,
    hits: words.filter((word) => line.toLowerCase().includes(word)).length,
  }));
  const best = scored.sort((a, b) => b.hits - a.hits)[0];
  return { text: best !== undefined && best.hits >= 1 ? best.line : unknown };
}

/** The fallback branch's offline model: answers with the fetched page's first sentence that fits. */
export function webModel(messages: readonly ChatMessage[]) {
  const prompt = messages.at(-1)?.text ?? "";
  const page = /Web page:\n([\s\S]*?)\n\nQuestion:/.exec(prompt)?.[1] ?? "";
  const sentence = page.split(/(?<=\.)\s+|\n+/).find((text) => /vinegar/i.test(text));
  return { text: sentence === undefined ? "The web had no answer either." : `From the web: ${sentence}` };
}

/** What the agent reads from a search: each document's text on its own line. */
export function documentsText(documents: unknown): string {
  return (documents as readonly Document[]).map((document) => document.content ?? "").join("\n");
}

/** Builds the pipeline: the agent, the router on its answer, and the web fallback branch. */
export async function buildSupportPipeline(): Promise<Pipeline> {
  const store = new InMemoryDocumentStore();
  await store.writeDocuments(productFacts.map((content) => new Document({ content })));
  const retrieval = new Pipeline()
    .addComponent("retriever", new InMemoryBM25Retriever({ documentStore: store, topK: 3 }))
    .addComponent("ranker", new LostInTheMiddleRanker())
    .connect("retriever.documents", "ranker.documents");
  const searchDocs = new PipelineTool({
    pipeline: retrieval,
    name: "search_docs",
    description: "Searches the product knowledge base.",
    inputMapping: { query: ["retriever.query"] },
    outputMapping: { "ranker.documents": "documents" },
    outputsToState: { documents: { source: "documents" } },
    outputsToString: { source: "documents", handler: documentsText },
  });
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({ respond: supportModel }),
    tools: [searchDocs],
    systemPrompt: `Answer from the search results only. If they do not answer the question, reply exactly ${unknown}.`,
    stateSchema: { documents: { type: z.array(documentSchema) } },
    maxAgentSteps: 4,
  });
  const router = new ConditionalRouter({
    routes: [
      {
        condition: `exit_reason == "text" && !last_message.text.contains("${unknown}")`,
        output: "last_message.text",
        outputName: "answer",
        outputType: z.string(),
      },
      {
        condition: "true",
        output: "[web_url]",
        outputName: "urls",
        outputType: z.array(z.string()),
      },
    ],
    variableTypes: { exit_reason: z.string(), last_message: chatMessageSchema, web_url: z.string() },
  });
  const webPrompt =
    '{% message role="user" %}Web page:\n{% for doc in documents %}{{ doc.content }}{% endfor %}\n\nQuestion: {{ question }}{% endmessage %}';
  return new Pipeline()
    .addComponent("agent", agent)
    .addComponent("router", router)
    .addComponent("fetcher", new LinkContentFetcher({ allowPrivateAddresses: true, timeout: 5_000 }))
    .addComponent("converter", new HTMLToDocument())
    .addComponent(
      "web_prompt",
      new ChatPromptBuilder({ template: webPrompt, requiredVariables: ["documents", "question"] }),
    )
    .addComponent("web_llm", new ScriptedChatGenerator({ respond: webModel }))
    .connect("agent.exit_reason", "router.exit_reason")
    .connect("agent.last_message", "router.last_message")
    .connect("router.urls", "fetcher.urls")
    .connect("fetcher.streams", "converter.sources")
    .connect("converter.documents", "web_prompt.documents")
    .connect("web_prompt.prompt", "web_llm.messages");
}

function startWeb(): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(webPage);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** What one question gave. */
export interface SupportAnswer {
  readonly route: "answer" | "web";
  readonly answer: string;
  readonly documents: readonly string[];
}

/** Runs the example for each question; returns the answers. */
export async function main(
  argv: readonly string[],
  io: { write(text: string): void },
): Promise<SupportAnswer[]> {
  const { values } = parseArgs({
    args: [...argv],
    options: { question: { type: "string", multiple: true } },
  });
  const questions = values.question ?? [
    "How long is the warranty of the Junction Kettle?",
    "How do I descale the Junction Kettle?",
  ];
  const web = await startWeb();
  const webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/forum/descaling`;
  try {
    const pipeline = await buildSupportPipeline();
    const answers: SupportAnswer[] = [];
    for (const question of questions) {
      const result = await pipeline.run(
        {
          agent: { messages: [ChatMessage.fromUser(question)] },
          router: { web_url: webUrl },
          web_prompt: { question },
        },
        { includeOutputsFrom: ["agent"] },
      );
      const documents = ((result.agent?.documents ?? []) as Document[]).map(
        (document) => document.content ?? "",
      );
      const routed = result.router?.answer as string | undefined;
      const answer: SupportAnswer =
        routed !== undefined
          ? { route: "answer", answer: routed, documents }
          : {
              route: "web",
              answer: (result.web_llm?.replies as ChatMessage[] | undefined)?.[0]?.text ?? "",
              documents,
            };
      answers.push(answer);
      io.write(
        `question: ${question}\n  knowledge base: ${documents.length} document(s) found\n  route: ${answer.route === "answer" ? "router.answer (the agent answered)" : "router.urls → fetcher → converter → web_llm (fallback)"}\n  answer: ${answer.answer}\n\n`,
      );
    }
    return answers;
  } finally {
    web.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), { write: (text) => process.stdout.write(text) }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
