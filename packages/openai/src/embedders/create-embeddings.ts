import type { EmbedBatchResult } from "@junction/documents";
import { withRefusalStop } from "../connection-refused.js";
import type { ResolvedClient } from "../create-client.js";
import { toOpenAIApiError } from "../to-openai-api-error.js";

/** One embeddings request. */
export interface EmbeddingsCall {
  readonly resolved: ResolvedClient;
  readonly model: string;
  readonly dimensions: number | undefined;
  /** The texts, in order; a single string is sent as a string (as Haystack's text embedder does). */
  readonly input: string | string[];
  readonly signal: AbortSignal | undefined;
  /** The component named in errors. */
  readonly componentLabel: string;
}

/**
 * Sends one `POST /embeddings` request (floats, as Haystack asks for) and returns the embeddings in input
 * order with the answering model and the usage. Aborting `signal` cancels the request and rejects with
 * its reason; SDK errors become redacted `OpenAIApiError`s; a refused connection is not retried.
 *
 * @param call - client, model, dimensions, texts, signal and the component's label
 */
export async function createEmbeddings(call: EmbeddingsCall): Promise<EmbedBatchResult> {
  const { resolved, signal } = call;
  signal?.throwIfAborted();
  try {
    const response = await withRefusalStop(signal, (requestSignal) =>
      resolved.client.embeddings.create(
        {
          model: call.model,
          input: call.input,
          encoding_format: "float",
          ...(call.dimensions === undefined ? {} : { dimensions: call.dimensions }),
        },
        { signal: requestSignal },
      ),
    );
    // The server may answer out of order; `index` says which text each embedding is for.
    const count = typeof call.input === "string" ? 1 : call.input.length;
    const embeddings: number[][] = new Array(count);
    response.data.forEach((item, position) => {
      embeddings[typeof item.index === "number" ? item.index : position] = item.embedding;
    });
    return {
      embeddings: [...embeddings].filter((embedding) => embedding !== undefined),
      model: response.model,
      usage: {
        prompt_tokens: response.usage?.prompt_tokens ?? 0,
        total_tokens: response.usage?.total_tokens ?? 0,
      },
    };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw toOpenAIApiError(error, {
      apiKey: resolved.apiKey,
      baseURL: resolved.baseURL,
      model: call.model,
      maxRetries: resolved.maxRetries,
      componentLabel: call.componentLabel,
      requestHint: `Check the model name "${call.model}", \`dimensions\` and the texts sent (some servers refuse empty texts).`,
    });
  }
}
