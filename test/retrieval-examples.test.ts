/**
 * The retrieval examples run here (offline, or against a local OpenAI-compatible embeddings server),
 * and what they print and return is checked.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, Pipeline } from "@junction/core";
import { describe, expect, it } from "vitest";
import {
  main as agentRetrievalFallback,
  buildSupportPipeline,
  documentsText,
  supportModel,
  webModel,
} from "../examples/agent-retrieval-fallback.js";
import { main as hybridRetrieval } from "../examples/hybrid-retrieval.js";
import { main as ragPipeline } from "../examples/rag-pipeline.js";
import { startFakeEmbeddingsServer } from "../packages/openai/test/support/fake-embeddings-server.js";
import { outputBuffer } from "./support/output-buffer.js";

describe("rag-pipeline", () => {
  it("indexes the docs, answers from the best passage, and the saved query pipeline reloads with its store", async () => {
    const out = outputBuffer();
    const directory = mkdtempSync(join(tmpdir(), "junction-rag-test-"));
    const result = await ragPipeline([], { write: out.write, env: {}, directory });
    expect(out.text()).toContain("ScriptedChatGenerator — offline");
    // Converter → cleaner → splitter → writer made many passages out of five files.
    expect(result.indexed).toBeGreaterThan(50);
    // BM25 finds the page that documents saving a store, and the answer quotes it.
    expect(result.first.documents[0]?.file).toBe("retrieval.md");
    expect(result.first.answer).toMatch(/^From retrieval\.md: /);
    expect(result.reloaded).toEqual(result.first);
    expect(out.text()).toContain("answers the same ✓");
    // The saved query pipeline refers to the store file, never to code; the store file holds the passages.
    const saved = readFileSync(join(directory, "query.yaml"), "utf8");
    expect(saved).toContain("type: junction.InMemoryBM25Retriever");
    expect(saved).toContain("rag_example.answerFromPrompt");
    const store = JSON.parse(readFileSync(join(directory, "docs-store.json"), "utf8")) as unknown;
    expect(JSON.stringify(store)).toContain("InMemoryDocumentStore");
  }, 30_000);

  it("answers a question the docs do not cover with what BM25 found, not an invention", async () => {
    const out = outputBuffer();
    const result = await ragPipeline(["--question", "zzzz qqqq"], { write: out.write, env: {} });
    expect(result.first.documents).toEqual([]);
    expect(result.first.answer).toBe("I found nothing about that in the documents.");
  }, 30_000);
});

describe("hybrid-retrieval", () => {
  it("offline, says it uses BM25 alone and finds the lake", async () => {
    const out = outputBuffer();
    const result = await hybridRetrieval([], { write: out.write, env: {} });
    expect(result.mode).toBe("bm25");
    expect(out.text()).toContain("retrieving with BM25 alone");
    expect(result.hits[0]?.text).toContain("Lake Baikal");
  });

  it("with an embeddings server, joins BM25 and embedding retrieval with reciprocal rank fusion", async () => {
    const server = await startFakeEmbeddingsServer();
    try {
      const out = outputBuffer();
      const env = { OPENAI_BASE_URL: server.baseURL };
      const result = await hybridRetrieval([], { write: out.write, env });
      expect(result.mode).toBe("hybrid");
      expect(out.text()).toContain("reciprocal rank fusion");
      // Six documents embedded in one batch, then the question.
      const inputs = server.requests.map((request) => request.body.input as unknown);
      expect((inputs[0] as string[]).length).toBe(6);
      expect(inputs.slice(1)).toEqual(["Which lake has the most fresh water?"]);
      // RRF scores: a document first in both lists scores 1 (Haystack's normalisation), others less.
      expect(result.hits).toHaveLength(3);
      for (const hit of result.hits) expect(hit.score).toBeGreaterThan(0);
      expect(result.hits[0]!.score).toBeGreaterThanOrEqual(result.hits[1]!.score);
      expect(result.hits.map((hit) => hit.text)).toContain(
        "Lake Baikal in Siberia holds about a fifth of the world's unfrozen fresh surface water.",
      );
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe("agent-retrieval-fallback", () => {
  it("answers from the knowledge base when it can, and falls back to the fetched web page when it cannot", async () => {
    const out = outputBuffer();
    const [known, fallback] = await agentRetrievalFallback([], { write: out.write });
    expect(known?.route).toBe("answer");
    expect(known?.answer).toBe(
      "The Junction Kettle has a two-year warranty; register it within 30 days of purchase.",
    );
    // The retrieval pipeline's documents went into the agent's State key documents.
    expect(known?.documents).toContain(known?.answer);
    expect(fallback?.route).toBe("web");
    expect(fallback?.answer).toBe(
      "From the web: Fill the kettle halfway with equal parts water and white vinegar, boil, and leave it for an hour.",
    );
    expect(out.text()).toContain("router.urls → fetcher → converter → web_llm (fallback)");
  });

  it("the pipeline with its PipelineTool, router and fallback branch goes to JSON and back unchanged", async () => {
    const registry = createRegistry()
      .registerFunction("support.supportModel", supportModel)
      .registerFunction("support.webModel", webModel)
      .registerFunction("support.documentsText", documentsText);
    const document = (await buildSupportPipeline()).toJSON({ registry });
    const reloaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(document)), { registry });
    expect(reloaded.toJSON({ registry })).toEqual(document);
    expect(JSON.stringify(document)).toContain('"type":"junction.LinkContentFetcher"');
  });
});
