import { type AnyComponent, defineComponent, isComponent } from "@junction/core";
import { z } from "zod";
import { EvaluationInputError } from "../errors.js";
import { checkSameLength, checkTextRows } from "./checks.js";
import { nestedComponentSerializer } from "./nested-component-serializer.js";
import { scoreOutputs, textListSchema } from "./sockets.js";

const evaluator = "SASEvaluator";

function isTextEmbedder(value: unknown): value is AnyComponent {
  return (
    isComponent(value) &&
    Object.hasOwn(value.inputSockets, "text") &&
    Object.hasOwn(value.outputSockets, "embedding")
  );
}

/** Cosine similarity of two vectors (0 when either is all zeros). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const x = a[index] as number;
    const y = b[index] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

async function embedAll(
  embedder: AnyComponent,
  texts: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Map<string, readonly number[]>> {
  const unique = [...new Set(texts)];
  const embeddings = new Map<string, readonly number[]>();
  for (const text of unique) {
    signal?.throwIfAborted();
    const result = (await embedder.run({ text }, { signal })) as { embedding?: unknown };
    const embedding = result.embedding;
    if (!Array.isArray(embedding) || embedding.some((value) => typeof value !== "number")) {
      throw new EvaluationInputError(
        `${evaluator}: the embedder "${embedder.type}" returned no numeric "embedding" for a text. Use a text embedder (input "text", output "embedding": number[]).`,
        { componentType: evaluator },
      );
    }
    embeddings.set(text, embedding as number[]);
  }
  return embeddings;
}

/**
 * Semantic answer similarity: the cosine similarity between the embedding of each predicted answer
 * and of its ground truth answer, computed with any Junction text embedder (a component with input
 * `text` and output `embedding`, e.g. `OpenAITextEmbedder`). Each distinct text is embedded once.
 *
 * Empty inputs give `{ score: 0, individual_scores: [0] }`, as Haystack's SAS answers them.
 *
 * Haystack's SAS can also score pairs with a cross-encoder model; that path needs local model weights
 * and is not available here — use a bi-encoder embedding model.
 *
 * @example
 * ```ts
 * const sas = new SASEvaluator({ embedder: new OpenAITextEmbedder({ model: "text-embedding-3-small" }) });
 * await sas.run({ ground_truth_answers: ["Berlin"], predicted_answers: ["The capital is Berlin."] });
 * ```
 */
export const SASEvaluator = defineComponent({
  type: "junction.SASEvaluator",
  description: "Cosine similarity of predicted and ground truth answer embeddings.",
  params: z.object({
    embedder: z.custom<AnyComponent>(isTextEmbedder, {
      message: 'must be a text embedder component instance (input "text", output "embedding").',
    }),
  }),
  inputs: { ground_truth_answers: textListSchema, predicted_answers: textListSchema },
  outputs: scoreOutputs,
  serializer: nestedComponentSerializer("embedder"),
  run: async ({ ground_truth_answers, predicted_answers }, { params, signal }) => {
    checkSameLength(evaluator, { ground_truth_answers, predicted_answers }, { allowEmpty: true });
    checkTextRows(evaluator, "ground_truth_answers", ground_truth_answers);
    checkTextRows(evaluator, "predicted_answers", predicted_answers);
    // Haystack's SASEvaluator answers empty inputs with one 0 score rather than an error.
    if (predicted_answers.length === 0) return { score: 0, individual_scores: [0] };
    const embeddings = await embedAll(
      params.embedder,
      [...predicted_answers, ...ground_truth_answers],
      signal,
    );
    const individual_scores = predicted_answers.map((predicted, index) =>
      cosineSimilarity(
        embeddings.get(predicted) as readonly number[],
        embeddings.get(ground_truth_answers[index] as string) as readonly number[],
      ),
    );
    const score = individual_scores.reduce((sum, value) => sum + value, 0) / individual_scores.length;
    return { score, individual_scores };
  },
});

/** A `SASEvaluator` instance. */
export type SASEvaluator = InstanceType<typeof SASEvaluator>;
