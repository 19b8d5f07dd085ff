import { documentSchema } from "@junction/documents";
import { z } from "zod";

/**
 * The socket schemas the evaluators share, with Haystack's socket names. One list entry per question:
 * `ground_truth_documents[i]` and `retrieved_documents[i]` are the documents of question `i`.
 */

/** A `Document` instance (the named socket type, so these sockets connect to retrievers' outputs). */
export const documentInstanceSchema = documentSchema;

/** `list[list[Document]]`: the documents of each question. */
export const documentListsSchema = z.array(z.array(documentInstanceSchema));

/** `list[str]`: one text per question. */
export const textListSchema = z.array(z.string());

/** `list[list[str]]`: several texts per question (the `contexts` of the LLM judges). */
export const textListsSchema = z.array(z.array(z.string()));

/** The outputs every metric evaluator has: the mean and one score per question. */
export const scoreOutputs = {
  score: z.number(),
  individual_scores: z.array(z.number()),
};

/** The sockets of the retrieval evaluators. */
export const documentInputs = {
  ground_truth_documents: documentListsSchema,
  retrieved_documents: documentListsSchema,
};
