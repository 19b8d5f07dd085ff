/**
 * A program of "a separate project": it imports only the published entry points of the packed
 * packages (no workspace links, no source condition), builds an agent pipeline routed on
 * `exit_reason`, runs it, saves it to JSON, loads it back and runs the copy. `.ci/pack-check`
 * type-checks it (strict, NodeNext) and runs it.
 */
import { Agent } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { TextFileToDocument } from "@junction/converters";
import { Pipeline } from "@junction/core";
import {
  Document,
  DocumentSplitter,
  DocumentWriter,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
} from "@junction/documents";
import { ChatMessage, chatMessageSchema, ScriptedChatGenerator } from "@junction/llm";
import { PgvectorDocumentStore } from "@junction/pgvector";
import { z } from "zod";

const agent = new Agent({
  chatGenerator: new ScriptedChatGenerator({ script: ["The answer is 42."], onScriptEnd: "loop" }),
  exitConditions: ["text"],
  stateSchema: { notes: { type: z.array(z.string()) } },
});
const router = new ConditionalRouter({
  routes: [
    {
      condition: 'exit_reason == "text"',
      output: "last_message",
      outputName: "answer",
      outputType: chatMessageSchema,
    },
    { condition: "true", output: "exit_reason", outputName: "gave_up", outputType: z.string() },
  ],
  variableTypes: { exit_reason: z.string(), last_message: chatMessageSchema },
});

const pipeline = Pipeline.builder()
  .add("agent", agent)
  .add("router", router)
  .connect("agent.exit_reason", "router.exit_reason")
  .connect("agent.last_message", "router.last_message")
  .build();

const outputs = await pipeline.run({ agent: { messages: [ChatMessage.fromUser("What is the answer?")] } });
const answer: ChatMessage | undefined = outputs.router?.answer;
if (answer?.text !== "The answer is 42.") throw new Error(`unexpected answer: ${JSON.stringify(outputs)}`);

const document = JSON.parse(JSON.stringify(pipeline.toJSON())) as unknown;
const loaded = Pipeline.fromJSON(document);
const again = await loaded.run({ agent: { messages: [ChatMessage.fromUser("Again?")] } });
const copied = again.router?.answer;
if (!(copied instanceof ChatMessage) || copied.text !== "The answer is 42.") {
  throw new Error(`the loaded pipeline answered differently: ${JSON.stringify(again)}`);
}

// Retrieval from the published packages: a text file → splitter → writer, BM25 over the store, the
// query pipeline saved and loaded; and the same documents in an embedded pgvector store (PGlite).
const { mkdtempSync, writeFileSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const dir = mkdtempSync(join(tmpdir(), "junction-consumer-"));
writeFileSync(
  join(dir, "lakes.txt"),
  "Lake Baikal holds a fifth of the world's fresh water. Mount Fuji is in Japan.",
);
const store = new InMemoryDocumentStore({ path: join(dir, "store.json") });
const indexing = new Pipeline()
  .addComponent("converter", new TextFileToDocument())
  .addComponent("splitter", new DocumentSplitter({ splitBy: "sentence", splitLength: 1 }))
  .addComponent("writer", new DocumentWriter({ documentStore: store }))
  .connect("converter.documents", "splitter.documents")
  .connect("splitter.documents", "writer.documents");
await indexing.run({ converter: { sources: [join(dir, "lakes.txt")] } });
const query = new Pipeline().addComponent(
  "retriever",
  new InMemoryBM25Retriever({ documentStore: store, topK: 1 }),
);
const reloadedQuery = Pipeline.fromJSON(JSON.parse(JSON.stringify(query.toJSON())) as unknown);
const found = (await reloadedQuery.run({ retriever: { query: "fresh water lake" } })).retriever?.documents as
  | Document[]
  | undefined;
if (!found?.[0]?.content?.includes("Baikal")) throw new Error(`BM25 found: ${JSON.stringify(found)}`);
const pg = new PgvectorDocumentStore({ embeddingDimension: 3 });
await pg.writeDocuments([new Document({ content: "Lake Baikal", embedding: [1, 0, 0] })]);
if ((await pg.countDocuments()) !== 1) throw new Error("the pgvector store did not keep the document");
await pg.close();

console.log(
  `consumer ok: ${answer.text} (saved and loaded: ${Object.keys(loaded.toJSON().components).join(", ")}); retrieval ok: ${found[0].content}`,
);
