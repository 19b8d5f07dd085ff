import type { Logger, MaybePromise } from "@junction/core";
import type { Document } from "../document/document.js";
import type { DocumentEmbedderMeta, EmbeddingUsage } from "./embedder-sockets.js";
import { EmbeddingError } from "./embedding-error.js";
import type { EmbeddingProgress } from "./progress.js";
import { type TextComposition, textsToEmbed } from "./texts-to-embed.js";

/** What one embedding call returned. */
export interface EmbedBatchResult {
  /** One embedding per text sent, in the same order. */
  readonly embeddings: readonly (readonly number[])[];
  /** The model that answered, as the provider names it (first successful batch wins). */
  readonly model?: string | undefined;
  /** The tokens this call used, if the provider reports them. */
  readonly usage?: EmbeddingUsage | undefined;
}

/** The parts of a component's run context the batch loop uses. */
export interface EmbedRunContext {
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger;
  readonly emit: (payload: unknown) => MaybePromise<void>;
}

/** Options of {@link embedDocuments}. */
export interface EmbedDocumentsOptions extends TextComposition {
  /** The documents to embed. */
  readonly documents: readonly Document[];
  /** Texts per call. */
  readonly batchSize: number;
  /** Throw an {@link EmbeddingError} at the first failed batch instead of warning and going on. */
  readonly raiseOnFailure: boolean;
  /** The model name to report when no batch succeeded. */
  readonly model: string;
  /** The component's name for messages, e.g. `"OpenAIDocumentEmbedder"`. */
  readonly componentLabel: string;
  /** The component's registered type (on errors). */
  readonly componentType: string;
  /** The run's signal, logger and emit. */
  readonly context: EmbedRunContext;
  /** Embeds one batch of texts; rejects when the call failed. */
  readonly embedBatch: (texts: string[], signal: AbortSignal | undefined) => Promise<EmbedBatchResult>;
}

function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function quoteIds(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(", ");
}

/**
 * The batch loop every document embedder shares, with Haystack's semantics: composes one text per
 * document id ({@link textsToEmbed}), embeds them `batchSize` at a time in order, and returns the
 * documents in input order, each a copy with its embedding (`doc.with({ embedding })`: the id is kept).
 *
 * - After each batch it emits an {@link EmbeddingProgress} (`done`/`total` count input documents).
 * - A failed batch is never dropped silently: with `raiseOnFailure` it throws an {@link EmbeddingError}
 *   naming the batch and its documents; otherwise it warns through the run's logger (the ids and the
 *   error) and the documents come back without embeddings, listed in `meta.failed_documents`.
 * - Aborting the run's signal stops at once and rejects with the signal's reason (never a batch failure).
 * - `meta.usage` sums the batches' tokens; `meta.model` is the first answering model, else `model`.
 *
 * @param options - documents, composition, batch size, failure policy, run context and the call
 */
export async function embedDocuments(
  options: EmbedDocumentsOptions,
): Promise<{ documents: Document[]; meta: DocumentEmbedderMeta }> {
  const { documents, context, componentLabel } = options;
  const { signal } = context;
  signal?.throwIfAborted();
  const texts = [...textsToEmbed(documents, options)];
  const copies = new Map<string, number>();
  for (const document of documents) copies.set(document.id, (copies.get(document.id) ?? 0) + 1);
  const embeddings = new Map<string, readonly number[]>();
  const failed: string[] = [];
  const usage = { prompt_tokens: 0, total_tokens: 0 };
  let model: string | undefined;
  let done = 0;
  const batchCount = Math.ceil(texts.length / options.batchSize);
  for (let batch = 0; batch < batchCount; batch += 1) {
    const slice = texts.slice(batch * options.batchSize, (batch + 1) * options.batchSize);
    const ids = slice.map(([id]) => id);
    try {
      const result = await options.embedBatch(
        slice.map(([, text]) => text),
        signal,
      );
      if (result.embeddings.length !== slice.length) {
        throw new Error(
          `the server returned ${result.embeddings.length} embeddings for ${slice.length} texts`,
        );
      }
      for (let index = 0; index < ids.length; index += 1) {
        embeddings.set(ids[index] as string, result.embeddings[index] as readonly number[]);
      }
      model ??= result.model;
      usage.prompt_tokens += result.usage?.prompt_tokens ?? 0;
      usage.total_tokens += result.usage?.total_tokens ?? 0;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const where = `batch ${batch + 1} of ${batchCount} (documents ${quoteIds(ids)})`;
      if (options.raiseOnFailure) {
        throw new EmbeddingError(
          `${componentLabel}: ${where} failed: ${failureMessage(error)}. Fix the cause, or set \`raiseOnFailure: false\` to go on without these embeddings.`,
          {
            documentIds: ids,
            batch: batch + 1,
            batchCount,
            componentType: options.componentType,
            cause: error,
          },
        );
      }
      context.logger.warn(
        `${componentLabel}: ${where} failed: ${failureMessage(error)}. These documents are returned without embeddings and listed in meta.failed_documents.`,
        { documentIds: ids, batch: batch + 1, batchCount, error },
      );
      failed.push(...ids);
    }
    for (const id of ids) done += copies.get(id) ?? 0;
    const progress: EmbeddingProgress = { type: "embedding_progress", done, total: documents.length };
    await context.emit(progress);
  }
  const embedded = documents.map((document) => {
    const embedding = embeddings.get(document.id);
    return embedding === undefined ? document : document.with({ embedding: [...embedding] });
  });
  return {
    documents: embedded,
    meta: { model: model ?? options.model, usage, failed_documents: failed },
  };
}
