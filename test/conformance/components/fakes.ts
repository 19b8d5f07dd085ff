import { variadic } from "@junction/core";
import { z } from "zod";
import { defineTestComponent } from "./define.js";
import {
  answer,
  Document,
  documentListSchema,
  type GeneratedAnswer,
  generatedAnswerSchema,
} from "./document.js";

/**
 * Test fakes for reference components Junction does not ship (retrievers, joiners of documents and answers,
 * answer builders, embedders, generators). They keep the reference's socket names and defaults, and replay
 * the outputs the reference's run produced.
 */

/** The reference's `FixedGenerator` (conftest): cycles through fixed replies, one per call. */
export const FixedGenerator = defineTestComponent({
  type: "conformance.FixedGenerator",
  params: z.object({ replies: z.array(z.string()).min(1) }),
  inputs: { prompt: z.string() },
  outputs: { replies: z.array(z.string()) },
  setup: () => ({ index: 0 }),
  run: (_inputs, { params, resources }) => {
    if (resources.index >= params.replies.length) resources.index = 0;
    return { replies: [params.replies[resources.index++]!] };
  },
});

/** Replays fixed documents for any query (in place of `InMemoryBM25Retriever`). */
export const ReplayRetriever = defineTestComponent({
  type: "conformance.ReplayRetriever",
  params: z.object({ documents: z.array(z.instanceof(Document)) }),
  inputs: {
    query: z.string(),
    filters: z.record(z.string(), z.any()).optional(),
    top_k: z.number().optional(),
    scale_score: z.boolean().optional(),
  },
  outputs: { documents: documentListSchema },
  run: (_inputs, { params }) => ({ documents: params.documents.map((item) => new Document({ ...item })) }),
});

/** Joins document lists by concatenation, keeping the best-scored copy per id, sorted by score. */
export const DocumentJoiner = defineTestComponent({
  type: "conformance.DocumentJoiner",
  inputs: { documents: variadic(documentListSchema), top_k: z.number().optional() },
  outputs: { documents: documentListSchema },
  run: ({ documents, top_k }) => {
    const best = new Map<string, Document>();
    for (const item of documents.flat()) {
      const kept = best.get(item.id);
      if (kept === undefined || (item.score ?? -Infinity) > (kept.score ?? -Infinity))
        best.set(item.id, item);
    }
    const sorted = [...best.values()].sort(
      (left, right) => (right.score ?? -Infinity) - (left.score ?? -Infinity) || 0,
    );
    return { documents: top_k === undefined ? sorted : sorted.slice(0, top_k) };
  },
});

/** Builds one answer per reply; documents get a 1-based `source_index` (in place of `AnswerBuilder`). */
export const AnswerBuilder = defineTestComponent({
  type: "conformance.AnswerBuilder",
  inputs: {
    query: z.string(),
    replies: z.array(z.string()),
    meta: z.array(z.record(z.string(), z.any())).optional(),
    documents: documentListSchema.optional(),
    pattern: z.string().optional(),
    reference_pattern: z.string().optional(),
    expand_reference_ranges: z.boolean().optional(),
  },
  outputs: { answers: z.array(generatedAnswerSchema) },
  run: ({ query, replies, documents }) => ({
    answers: replies.map((reply) =>
      answer({
        data: reply,
        query,
        documents: (documents ?? []).map(
          (item, index) => new Document({ ...item, meta: { ...item.meta, source_index: index + 1 } }),
        ),
        meta: { all_messages: replies },
      }),
    ),
  }),
});

/** Concatenates answer lists (in place of `AnswerJoiner`). */
export const AnswerJoiner = defineTestComponent({
  type: "conformance.AnswerJoiner",
  inputs: { answers: variadic(z.array(generatedAnswerSchema)), top_k: z.number().optional() },
  outputs: { answers: z.array(generatedAnswerSchema) },
  run: ({ answers, top_k }) => {
    const joined: GeneratedAnswer[] = answers.flat();
    return { answers: top_k === undefined ? joined : joined.slice(0, top_k) };
  },
});

/** Returns a fixed embedding and the reference's mock model meta (in place of `MockTextEmbedder`). */
export const MockTextEmbedder = defineTestComponent({
  type: "conformance.MockTextEmbedder",
  params: z.object({ embedding: z.array(z.number()) }),
  inputs: { text: z.string() },
  outputs: { embedding: z.array(z.number()), meta: z.record(z.string(), z.any()) },
  run: (_inputs, { params }) => ({
    embedding: [...params.embedding],
    meta: { model: "mock-model", usage: { prompt_tokens: 4, total_tokens: 4 } },
  }),
});

/** Cleans document text: drops empty lines and/or collapses and trims whitespace (in place of `DocumentCleaner`). */
export const DocumentCleaner = defineTestComponent({
  type: "conformance.DocumentCleaner",
  params: z.object({
    remove_empty_lines: z.boolean().default(true),
    remove_extra_whitespaces: z.boolean().default(true),
    keep_id: z.boolean().default(false),
  }),
  inputs: { documents: documentListSchema },
  outputs: { documents: documentListSchema },
  run: ({ documents }, { params }) => ({
    documents: documents.map((item) => {
      let text = item.content ?? "";
      if (params.remove_empty_lines)
        text = text
          .split("\n")
          .filter((line) => line.trim() !== "")
          .join("\n");
      if (params.remove_extra_whitespaces) text = text.replace(/\s\s+/g, " ").trim();
      return new Document({
        content: text,
        meta: { ...item.meta },
        ...(params.keep_id ? { id: item.id } : {}),
        score: item.score,
      });
    }),
  }),
});
