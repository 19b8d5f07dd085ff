/**
 * A RAG pipeline on Postgres, offline: PgvectorDocumentStore on embedded PGlite (Postgres with pgvector,
 * in WebAssembly) persisted in a temporary directory, Haystack's table layout.
 *
 * Indexing: MarkdownToDocument → DocumentCleaner → DocumentSplitter → DocumentWriter into the store.
 * Query: PgvectorKeywordRetriever (keywordMatch "any": a natural question finds the passages sharing
 * any of its words) → ChatPromptBuilder → a ScriptedChatGenerator that quotes the best passage. It then
 * shows what Haystack's "all" mode finds for the same question, closes the store, and reopens the data
 * directory: the documents are still there. To move to a Postgres server, give `connectionString`
 * instead of `dataDir` (see docs/postgres.md).
 *
 * Run: npx tsx --conditions=@junction/source examples/pgvector-rag.ts [--question "..."]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ChatPromptBuilder } from "@junction/components";
import { MarkdownToDocument } from "@junction/converters";
import { Pipeline } from "@junction/core";
import { DocumentCleaner, DocumentSplitter, DocumentWriter } from "@junction/documents";
import { type ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { PgvectorDocumentStore, PgvectorKeywordRetriever } from "@junction/pgvector";
import { type ExampleIO, runIfMain } from "./io.js";

const docsDirectory = join(dirname(fileURLToPath(import.meta.url)), "..", "docs");
const sources = ["retrieval.md", "documents.md", "serialization.md"].map((file) => join(docsDirectory, file));

const template =
  '{% message role="system" %}Answer from the documents only, and name the file you used.{% endmessage %}' +
  '{% message role="user" %}{% for doc in documents %}[{{ doc.meta.file_path }}]\n{{ doc.content }}\n---\n{% endfor %}' +
  "Question: {{ question }}{% endmessage %}";

/** Offline: quotes the best passage of the prompt and names its file. */
function quoteBestPassage(messages: readonly ChatMessage[]): string {
  const first = /\[(.+?)\]\n([\s\S]*?)\n---/.exec(messages.at(-1)?.text ?? "");
  if (first === null) return "I found nothing about that in the documents.";
  const passage = first[2]!.replace(/\s+/g, " ").trim();
  return `From ${first[1]?.split("/").at(-1)}: ${passage.length > 200 ? `${passage.slice(0, 199)}…` : passage}`;
}

/** What the example found, for the test. */
export interface PgvectorRagResult {
  readonly written: number;
  readonly answer: string;
  readonly anyMatches: number;
  readonly allMatches: number;
  readonly afterReopen: number;
}

/** Indexes three docs pages into PGlite, answers a question, and reopens the store. */
export async function main(io: ExampleIO, argv: readonly string[] = []): Promise<PgvectorRagResult> {
  const { values } = parseArgs({ args: [...argv], options: { question: { type: "string" } } });
  const question = values.question ?? "How do I save a document store with a pipeline?";
  const directory = mkdtempSync(join(tmpdir(), "junction-pgvector-rag-"));
  const dataDir = join(directory, "docs-db");
  try {
    const store = new PgvectorDocumentStore({ dataDir });
    const indexing = new Pipeline()
      .addComponent("converter", new MarkdownToDocument())
      .addComponent("cleaner", new DocumentCleaner())
      .addComponent("splitter", new DocumentSplitter({ splitBy: "word", splitLength: 120, splitOverlap: 20 }))
      .addComponent("writer", new DocumentWriter({ documentStore: store, policy: "overwrite" }))
      .connect("converter.documents", "cleaner.documents")
      .connect("cleaner.documents", "splitter.documents")
      .connect("splitter.documents", "writer.documents");
    const indexed = (await indexing.run({ converter: { sources } })) as {
      writer?: { documents_written?: number };
    };
    const written = indexed.writer?.documents_written ?? 0;
    io.write(`indexed ${written} passages of ${sources.length} docs pages into PGlite at ${dataDir}\n`);

    const query = new Pipeline()
      .addComponent("retriever", new PgvectorKeywordRetriever({ documentStore: store, topK: 3 }))
      .addComponent(
        "prompt",
        new ChatPromptBuilder({ template, requiredVariables: ["question", "documents"] }),
      )
      .addComponent("llm", new ScriptedChatGenerator({ respond: quoteBestPassage }))
      .connect("retriever.documents", "prompt.documents")
      .connect("prompt.prompt", "llm.messages");
    const result = (await query.run({ retriever: { query: question }, prompt: { question } })) as {
      llm?: { replies?: ChatMessage[] };
    };
    const answer = result.llm?.replies?.[0]?.text ?? "";
    io.write(`Q: ${question}\nA: ${answer}\n`);

    const any = await store.keywordRetrieval({ query: question, topK: 50 });
    const all = await store.keywordRetrieval({ query: question, topK: 50, keywordMatch: "all" });
    io.write(
      `keywordMatch "any" finds ${any.length} passages; "all" (Haystack's plainto_tsquery) finds ${all.length}\n`,
    );
    await store.close();

    const reopened = new PgvectorDocumentStore({ dataDir });
    const afterReopen = await reopened.countDocuments();
    io.write(`reopened ${dataDir}: ${afterReopen} passages are still there\n`);
    await reopened.close();
    return { written, answer, anyMatches: any.length, allMatches: all.length, afterReopen };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, (io) => main(io, process.argv.slice(2)));
