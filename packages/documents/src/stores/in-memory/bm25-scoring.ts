import type { Bm25Index } from "./bm25-index.js";
import type { Bm25Algorithm, Bm25Parameters } from "./in-memory-options.js";
import { TopKHeap } from "./top-k-heap.js";

/**
 * BM25 scoring over the inverted index, with Haystack's formulas evaluated in Haystack's order of
 * operations, so the scores are equal to Haystack's (to the last bits of `Math.log`):
 *
 * - BM25L: idf = ln((N+1)/(n+0.5))·[n>0]; c = tf/(1−b+b·dl/avgdl); term = (k+1)(c+δ)/(k+c+δ)
 * - BM25Okapi: idf = ln((N−n+0.5)/(n+0.5)), a negative idf replaced by ε·(mean idf over the whole
 *   vocabulary); term = tf(k+1)/(tf+k(1−b+b·dl/avgdl))
 * - BM25Plus: idf = ln(1+(N−n+0.5)/(n+0.5))·[n>0]; term = tf(k+1)/(tf+k(1−b+b·dl/avgdl)) + δ
 *
 * Query tokens are de-duplicated (first occurrence order) and a document's score is the sum over them
 * in that order. BM25L and BM25Plus give a term a document lacks a constant (idf·f(0)); those are added
 * in their place in the sum, so only documents in a query term's postings are touched at all.
 */

/** What a BM25 query needs besides the index. */
export interface Bm25Query {
  readonly tokens: readonly string[];
  readonly algorithm: Bm25Algorithm;
  readonly parameters: Bm25Parameters;
  readonly topK: number;
  /** Insertion order of a slot (ties rank the earlier document first). */
  readonly orderOf: Float64Array;
  /** Whether the document in a slot may be returned (filters); asked only for candidates that rank. */
  readonly accept: ((slot: number) => boolean) | undefined;
}

/** Reusable per-store scratch space, sized to the slot capacity. */
export class Bm25Scratch {
  scores = new Float64Array(0);
  nextTerm = new Int32Array(0);
  stamp = new Uint32Array(0);
  touched = new Int32Array(0);
  currentStamp = 0;

  /** Makes room for `slots` slots. */
  ensure(slots: number): void {
    if (this.scores.length >= slots) return;
    const size = Math.max(slots, this.scores.length * 2, 64);
    this.scores = new Float64Array(size);
    this.nextTerm = new Int32Array(size);
    this.stamp = new Uint32Array(size);
    this.touched = new Int32Array(size);
    this.currentStamp = 0;
  }
}

/** The sum of the Okapi idf over the whole vocabulary, cached per index version. */
const okapiSumCache = new WeakMap<Bm25Index, { version: number; sum: number }>();

/** Okapi's floor for negative idf: ε · Σ idf / |V| (in Haystack's order of operations). */
function okapiFloor(index: Bm25Index, epsilon: number): number {
  let cached = okapiSumCache.get(index);
  if (cached === undefined || cached.version !== index.version) {
    cached = { version: index.version, sum: okapiIdfSum(index) };
    okapiSumCache.set(index, cached);
  }
  return (epsilon * cached.sum) / index.vocabularySize;
}

function okapiIdfSum(index: Bm25Index): number {
  const n = index.documentCount;
  const frequencies = index.documentFrequencies;
  let sum = 0;
  for (let id = 0; id < index.termIdCount; id++) {
    const df = frequencies[id]!;
    if (df > 0) sum += Math.log((n - df + 0.5) / (df + 0.5));
  }
  return sum;
}

