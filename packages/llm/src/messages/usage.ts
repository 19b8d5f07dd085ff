/**
 * Token usage as model providers report it (OpenAI's field names, which the reference keeps in
 * `meta.usage`). Wire data, hence snake_case.
 */
export interface Usage {
  /** Tokens in the prompt (the conversation sent). */
  readonly prompt_tokens: number;
  /** Tokens the model generated. */
  readonly completion_tokens: number;
  /** `prompt_tokens + completion_tokens`. */
  readonly total_tokens: number;
  /** Provider details about the prompt tokens (cached tokens, audio tokens, ...). */
  readonly prompt_tokens_details?: Readonly<Record<string, unknown>> | null | undefined;
  /** Provider details about the completion tokens (reasoning tokens, ...). */
  readonly completion_tokens_details?: Readonly<Record<string, unknown>> | null | undefined;
}

function addDetails(
  a: Readonly<Record<string, unknown>> | null | undefined,
  b: Readonly<Record<string, unknown>> | null | undefined,
): Record<string, unknown> | undefined {
  if (a == null && b == null) return undefined;
  const out: Record<string, unknown> = { ...(a ?? {}) };
  for (const [key, value] of Object.entries(b ?? {})) {
    const previous = out[key];
    out[key] = typeof value === "number" && typeof previous === "number" ? previous + value : value;
  }
  return out;
}

/**
 * Adds two usage records field by field (numeric detail fields are summed too), e.g. to total the
 * usage of every model call of an agent run. `undefined` counts as zero.
 *
 * @param a - the running total
 * @param b - the usage to add
 * @example
 * ```ts
 * const total = addUsage(addUsage(undefined, first), second);
 * ```
 */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage {
  const promptDetails = addDetails(a?.prompt_tokens_details, b?.prompt_tokens_details);
  const completionDetails = addDetails(a?.completion_tokens_details, b?.completion_tokens_details);
  return {
    prompt_tokens: (a?.prompt_tokens ?? 0) + (b?.prompt_tokens ?? 0),
    completion_tokens: (a?.completion_tokens ?? 0) + (b?.completion_tokens ?? 0),
    total_tokens: (a?.total_tokens ?? 0) + (b?.total_tokens ?? 0),
    ...(promptDetails === undefined ? {} : { prompt_tokens_details: promptDetails }),
    ...(completionDetails === undefined ? {} : { completion_tokens_details: completionDetails }),
  };
}
