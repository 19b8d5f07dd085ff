import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, InMemoryDocumentStore } from "@junction/documents";
import { describe, expect, test } from "vitest";
import { junction } from "./support.js";

const slow = { timeout: 240_000 };

/** A query pipeline document: a BM25 retriever over the store saved at `storePath`. */
function queryPipeline(storePath: string): string {
  return `version: 1
components:
  retriever:
    type: junction.InMemoryBM25Retriever
    init_parameters:
      documentStore:
        type: junction.InMemoryDocumentStore
        init_parameters:
          path: ${JSON.stringify(storePath)}
      topK: 2
connections: []
inputs:
  query: retriever.query
outputs:
  documents: retriever.documents
`;
}

const indexingPipeline = `version: 1
components:
  converter:
    type: junction.TextFileToDocument
    init_parameters: {}
  splitter:
    type: junction.DocumentSplitter
    init_parameters:
      splitBy: sentence
      splitLength: 2
  writer:
    type: junction.DocumentWriter
    init_parameters:
      documentStore:
        type: junction.InMemoryDocumentStore
        init_parameters: {}
connections:
  - sender: converter.documents
    receiver: splitter.documents
  - sender: splitter.documents
    receiver: writer.documents
`;

describe("junction knows the retrieval components", { concurrent: true }, () => {
  test(
    "validate accepts an indexing pipeline (converter → splitter → writer) and names a bad store type",
    slow,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "junction-cli-rag-"));
      const good = join(dir, "indexing.yaml");
      writeFileSync(good, indexingPipeline);
      const valid = await junction(["validate", good]);
      expect(valid.stderr).toBe("");
      expect(valid.code).toBe(0);
      const bad = join(dir, "bad.yaml");
      writeFileSync(
        bad,
        indexingPipeline.replace(
          "type: junction.InMemoryDocumentStore",
          "type: junction.InMemoryDocumentStor",
        ),
      );
      const invalid = await junction(["validate", bad]);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain("junction.InMemoryDocumentStor");
      expect(invalid.stderr).toContain("junction.InMemoryDocumentStore");
    },
  );

  test(
    "run: a BM25 query pipeline whose store file holds the documents answers with them as JSON",
    slow,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "junction-cli-rag-"));
      const storePath = join(dir, "store.json");
      const store = new InMemoryDocumentStore({ path: storePath });
      await store.writeDocuments([
        new Document({
          content: "Lake Baikal holds a fifth of the world's fresh surface water.",
          meta: { topic: "lakes" },
        }),
        new Document({
          content: "Mount Fuji is the highest mountain in Japan.",
          meta: { topic: "mountains" },
        }),
      ]);
      const file = join(dir, "query.yaml");
      writeFileSync(file, queryPipeline(storePath));
      const result = await junction(["run", file, "--input", "query=fresh water lake", "--json"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout) as {
        outputs: { documents: { id: string; content: string; score: number; topic: string }[] };
      };
      // Served JSON is Haystack's flattened to_dict shape: meta keys beside the fields.
      expect(output.outputs.documents).toHaveLength(1);
      expect(output.outputs.documents[0]).toMatchObject({
        content: expect.stringContaining("Lake Baikal"),
        topic: "lakes",
      });
      expect(output.outputs.documents[0]?.score).toBeGreaterThan(0);
    },
  );
});