/** The de-duplicated query terms present in the vocabulary, with their idf and "absent" contribution. */
function queryTerms(index: Bm25Index, query: Bm25Query) {
  const { algorithm, parameters } = query;
  const k = parameters.k1 ?? 1.5;
  const delta = parameters.delta ?? (algorithm === "BM25Plus" ? 1.0 : 0.5);
  const n = index.documentCount;
  const ids: number[] = [];
  const idfs: number[] = [];
  const absent: number[] = [];
  const seen = new Set<string>();
  let floor: number | undefined;
  for (const token of query.tokens) {
    if (seen.has(token)) continue;
    seen.add(token);
    const id = index.termId(token);
    const df = id < 0 ? 0 : index.documentFrequencies[id]!;
    if (df === 0) continue; // idf 0 (L, Plus: ·[n>0]; Okapi: not in the vocabulary): adds 0
    let idf: number;
    if (algorithm === "BM25L") idf = Math.log((n + 1.0) / (df + 0.5));
    else if (algorithm === "BM25Plus") idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    else {
      idf = Math.log((n - df + 0.5) / (df + 0.5));
      if (idf < 0) {
        floor ??= okapiFloor(index, parameters.epsilon ?? 0.25);
        idf = floor;
      }
    }
    ids.push(id);
    idfs.push(idf);
    // A term the document lacks: BM25L (k+1)(0+δ)/(k+0+δ), BM25Plus 0 + δ, Okapi 0.
    absent.push(
      algorithm === "BM25L"
        ? ((1.0 + k) * (0 + delta)) / (k + 0 + delta)
        : algorithm === "BM25Plus"
          ? delta
          : 0,
    );
  }
  return { ids, idfs, absent, k, delta };
}

/**
 * Scores the documents that share at least one token with the query and returns the best `topK`
 * (slots and raw scores, best first; ties by insertion order).
 */
export function bm25TopK(
  index: Bm25Index,
  scratch: Bm25Scratch,
  query: Bm25Query,
): { slots: number[]; scores: number[] } {
  const { ids, idfs, absent, k } = queryTerms(index, query);
  const heap = new TopKHeap(query.topK, index.documentLengths.length);
  if (ids.length === 0 || query.topK <= 0) return heap.drain();
  const b = query.parameters.b ?? 0.75;
  const delta = query.parameters.delta ?? (query.algorithm === "BM25Plus" ? 1.0 : 0.5);
  const avg = index.averageLength;
  const lengths = index.documentLengths;
  const dead = index.deadSlots;
  scratch.ensure(lengths.length);
  const { scores, nextTerm, stamp, touched } = scratch;
  if (++scratch.currentStamp === 0xffffffff) {
    stamp.fill(0);
    scratch.currentStamp = 1;
  }
  const current = scratch.currentStamp;
  const fillAbsent = query.algorithm !== "BM25Okapi";
  const mode = query.algorithm === "BM25L" ? 0 : query.algorithm === "BM25Plus" ? 1 : 2;
  let touchedCount = 0;
  for (let j = 0; j < ids.length; j++) {
    const list = index.postings(ids[j]!);
    const idf = idfs[j]!;
    const data = list.data;
    for (let p = 0; p < list.length; p++) {
      const slot = data[2 * p]!;
      if (dead[slot] === 1) continue;
      let score: number;
      if (stamp[slot] !== current) {
        stamp[slot] = current;
        touched[touchedCount++] = slot;
        score = 0.0;
        nextTerm[slot] = 0;
      } else score = scores[slot]!;
      if (fillAbsent) for (let m = nextTerm[slot]!; m < j; m++) score += idfs[m]! * absent[m]!;
      const tf = data[2 * p + 1]!;
      const norm = 1 - b + (b * lengths[slot]!) / avg;
      let term: number;
      if (mode === 0) {
        const ctd = tf / norm;
        term = ((1.0 + k) * (ctd + delta)) / (k + ctd + delta);
      } else if (mode === 1) {
        term = (tf * (1.0 + k)) / (tf + k * norm) + delta;
      } else {
        term = (tf * (1.0 + k)) / (tf + k * norm);
      }
      scores[slot] = score + idf * term;
      nextTerm[slot] = j + 1;
    }
  }
  const accept = query.accept;
  const orders = query.orderOf;
  const last = ids.length;
  for (let t = 0; t < touchedCount; t++) {
    const slot = touched[t]!;
    let score = scores[slot]!;
    if (fillAbsent) for (let m = nextTerm[slot]!; m < last; m++) score += idfs[m]! * absent[m]!;
    const order = orders[slot]!;
    if (!heap.admits(score, order)) continue;
    if (accept !== undefined && !accept(slot)) continue;
    heap.push(score, order, slot);
  }
  return heap.drain();
}
