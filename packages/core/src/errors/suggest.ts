/**
 * "Did you mean …?" for unknown names: the known names closest to a misspelled one, by edit distance
 * (insertions, deletions, substitutions and swaps of neighbours), case-insensitive. One helper so every
 * message that reports an unknown name (run inputs, `connect`, documents, State keys, tools, router
 * variables) suggests the same way.
 */

/** Edit distance with adjacent transpositions (optimal string alignment), stopping early past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, previous2[j - 2]! + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known names closest to `name`, best first: within an edit distance of about a third of the
 * name's length (at least 1, at most 3), or names that contain it or are contained in it.
 *
 * @param name - the unknown name as written
 * @param candidates - the names that exist
 * @param max - how many to return (default 3)
 * @example
 * ```ts
 * closestNames("nmu", ["num", "double", "sum"]); // ["num"]
 * ```
 */
export function closestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  const scored: { candidate: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (candidate === name || seen.has(candidate)) continue;
    seen.add(candidate);
    const lower = candidate.toLowerCase();
    let score = distance(wanted, lower, limit);
    if (score > limit && wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) {
      score = limit + 0.5;
    }
    if (score <= limit + 0.5) scored.push({ candidate, score });
  }
  scored.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, max).map((entry) => entry.candidate);
}

/**
 * A sentence suggesting the closest known names, ready to append to a message
 * (`' Did you mean "num"?'`), or `""` when nothing is close.
 *
 * @param name - the unknown name as written
 * @param candidates - the names that exist
 * @example
 * ```ts
 * `unknown component "nmu".${didYouMean("nmu", ["num", "double"])}`; // 'unknown component "nmu". Did you mean "num"?'
 * ```
 */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const names = closestNames(name, candidates);
  if (names.length === 0) return "";
  const quoted = names.map((candidate) => `"${candidate}"`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
  return ` Did you mean ${list}?`;
}
