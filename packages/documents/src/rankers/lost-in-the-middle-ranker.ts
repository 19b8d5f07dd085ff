import { ComponentError, defineComponent } from "@junction/core";
import { z } from "zod";
import type { Document } from "../document/document.js";
import { pythonWordCount } from "../document/python-whitespace.js";
import { componentLabel } from "../joiners/component-label.js";
import { documentListSchema } from "../joiners/document-list.js";
import { concatenateDocuments } from "../joiners/join-modes.js";

const positive = z.number().int().positive();

/** `len(content.split())`, with Python's whitespace. */
const countWords = pythonWordCount;

/**
 * The "lost in the middle" order of `documents` (best first): the best at both ends, the weakest in
 * the middle, where a language model pays the least attention (Liu et al., 2023). With a word budget,
 * documents are added until their words reach it; the one that reaches it is still included.
 */
function lostInTheMiddle(documents: readonly Document[], wordCountThreshold: number | undefined): Document[] {
  const first = documents[0] as Document;
  let words = 0;
  if (wordCountThreshold !== undefined && first.content) {
    words = countWords(first.content);
    if (words >= wordCountThreshold) return [first];
  }
  const order = [0];
  for (let index = 1; index < documents.length; index += 1) {
    order.splice(Math.floor(order.length / 2) + (order.length % 2), 0, index);
    const content = (documents[index] as Document).content;
    if (wordCountThreshold !== undefined && content) {
      words += countWords(content);
      if (words >= wordCountThreshold) break;
    }
  }
  return order.map((index) => documents[index] as Document);
}

/**
 * Reorders documents so the most relevant sit at the beginning and the end of the context and the
 * least relevant in the middle, as Haystack's `LostInTheMiddleRanker` does. Expects its input sorted
 * best first (a retriever's or ranker's output); duplicates (by id) are dropped first, keeping the
 * highest-scored copy.
 *
 * `topK` keeps the first k documents before reordering; `wordCountThreshold` stops adding documents
 * once their total words reach it (the document that reaches it is included). Both can be overridden
 * per run (`top_k`, `word_count_threshold`).
 *
 * @example
 * ```ts
 * const ranker = new LostInTheMiddleRanker({ topK: 5 });
 * pipeline.connect("retriever.documents", "ranker.documents");
 * ```
 */
export const LostInTheMiddleRanker = defineComponent({
  type: "junction.LostInTheMiddleRanker",
  description: "Puts the most relevant documents at the start and end, the least relevant in the middle.",
  params: z.object({ wordCountThreshold: positive.nullish(), topK: positive.nullish() }),
  inputs: {
    documents: documentListSchema,
    top_k: positive.nullish(),
    word_count_threshold: positive.nullish(),
  },
  outputs: { documents: documentListSchema },
  run: ({ documents, top_k, word_count_threshold }, { params: options, componentName }) => {
    if (documents.length === 0) return { documents: [] };
    const topK = top_k ?? options.topK ?? undefined;
    const threshold = word_count_threshold ?? options.wordCountThreshold ?? undefined;
    const unique = concatenateDocuments([documents]);
    const selected = topK === undefined ? unique : unique.slice(0, topK);
    if (selected.length === 1) return { documents: selected };
    const withoutText = selected.find((document) => document.content === undefined);
    if (withoutText !== undefined) {
      throw new ComponentError(
        `${componentLabel("LostInTheMiddleRanker", componentName)}.run: document "${withoutText.id}" has no text content; the ranker orders text documents only. Filter out documents without content first.`,
        { componentType: "junction.LostInTheMiddleRanker", componentName, socket: "documents" },
      );
    }
    return { documents: lostInTheMiddle(selected, threshold) };
  },
});

/** A `LostInTheMiddleRanker` instance (the class doubles as the instance type). */
export type LostInTheMiddleRanker = InstanceType<typeof LostInTheMiddleRanker>;
