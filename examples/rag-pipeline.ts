/**
 * A first RAG pipeline (Haystack's "first RAG pipeline" tutorial, over Junction's own docs).
 *
 * Indexing: MarkdownToDocument → DocumentCleaner → DocumentSplitter → DocumentWriter into an
 * InMemoryDocumentStore. Query: InMemoryBM25Retriever → ChatPromptBuilder (the documents rendered in
 * the prompt) → a chat generator. Offline (no OPENAI_API_KEY / OPENAI_BASE_URL) the generator is a
 * ScriptedChatGenerator that answers with the best passage and names its file, and says so; with
 * either set it is OpenAIChatGenerator. Both pipelines are saved as YAML and the query pipeline is
 * loaded back and asked again: the store is saved to a file beside it, so it comes back with its
 * documents.
 *
 * Run: npx tsx --conditions=@junction/source examples/rag-pipeline.ts [--question "..."]
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ChatPromptBuilder } from "@junction/components";
import { MarkdownToDocument } from "@junction/converters";
import { type AnyComponent, createRegistry, Pipeline } from "@junction/core";
import {
  type Document,
  DocumentCleaner,
  DocumentSplitter,
  DocumentWriter,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
} from "@junction/documents";
import { type ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";

const docsDirectory = join(dirname(fileURLToPath(import.meta.url)), "..", "docs");
const sources = ["retrieval.md", "documents.md", "preprocessing.md", "serialization.md", "agents.md"].map(
  (file) => join(docsDirectory, file),
);

/** Offline: answers with the best passage of the prompt, naming its file. */
export function answerFromPrompt(messages: readonly ChatMessage[]): string {
  const prompt = messages.at(-1)?.text ?? "";
  const first = /\[(.+?)\]\n([\s\S]*?)\n---/.exec(prompt);
  if (first === null) return "I found nothing about that in the documents.";
  const passage = first[2]!.replace(/\s+/g, " ").trim();
  return `From ${first[1]}: ${passage.length > 300 ? `${passage.slice(0, 299)}…` : passage}`;
}

function chooseGenerator(env: NodeJS.ProcessEnv): { generator: AnyComponent; label: string } {
  if (env.OPENAI_API_KEY !== undefined || env.OPENAI_BASE_URL !== undefined) {
    const model = env.OPENAI_MODEL ?? "gpt-4o-mini";
    return { generator: new OpenAIChatGenerator({ model }), label: `OpenAIChatGenerator (${model})` };
  }
  return {
    generator: new ScriptedChatGenerator({ respond: answerFromPrompt }),
    label:
      "ScriptedChatGenerator — offline: it quotes the best passage (set OPENAI_API_KEY or OPENAI_BASE_URL for a real model)",
  };
}

/** The indexing pipeline: Markdown files in, chunks written to `store`. */
export function buildIndexing(store: InMemoryDocumentStore): Pipeline {
  return new Pipeline()
    .addComponent("converter", new MarkdownToDocument())
    .addComponent("cleaner", new DocumentCleaner())
    .addComponent("splitter", new DocumentSplitter({ splitBy: "word", splitLength: 120, splitOverlap: 20 }))
    .addComponent("writer", new DocumentWriter({ documentStore: store, policy: "overwrite" }))
    .connect("converter.documents", "cleaner.documents")
    .connect("cleaner.documents", "splitter.documents")
    .connect("splitter.documents", "writer.documents");
}

const template =
  '{% message role="system" %}Answer the question from the documents only, and name the file you used.{% endmessage %}' +
  '{% message role="user" %}{% for doc in documents %}[{{ doc.meta.file_path }}]\n{{ doc.content }}\n---\n{% endfor %}' +
  "Question: {{ question }}{% endmessage %}";

/** The query pipeline: retrieve from `store`, build the prompt, ask `generator`. */
export function buildQuery(store: InMemoryDocumentStore, generator: AnyComponent): Pipeline {
  return new Pipeline()
    .addComponent("retriever", new InMemoryBM25Retriever({ documentStore: store, topK: 3 }))
    .addComponent("prompt", new ChatPromptBuilder({ template, requiredVariables: ["question", "documents"] }))
    .addComponent("llm", generator)
    .connect("retriever.documents", "prompt.documents")
    .connect("prompt.prompt", "llm.messages");
}

/** What one question gave: the answer and the retrieved passages. */
export interface RagAnswer {
  readonly answer: string;
  readonly documents: readonly { file: string; score: number }[];
}

async function ask(query: Pipeline, question: string): Promise<RagAnswer> {
  const result = await query.run(
    { retriever: { query: question }, prompt: { question } },
    { includeOutputsFrom: ["retriever"] },
  );
  const replies = result.llm?.replies as ChatMessage[];
  const documents = result.retriever?.documents as Document[];
  return {
    answer: replies[0]?.text ?? "",
    documents: documents.map((document) => ({
      file: String(document.meta.file_path),
      score: Math.round((document.score ?? 0) * 1000) / 1000,
    })),
  };
}

/** Runs the example; returns what it printed, for the test. */
export async function main(
  argv: readonly string[],
  io: { write(text: string): void; env: NodeJS.ProcessEnv; directory?: string },
): Promise<{ indexed: number; first: RagAnswer; reloaded: RagAnswer }> {
  const { values } = parseArgs({ args: [...argv], options: { question: { type: "string" } } });
  const question = values.question ?? "How do I save an InMemoryDocumentStore to a file and load it back?";
  const directory = io.directory ?? mkdtempSync(join(tmpdir(), "junction-rag-"));
  const { generator, label } = chooseGenerator(io.env);
  io.write(`model: ${label}\n`);

  const store = new InMemoryDocumentStore({ path: join(directory, "docs-store.json") });
  const indexing = buildIndexing(store);
  const indexed = await indexing.run({ converter: { sources } });
  const written = Number(indexed.writer?.documents_written);
  io.write(
    `indexed ${sources.length} files into ${written} passages (${await store.countDocuments()} in the store)\n`,
  );

  const query = buildQuery(store, generator);
  const first = await ask(query, question);
  io.write(
    `\nquestion: ${question}\nretrieved: ${first.documents.map((d) => `${d.file} (${d.score})`).join(", ")}\n`,
  );
  io.write(`answer: ${first.answer}\n`);

  // Save both pipelines; load the query pipeline back (its store reloads from docs-store.json) and ask again.
  // The offline model's function is saved by the name a registry gives it (never as code).
  const registry = createRegistry().registerFunction("rag_example.answerFromPrompt", answerFromPrompt);
  writeFileSync(join(directory, "indexing.yaml"), indexing.toYAML({ registry }));
  const queryYAML = query.toYAML({ registry });
  writeFileSync(join(directory, "query.yaml"), queryYAML);
  const reloaded = await ask(Pipeline.fromYAML(queryYAML, { registry }), question);
  const same = JSON.stringify(reloaded) === JSON.stringify(first);
  io.write(
    `\nsaved indexing.yaml and query.yaml to ${directory}; the reloaded query pipeline answers ${same ? "the same ✓" : "DIFFERENTLY ✗"}\n`,
  );
  return { indexed: written, first, reloaded };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), { write: (text) => process.stdout.write(text), env: process.env }).catch(
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
