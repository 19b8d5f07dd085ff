/**
 * Measures retrieval on Junction's own docs: 52 labeled questions (examples/eval/docs-questions.jsonl)
 * over 397 passages chunked from docs/ (examples/eval/docs-passages.jsonl, made by chunk-docs.ts). It
 * evaluates BM25 offline, and — when an OpenAI-compatible server is configured (OPENAI_BASE_URL or
 * OPENAI_API_KEY, model from OPENAI_EMBEDDING_MODEL) — embedding retrieval and a hybrid of both (RRF),
 * printing recall@k, MRR, NDCG and MAP side by side.
 *
 *   npx tsx --conditions=@junction/source examples/evaluate-retrieval.ts
 *   OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_EMBEDDING_MODEL=nomic-embed-text npx tsx --conditions=@junction/source examples/evaluate-retrieval.ts
 */
import { readFileSync } from "node:fs";
import { Pipeline } from "@junction/core";
import {
  Document,
  DocumentJoiner,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
  InMemoryEmbeddingRetriever,
} from "@junction/documents";
import {
  DocumentMAPEvaluator,
  DocumentMRREvaluator,
  DocumentNDCGEvaluator,
  DocumentRecallEvaluator,
  type EvaluationRunResult,
  type EvaluatorSpec,
  evaluate,
  type InputSource,
  parseJSONL,
} from "@junction/evaluation";
import { OpenAIDocumentEmbedder, OpenAITextEmbedder } from "@junction/openai";
import { type ExampleIO, runIfMain } from "./io.js";

const here = new URL("./eval/", import.meta.url);
const topK = 10;

/** The passages of the docs, as Documents whose id is the passage id (`cli.md#exit-codes`). */
export function loadPassages(): Document[] {
  return parseJSONL(readFileSync(new URL("docs-passages.jsonl", here), "utf8")).map(
    (row) => new Document({ id: row.id as string, content: row.content as string, meta: row.meta as never }),
  );
}

/** The metrics, comparing documents by id; `recall@k` reads only the first k retrieved documents. */
function metrics(documents: string): Record<string, EvaluatorSpec> {
  const truth = "row.ground_truth_documents";
  const firstK =
    (k: number): InputSource =>
    ({ outputs }) => {
      const [component, socket] = documents.split(".") as [string, string];
      return (outputs[component]?.[socket] as Document[] | undefined)?.slice(0, k);
    };
  const byId = { documentComparisonField: "id" } as const;
  const recall = (k: number): EvaluatorSpec => ({
    evaluator: new DocumentRecallEvaluator(byId),
    inputs: { ground_truth_documents: truth, retrieved_documents: firstK(k) },
  });
  return {
    "recall@1": recall(1),
    "recall@5": recall(5),
    [`recall@${topK}`]: recall(topK),
    mrr: {
      evaluator: new DocumentMRREvaluator(byId),
      inputs: { ground_truth_documents: truth, retrieved_documents: documents },
    },
    [`ndcg@${topK}`]: {
      evaluator: new DocumentNDCGEvaluator(byId),
      inputs: { ground_truth_documents: truth, retrieved_documents: documents },
    },
    map: {
      evaluator: new DocumentMAPEvaluator(byId),
      inputs: { ground_truth_documents: truth, retrieved_documents: documents },
    },
  };
}

function table(runs: readonly EvaluationRunResult[]): string {
  const names = runs[0]?.metrics ?? [];
  const header = ["retriever", ...names];
  const rows = runs.map((run) => [
    run.runName,
    ...names.map((name) => (run.results[name]?.score ?? Number.NaN).toFixed(3)),
  ]);
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] ?? "").length)),
  );
  return [header, ...rows]
    .map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  "))
    .join("\n");
}

/** Runs the comparison; returns the run results (BM25 first). */
export async function main(
  io: ExampleIO,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EvaluationRunResult[]> {
  const passages = loadPassages();
  const dataset = new URL("docs-questions.jsonl", here).pathname;
  const questions = parseJSONL(readFileSync(dataset, "utf8")).length;
  io.write(`${questions} questions over ${passages.length} passages of docs/, top ${topK}\n\n`);

  const store = new InMemoryDocumentStore();
  await store.writeDocuments(passages);
  const bm25 = new Pipeline().addComponent(
    "retriever",
    new InMemoryBM25Retriever({ documentStore: store, topK }),
  );
  const runs = [
    await evaluate(bm25, dataset, {
      runName: "bm25",
      inputs: { "retriever.query": "question" },
      evaluators: metrics("retriever.documents"),
    }),
  ];

  if (env.OPENAI_BASE_URL === undefined && env.OPENAI_API_KEY === undefined) {
    io.write(
      "embedding and hybrid: skipped (set OPENAI_BASE_URL or OPENAI_API_KEY, and OPENAI_EMBEDDING_MODEL)\n\n",
    );
  } else {
    const model = env.OPENAI_EMBEDDING_MODEL ?? "text-embedding-3-small";
    const embedded = await new OpenAIDocumentEmbedder({ model }).run({ documents: passages });
    const vectors = new InMemoryDocumentStore();
    await vectors.writeDocuments(embedded.documents ?? []);
    const dense = new Pipeline()
      .addComponent("embedder", new OpenAITextEmbedder({ model }))
      .addComponent("retriever", new InMemoryEmbeddingRetriever({ documentStore: vectors, topK }))
      .connect("embedder.embedding", "retriever.query_embedding");
    runs.push(
      await evaluate(dense, dataset, {
        runName: "embedding",
        inputs: { "embedder.text": "question" },
        evaluators: metrics("retriever.documents"),
      }),
    );
    const hybrid = new Pipeline()
      .addComponent("embedder", new OpenAITextEmbedder({ model }))
      .addComponent("dense", new InMemoryEmbeddingRetriever({ documentStore: vectors, topK }))
      .addComponent("bm25", new InMemoryBM25Retriever({ documentStore: vectors, topK }))
      .addComponent("joiner", new DocumentJoiner({ joinMode: "reciprocal_rank_fusion", topK }))
      .connect("embedder.embedding", "dense.query_embedding")
      .connect("bm25.documents", "joiner.documents")
      .connect("dense.documents", "joiner.documents");
    runs.push(
      await evaluate(hybrid, dataset, {
        runName: "hybrid",
        inputs: { "embedder.text": "question", "bm25.query": "question" },
        evaluators: metrics("joiner.documents"),
      }),
    );
  }
  io.write(`${table(runs)}\n`);
  const [first, ...others] = runs;
  for (const other of others) {
    if (first === undefined) break;
    const recall = other.comparativeReport(first).metrics.find((metric) => metric.metric === "recall@5");
    io.write(
      `${other.runName} vs bm25, recall@5: ${recall?.better.length} questions better, ${recall?.worse.length} worse\n`,
    );
  }
  return runs;
}

runIfMain(import.meta.url, (io) => main(io));
