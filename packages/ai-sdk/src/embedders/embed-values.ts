import type { SharedV2ProviderOptions, SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { EmbedBatchResult } from "@junction/documents";
import type { AISDKEmbeddingModel } from "./embedding-model.js";

/** One `doEmbed` call. */
export interface EmbedValuesCall {
  readonly model: AISDKEmbeddingModel;
  readonly values: string[];
  readonly providerOptions: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  readonly signal: AbortSignal | undefined;
}

/**
 * Embeds `values` with one `doEmbed` call (the run's signal as its `abortSignal`) and converts the answer:
 * the model's id as `model`, its `usage.tokens` as `prompt_tokens` and `total_tokens` (0 when it reports
 * none). Aborting rejects with the signal's reason.
 *
 * @param call - model, values, provider options and signal
 */
export async function embedValues(call: EmbedValuesCall): Promise<EmbedBatchResult> {
  const { model, signal } = call;
  signal?.throwIfAborted();
  try {
    const result = await model.doEmbed({
      values: call.values,
      ...(signal === undefined ? {} : { abortSignal: signal }),
      ...(call.providerOptions === undefined
        ? {}
        : // JSON values by construction: the params schema keeps them serializable.
          { providerOptions: call.providerOptions as SharedV2ProviderOptions & SharedV3ProviderOptions }),
    });
    const tokens = result.usage?.tokens ?? 0;
    return {
      embeddings: result.embeddings,
      model: model.modelId,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
