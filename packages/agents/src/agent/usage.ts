/**
 * Adds token usage records recursively: numbers are summed, nested objects merged key by key, any
 * other value replaced by the newer one. Works for every provider's usage shape (the reference's
 * recursive numeric sum), not just OpenAI's.
 *
 * @param total - the running total (not modified)
 * @param usage - the usage to add
 * @returns a new total
 */
export function addTokenUsage(
  total: Readonly<Record<string, unknown>>,
  usage: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...total };
  for (const [key, value] of Object.entries(usage)) {
    const previous = out[key];
    if (typeof value === "number") {
      out[key] = typeof previous === "number" ? previous + value : value;
    } else if (isRecord(value)) {
      out[key] = addTokenUsage(isRecord(previous) ? previous : {}, value);
    } else if (value !== undefined && value !== null) {
      out[key] = value;
    } else if (!(key in out)) {
      out[key] = value;
    }
  }
  return out;
}

/**
 * True when adding `usage` to `total` changes nothing: every count is 0 and already in the total (a
 * scripted or cached reply). The step then skips the copy and the State write.
 */
export function addsNoUsage(
  total: Readonly<Record<string, unknown>>,
  usage: Readonly<Record<string, unknown>>,
): boolean {
  for (const key in usage) {
    if (usage[key] !== 0 || typeof total[key] !== "number") return false;
  }
  return true;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
