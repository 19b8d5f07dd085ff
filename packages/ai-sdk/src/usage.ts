import type { Usage } from "@junction/llm";

type Count = number | undefined;

/** v2 usage: flat counts. */
interface FlatUsage {
  readonly inputTokens: Count;
  readonly outputTokens: Count;
  readonly totalTokens?: Count;
  readonly reasoningTokens?: Count;
  readonly cachedInputTokens?: Count;
}

/** v3/v4 usage: nested counts. */
interface NestedUsage {
  readonly inputTokens: { readonly total: Count; readonly cacheRead?: Count; readonly cacheWrite?: Count };
  readonly outputTokens: { readonly total: Count; readonly reasoning?: Count };
}

/**
 * Converts an AI SDK usage record (v2 flat, v3/v4 nested) into Junction's names (OpenAI's, as the
 * reference keeps them): `prompt_tokens`, `completion_tokens`, `total_tokens`,
 * `prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`.
 * Unknown counts are 0; `null` when the model reported nothing.
 *
 * @param usage - the model's usage, any supported version
 */
export function toUsage(usage: unknown): Usage | null {
  if (typeof usage !== "object" || usage === null) return null;
  const record = usage as FlatUsage | NestedUsage;
  let input: Count;
  let output: Count;
  let total: Count;
  let cached: Count;
  let reasoning: Count;
  if (typeof record.inputTokens === "object" && record.inputTokens !== null) {
    const nested = record as NestedUsage;
    input = nested.inputTokens.total;
    cached = nested.inputTokens.cacheRead;
    output = nested.outputTokens?.total;
    reasoning = nested.outputTokens?.reasoning;
  } else {
    const flat = record as FlatUsage;
    input = flat.inputTokens;
    output = flat.outputTokens;
    total = flat.totalTokens;
    cached = flat.cachedInputTokens;
    reasoning = flat.reasoningTokens;
  }
  if (input === undefined && output === undefined && total === undefined) return null;
  return {
    prompt_tokens: input ?? 0,
    completion_tokens: output ?? 0,
    total_tokens: total ?? (input ?? 0) + (output ?? 0),
    ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
    ...(reasoning === undefined ? {} : { completion_tokens_details: { reasoning_tokens: reasoning } }),
  };
}
