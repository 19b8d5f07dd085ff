import { Pipeline } from "@junction/core";
import {
  Document,
  DocumentWriter,
  InMemoryDocumentStore,
  InMemoryEmbeddingRetriever,
} from "@junction/documents";
import { OpenAIDocumentEmbedder, OpenAITextEmbedder } from "@junction/openai";
import { expect, it } from "vitest";
import { useEmbeddingsHarness, vectorFor } from "./support/fake-embeddings-server.js";

const h = useEmbeddingsHarness();

it("indexes documents through OpenAIDocumentEmbedder and DocumentWriter, then finds one with OpenAITextEmbedder", async () => {
  const store = new InMemoryDocumentStore({ embeddingSimilarityFunction: "cosine" });
  const corpus = [
    new Document({ content: "Paris is the capital of France.", meta: { lang: "en" } }),
    new Document({ content: "Berlin is the capital of Germany.", meta: { lang: "en" } }),
    new Document({ content: "Rome is the capital of Italy.", meta: { lang: "en" } }),
  ];
  const indexing = new Pipeline()
    .addComponent(
      "embedder",
      new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL, dimensions: 8, batchSize: 2 }),
    )
    .addComponent("writer", new DocumentWriter({ documentStore: store }))
    .connect("embedder.documents", "writer.documents");
  const indexed = await indexing.run({ embedder: { documents: corpus } });
  expect(indexed.writer).toEqual({ documents_written: 3 });
  // The documents went to the writer; the unconsumed meta is the embedder's output.
  expect(indexed.embedder).toEqual({
    meta: {
      model: "text-embedding-ada-002-served",
      usage: { prompt_tokens: 18, total_tokens: 18 },
      failed_documents: [],
    },
  });
  const stored = await store.filterDocuments();
  expect(stored.map((doc) => doc.id).sort()).toEqual(corpus.map((doc) => doc.id).sort());
  for (const doc of stored) expect(doc.embedding).toEqual(vectorFor(doc.content ?? "", 8));

  const query = new Pipeline()
    .addComponent("embedder", new OpenAITextEmbedder({ baseURL: h.server.baseURL, dimensions: 8 }))
    .addComponent("retriever", new InMemoryEmbeddingRetriever({ documentStore: store, topK: 1 }))
    .connect("embedder.embedding", "retriever.query_embedding");
  const answer = await query.run({ embedder: { text: "Rome is the capital of Italy." } });
  const found = answer.retriever?.documents as Document[];
  expect(found.map((doc) => doc.id)).toEqual([corpus[2]?.id]);
  expect(found[0]?.score).toBeCloseTo(1, 6);
  expect(h.server.requests.map((request) => request.body.input)).toEqual([
    [corpus[0]?.content, corpus[1]?.content],
    [corpus[2]?.content],
    "Rome is the capital of Italy.",
  ]);
});
