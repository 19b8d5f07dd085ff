import { isPythonWhitespace } from "../document/python-whitespace.js";
import { sentenceStarts } from "./sentences.js";

/**
 * Sentence boundaries closer to Haystack's `SentenceSplitter` (NLTK Punkt with Haystack's split rules and
 * extended abbreviations) than raw `Intl.Segmenter` output. ICU breaks at every line break and after
 * abbreviations such as "Mr."; Punkt only ends a sentence at `.`, `?` or `!`, and not after a known
 * abbreviation. So a segmenter boundary is kept only when:
 *
 * 1. the text before it (trailing whitespace and closing brackets or quotes aside) ends with `.`, `?` or `!`;
 * 2. that `.` does not end an abbreviation of the language (`Mr.`, `e.g.`, `z.B.`), an initial (`J.`) or
 *    an ellipsis (`wait...`) — unless the next word is a capitalised common sentence opener (`The`,
 *    `Then`, `Der`), which Punkt takes as a new sentence;
 * 3. Haystack's split rules (`SentenceSplitter._needs_join`) do not join the two sentences: the boundary
 *    lies inside a quotation (`"…"` or `'…'`, as Haystack's regex pairs them), right after a quotation
 *    ending in `?"`, after a numbered-list marker alone (`1.`), or before a sentence opening with `(` or `[`.
 *
 * Punkt's statistical rules (orthographic context, rare abbreviations it learned) are not reproduced, so
 * boundaries can still differ in rarer cases.
 */

/** Abbreviations (lowercase, without the final period) after which no sentence ends, per language. */
const abbreviations: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(
    (
      "mr mrs ms mx dr prof sr jr st mt ft rev hon gen col lt sgt capt cmdr maj gov sen rep pres " +
      "vs etc e.g i.e cf al approx est dept univ assn bros inc ltd co corp llc plc no nos fig figs " +
      "eq eqs vol vols ch chap sec pp ed eds op art ca jan feb mar apr jun jul aug sep sept oct nov dec " +
      "mon tue tues wed thu thur thurs fri sat sun a.m p.m u.s u.k u.n e.u d.c ph.d b.a m.a b.sc m.sc " +
      "n.b p.s r.i.p a.k.a"
    ).split(" "),
  ),
  de: new Set(
    (
      "z.b bzw ca usw vgl evtl ggf inkl exkl zzgl nr dr prof hr fr frl str abs abschn art bd bspw " +
      "d.h u.a u.ä o.ä s.o s.u sog etc jh jhd mio mrd tel zb dt allg bzgl gegr geb gest hrsg " +
      "jan feb märz apr jun jul aug sep sept okt nov dez mo di mi do fr sa so"
    ).split(" "),
  ),
};

/**
 * Words that usually open a sentence (Punkt learns such "sentence starters" and orthographic habits from
 * its training text): after an abbreviation, an initial or an ellipsis, one of these, capitalised, ends
 * the sentence.
 */
const sentenceStarters: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(
    (
      "the a an it its he she we they i you this that these those there then thus hence however in on at " +
      "for from to by with of as after before during since while when where what which who why how if " +
      "but and or nor so yet also although though because moreover furthermore meanwhile nevertheless " +
      "therefore instead indeed finally first second third next one some many most several each every " +
      "both all any no not none such his her their our my your today yesterday tomorrow now here"
    ).split(" "),
  ),
  de: new Set(
    (
      "der die das ein eine einer eines es er sie wir ihr ich dies diese dieser dieses in im am an auf " +
      "für mit von zu bei nach vor seit während wenn als wie was wer wo warum aber und oder doch auch " +
      "jedoch dann danach deshalb daher außerdem so nun hier heute"
    ).split(" "),
  ),
};

const sentenceEnds = new Set([".", "?", "!"]);
const closers = new Set([")", "]", "}", '"', "'", "\u2019", "\u201d", "\u00bb"]);
const quotations = /"[^"]*"|'[^']*'/g;
const digit = /^\p{Nd}$/u;

/**
 * The sentence starts of `text` (after the first sentence), as {@link sentenceStarts} finds them with
 * `segmenter`, refined by the rules above for the segmenter's language.
 *
 * @param text - the text
 * @param segmenter - an `Intl.Segmenter` with `granularity: "sentence"`
 */
export function haystackSentenceStarts(text: string, segmenter: Intl.Segmenter): number[] {
  const language = segmenter.resolvedOptions().locale.split("-")[0]?.toLowerCase() ?? "en";
  const known = abbreviations[language] ?? new Set<string>();
  const starters = sentenceStarters[language] ?? new Set<string>();
  const kept = sentenceStarts(text, segmenter).filter((boundary) =>
    endsSentence(text, boundary, known, starters),
  );
  return applySplitRules(text, kept);
}

