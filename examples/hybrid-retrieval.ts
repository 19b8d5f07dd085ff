/**
 * Hybrid retrieval: BM25 and embedding retrieval over the same store, joined with reciprocal rank
 * fusion (DocumentJoiner). Embeddings come from OpenAIDocumentEmbedder / OpenAITextEmbedder when
 * OPENAI_API_KEY or OPENAI_BASE_URL is set (any OpenAI-compatible server with /v1/embeddings);
 * otherwise the example says so and retrieves with BM25 alone.
 *
 * Run: npx tsx --conditions=@junction/source examples/hybrid-retrieval.ts [--question "..."]
 */
import { parseArgs } from "node:util";
import { Pipeline } from "@junction/core";
import {
  Document,
  DocumentJoiner,
  DocumentWriter,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
  InMemoryEmbeddingRetriever,
} from "@junction/documents";
import { OpenAIDocumentEmbedder, OpenAITextEmbedder } from "@junction/openai";

/** A few facts; the question below shares few words with the best answer, which is where embeddings help. */
export const facts = [
  "The Eiffel Tower in Paris was completed in 1889 for the World's Fair.",
  "Mount Fuji is the highest mountain in Japan, at 3,776 metres.",
  "The Great Barrier Reef off Queensland is the largest coral reef system on Earth.",
  "Lake Baikal in Siberia holds about a fifth of the world's unfrozen fresh surface water.",
  "The Amazon rainforest produces a large share of the planet's oxygen through photosynthesis.",
  "Venice is built on more than a hundred small islands in a lagoon of the Adriatic Sea.",
];

/** One retrieved document as the example prints it. */
export interface Hit {
  readonly text: string;
  readonly score: number;
}

function hits(documents: readonly Document[]): Hit[] {
  return documents.map((document) => ({
    text: document.content ?? "",
    score: Math.round((document.score ?? 0) * 10_000) / 10_000,
  }));
}

/** Runs the example: returns the mode used and the fused (or BM25) hits. */
export async function main(
  argv: readonly string[],
  io: { write(text: string): void; env: NodeJS.ProcessEnv },
): Promise<{ mode: "hybrid" | "bm25"; hits: Hit[] }> {
  const { values } = parseArgs({ args: [...argv], options: { question: { type: "string" } } });
  const question = values.question ?? "Which lake has the most fresh water?";
  const model = io.env.OPENAI_EMBEDDING_MODEL ?? "text-embedding-3-small";
  const embeddings = io.env.OPENAI_API_KEY !== undefined || io.env.OPENAI_BASE_URL !== undefined;
  // A server given by OPENAI_BASE_URL needs no key; api.openai.com reads OPENAI_API_KEY.
  const server = {
    model,
    ...(io.env.OPENAI_BASE_URL === undefined ? {} : { baseURL: io.env.OPENAI_BASE_URL }),
  };
  const store = new InMemoryDocumentStore({ embeddingSimilarityFunction: "cosine" });
  const documents = facts.map((content) => new Document({ content }));

  // Indexing: with a model server, embed the documents before writing them.
  const indexing = new Pipeline().addComponent("writer", new DocumentWriter({ documentStore: store }));
  if (embeddings) {
    indexing
      .addComponent("embedder", new OpenAIDocumentEmbedder(server))
      .connect("embedder.documents", "writer.documents");
    await indexing.run({ embedder: { documents } });
  } else {
    await indexing.run({ writer: { documents } });
  }

  const bm25 = new InMemoryBM25Retriever({ documentStore: store, topK: 3 });
  if (!embeddings) {
    io.write(
      "No OPENAI_API_KEY or OPENAI_BASE_URL: retrieving with BM25 alone (set either for hybrid retrieval).\n",
    );
    const found = await new Pipeline().addComponent("bm25", bm25).run({ bm25: { query: question } });
    const result = hits(found.bm25?.documents as Document[]);
    io.write(`question: ${question}\n${result.map((hit) => `  ${hit.score}  ${hit.text}`).join("\n")}\n`);
    return { mode: "bm25", hits: result };
  }

  // Query: the question goes to BM25 and, embedded, to the embedding retriever; RRF joins both lists.
  const query = new Pipeline()
    .addComponent("text_embedder", new OpenAITextEmbedder(server))
    .addComponent("embedding_retriever", new InMemoryEmbeddingRetriever({ documentStore: store, topK: 3 }))
    .addComponent("bm25", bm25)
    .addComponent("joiner", new DocumentJoiner({ joinMode: "reciprocal_rank_fusion", topK: 3 }))
    .connect("text_embedder.embedding", "embedding_retriever.query_embedding")
    .connect("bm25.documents", "joiner.documents")
    .connect("embedding_retriever.documents", "joiner.documents");
  const found = await query.run({ text_embedder: { text: question }, bm25: { query: question } });
  const result = hits(found.joiner?.documents as Document[]);
  io.write(
    `hybrid retrieval (BM25 + ${model} embeddings, reciprocal rank fusion)\nquestion: ${question}\n${result
      .map((hit) => `  ${hit.score}  ${hit.text}`)
      .join("\n")}\n`,
  );
  return { mode: "hybrid", hits: result };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), { write: (text) => process.stdout.write(text), env: process.env }).catch(
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
