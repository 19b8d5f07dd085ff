import type { FinishReason } from "@junction/llm";

const mapping: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  "content-filter": "content_filter",
  "tool-calls": "tool_calls",
};

/** A finish reason in Junction's terms, plus the model's own value when it had to be approximated. */
export interface MappedFinishReason {
  /** `stop`, `length`, `tool_calls` or `content_filter`. */
  readonly finishReason: FinishReason;
  /** The model's value when it has no Junction equivalent (`error`, `other`, `unknown`, `interrupted`) or a raw provider value. */
  readonly raw: string | undefined;
}

/**
 * Maps an AI SDK finish reason (v2: a string; v3/v4: `{ unified, raw }`) to Junction's: `tool-calls` →
 * `tool_calls`, `content-filter` → `content_filter`, `length`, `stop`; `error`, `other`, `unknown` and
 * `interrupted` become `stop`, with the original kept in `raw` (the reply's `meta.raw_finish_reason`).
 *
 * @param value - the model's finish reason, any supported version
 */
export function mapFinishReason(value: unknown): MappedFinishReason {
  let unified: unknown = value;
  let raw: string | undefined;
  if (typeof value === "object" && value !== null) {
    unified = (value as { unified?: unknown }).unified;
    const given = (value as { raw?: unknown }).raw;
    if (typeof given === "string") raw = given;
  }
  const known = typeof unified === "string" ? mapping[unified] : undefined;
  if (known !== undefined) return { finishReason: known, raw };
  return { finishReason: "stop", raw: raw ?? (typeof unified === "string" ? unified : "unknown") };
}