/** Rules 1 and 2: does the text before `boundary` end a sentence as Punkt would see it? */
function endsSentence(
  text: string,
  boundary: number,
  known: ReadonlySet<string>,
  starters: ReadonlySet<string>,
): boolean {
  let end = boundary;
  while (end > 0 && isPythonWhitespace(text.charAt(end - 1))) end -= 1;
  let closed = false;
  while (end > 0 && closers.has(text.charAt(end - 1))) {
    end -= 1;
    closed = true;
  }
  const mark = text.charAt(end - 1);
  if (!sentenceEnds.has(mark)) return false;
  if (mark !== "." || closed) return true;
  let tokenStart = end - 1;
  while (tokenStart > 0 && !isPythonWhitespace(text.charAt(tokenStart - 1))) tokenStart -= 1;
  const token = text
    .slice(tokenStart, end - 1)
    .replace(/^[([{"'\u2018\u201c\u00ab]+/, "")
    .toLowerCase();
  if (token === "") return true;
  // an abbreviation, an initial ("J.") or an ellipsis ("wait..."): Punkt ends the sentence there only
  // when the next word is one that usually starts sentences ("Mr. Smith" goes on, "5 p.m. Then" ends)
  const abbreviationLike = known.has(token) || /^\p{L}$/u.test(token) || token.endsWith("..");
  return !abbreviationLike || startsWithSentenceStarter(text, boundary, starters);
}

/** True when the word at `from` is capitalised and, lowercased, one of `starters`. */
function startsWithSentenceStarter(text: string, from: number, starters: ReadonlySet<string>): boolean {
  let start = from;
  while (start < text.length && isPythonWhitespace(text.charAt(start))) start += 1;
  let end = start;
  while (end < text.length && !isPythonWhitespace(text.charAt(end))) end += 1;
  const word = text
    .slice(start, end)
    .replace(/^[([{"'\u2018\u201c\u00ab]+/, "")
    .replace(/[^\p{L}]+$/u, "");
  return /^\p{Lu}/u.test(word) && starters.has(word.toLowerCase());
}

/**
 * Rule 3, Haystack's `_apply_split_rules` over the spans the starts delimit (each span keeps its
 * trailing whitespace, as Haystack's splitter asks NLTK to): a span is joined with the next while
 * `_needs_join` says so.
 */
function applySplitRules(text: string, starts: readonly number[]): number[] {
  if (starts.length === 0) return [];
  const quoteStarts: number[] = [];
  const quoteEnds: number[] = [];
  for (const match of text.matchAll(quotations)) {
    quoteStarts.push(match.index);
    quoteEnds.push(match.index + match[0].length);
  }
  const bounds = [0, ...starts, text.length];
  const kept: number[] = [];
  let spanStart = 0;
  for (let index = 1; index < bounds.length - 1; index += 1) {
    const end = bounds[index] as number;
    const nextEnd = bounds[index + 1] as number;
    if (needsJoin(text, spanStart, end, nextEnd, quoteStarts, quoteEnds)) continue;
    kept.push(end);
    spanStart = end;
  }
  return kept;
}

/** Haystack's `SentenceSplitter._needs_join` for the span `[start, end)` and the next one, `[end, nextEnd)`. */
function needsJoin(
  text: string,
  start: number,
  end: number,
  nextEnd: number,
  quoteStarts: readonly number[],
  quoteEnds: readonly number[],
): boolean {
  // Quotations do not overlap, so only the last one starting before `end` can contain it or end at it.
  let low = 0;
  let high = quoteStarts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((quoteStarts[middle] as number) < end) low = middle + 1;
    else high = middle;
  }
  if (low > 0) {
    const quoteEnd = quoteEnds[low - 1] as number;
    if (end < quoteEnd) return true;
    if (end === quoteEnd && text.charAt(quoteEnd - 2) === "?") return true;
  }
  // Python's `$` also matches before one final "\n"
  if (endsWithListMarker(text, start, end)) return true;
  if (text.charAt(end - 1) === "\n" && endsWithListMarker(text, start, end - 1)) return true;
  // re.search(r"^\s*[\(\[]", next sentence)
  let next = end;
  while (next < nextEnd && isPythonWhitespace(text.charAt(next))) next += 1;
  return next < nextEnd && (text.charAt(next) === "(" || text.charAt(next) === "[");
}

/**
 * `re.search(r"(^|\n)\s*\d{1,2}\.$", text[start:end])` without the `$`'s final-newline case, scanned
 * backwards from `end` so a long span costs no more than its last line.
 */
function endsWithListMarker(text: string, start: number, end: number): boolean {
  let index = end - 1;
  if (index < start || text.charAt(index) !== ".") return false;
  index -= 1;
  let digits = 0;
  while (index >= start && digits < 2 && digit.test(text.charAt(index))) {
    index -= 1;
    digits += 1;
  }
  if (digits === 0) return false;
  while (index >= start && isPythonWhitespace(text.charAt(index))) {
    if (text.charAt(index) === "\n") return true;
    index -= 1;
  }
  return index < start;
}
