/**
 * Sentence boundaries from `Intl.Segmenter`, in windows.
 *
 * V8's sentence segmenter slows down superlinearly on long strings (a 260 kB text takes seconds), so
 * the text is segmented in windows of about {@link windowSize} characters: boundaries up to the window's
 * end are kept, and the next window starts at the last kept boundary. Each window looks
 * {@link lookahead} characters past its end, so a kept boundary sees the same following text the
 * segmenter would see in the whole string (its rules look only a few characters ahead in practice).
 */

const windowSize = 2_000;
const lookahead = 1_000;

/**
 * The offsets where a sentence starts in `text`, after the first one (so `[0, ...starts, text.length]`
 * bounds every sentence). Each sentence keeps its trailing whitespace, as `Intl.Segmenter` returns it.
 *
 * @param text - the text
 * @param segmenter - an `Intl.Segmenter` with `granularity: "sentence"`
 */
export function sentenceStarts(text: string, segmenter: Intl.Segmenter): number[] {
  const starts: number[] = [];
  let position = 0;
  let span = windowSize;
  while (position < text.length) {
    const end = Math.min(text.length, position + span + lookahead);
    const found: number[] = [];
    for (const segment of segmenter.segment(text.slice(position, end))) {
      if (segment.index > 0) found.push(position + segment.index);
    }
    if (end === text.length) {
      for (const start of found) starts.push(start);
      break;
    }
    const limit = position + span;
    const kept = found.filter((start) => start <= limit);
    if (kept.length === 0) {
      // one sentence longer than the window: look further before deciding where it ends
      span *= 2;
      continue;
    }
    for (const start of kept) starts.push(start);
    position = kept[kept.length - 1] as number;
    span = windowSize;
  }
  return starts;
}
