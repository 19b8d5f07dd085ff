/**
 * The inverted index behind BM25 retrieval: one postings list per term (document slots and term
 * frequencies in typed arrays), document frequencies, document lengths and the average length, all kept
 * up to date on every write and delete so a query reads only the postings of its terms.
 *
 * Statistics follow Haystack's in-memory store exactly: `N` counts every stored document (with or
 * without content), the average length is updated incrementally with Haystack's formulas (so it carries
 * the same rounding), and a term's document frequency counts the documents that hold it.
 */

/**
 * One term's postings: `[slot, tf, slot, tf, ...]` interleaved in one typed array (one allocation per
 * term, and a posting's two numbers side by side in memory), `length` postings used.
 */
interface Postings {
  data: Int32Array;
  length: number;
}

function grow(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(size, array.length * 2, 4));
  next.set(array);
  return next;
}

/** The BM25 inverted index of one store. Slots are the store's document slots. */
export class Bm25Index {
  /** Term → term id. */
  readonly #termIds = new Map<string, number>();
  /** Term id → term (for the Okapi vocabulary scan). */
  readonly #terms: string[] = [];
  readonly #postings: Postings[] = [];
  /** Term id → number of live documents holding the term. */
  #documentFrequency = new Int32Array(64);
  /** Slot → number of tokens. */
  #documentLength = new Int32Array(64);
  /** Slot → 1 when the slot's postings are stale (its document was deleted). */
  #dead = new Uint8Array(64);
  #deadPostings = 0;
  /** Term id → count while a document is being added (zero otherwise). */
  #tfScratch = new Int32Array(64);
  #livePostings = 0;
  #vocabularySize = 0;
  #documentCount = 0;
  #averageLength = 0;
  /** Bumped on every change; caches keyed on it (the Okapi mean idf) know when to recompute. */
  #version = 0;

  /** The tokenizer (lowercasing + pattern). */
  readonly tokenize: (text: string) => string[];

  /** @param tokenize - the store's tokenizer */
  constructor(tokenize: (text: string) => string[]) {
    this.tokenize = tokenize;
  }

  /** Every stored document (Haystack's `len(_bm25_attr)`). */
  get documentCount(): number {
    return this.#documentCount;
  }

  /** Haystack's incrementally maintained average document length. */
  get averageLength(): number {
    return this.#averageLength;
  }

  /** How many terms at least one stored document holds. */
  get vocabularySize(): number {
    return this.#vocabularySize;
  }

  /** Changes on every write and delete. */
  get version(): number {
    return this.#version;
  }

  /** The term id of `term`, or -1 when no document ever held it. */
  termId(term: string): number {
    return this.#termIds.get(term) ?? -1;
  }

  /** Document frequency by term id. */
  get documentFrequencies(): Int32Array {
    return this.#documentFrequency;
  }

  /** Token counts by slot. */
  get documentLengths(): Int32Array {
    return this.#documentLength;
  }

  /** 1 for slots whose postings are stale. */
  get deadSlots(): Uint8Array {
    return this.#dead;
  }

  /** The postings of a term id. */
  postings(termId: number): Readonly<Postings> {
    return this.#postings[termId]!;
  }

  /** Number of term ids ever assigned (including terms no live document holds any more). */
  get termIdCount(): number {
    return this.#terms.length;
  }

  #ensureSlot(slot: number): void {
    if (slot < this.#documentLength.length) return;
    const size = Math.max(slot + 1, this.#documentLength.length * 2);
    this.#documentLength = grow(this.#documentLength, size);
    const dead = new Uint8Array(size);
    dead.set(this.#dead);
    this.#dead = dead;
  }

  #internTerm(term: string): number {
    let id = this.#termIds.get(term);
    if (id === undefined) {
      id = this.#terms.length;
      this.#termIds.set(term, id);
      this.#terms.push(term);
      this.#postings.push({ data: new Int32Array(2), length: 0 });
      if (id >= this.#documentFrequency.length) {
        this.#documentFrequency = grow(this.#documentFrequency, id + 1);
      }
    }
    return id;
  }

  /**
   * Indexes a document in `slot` (content `undefined` counts as a document of no tokens, as in
   * Haystack).
   */
  add(slot: number, content: string | undefined): void {
    this.#ensureSlot(slot);
    const tokens = content === undefined ? [] : this.tokenize(content);
    // Term frequencies in a scratch array indexed by term id (no per-document map); `unique` lists the
    // document's terms in first-occurrence order.
    const unique: number[] = [];
    for (const token of tokens) {
      const id = this.#internTerm(token);
      if (id >= this.#tfScratch.length) this.#tfScratch = grow(this.#tfScratch, id + 1);
      if (this.#tfScratch[id] === 0) unique.push(id);
      this.#tfScratch[id]!++;
    }
    for (const id of unique) {
      const tf = this.#tfScratch[id]!;
      this.#tfScratch[id] = 0;
      const list = this.#postings[id]!;
      const at = 2 * list.length;
      if (at === list.data.length) list.data = grow(list.data, at + 2);
      list.data[at] = slot;
      list.data[at + 1] = tf;
      list.length++;
      if (this.#documentFrequency[id] === 0) this.#vocabularySize++;
      this.#documentFrequency[id]!++;
    }
    this.#livePostings += unique.length;
    this.#dead[slot] = 0;
    this.#documentLength[slot] = tokens.length;
    this.#documentCount++;
    const n = this.#documentCount;
    this.#averageLength = (tokens.length + this.#averageLength * (n - 1)) / n;
    this.#version++;
  }

  /**
   * Removes the document in `slot` (whose content was `content`). Its postings stay, marked stale, until
   * {@link Bm25Index.purge}; the slot must not be reused before then.
   */
  remove(slot: number, content: string | undefined): void {
    const tokens = content === undefined ? [] : this.tokenize(content);
    const seen = new Set<number>();
    for (const token of tokens) {
      const id = this.#termIds.get(token);
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      this.#documentFrequency[id]!--;
      if (this.#documentFrequency[id] === 0) this.#vocabularySize--;
    }
    this.#dead[slot] = 1;
    this.#deadPostings += seen.size;
    this.#livePostings -= seen.size;
    const length = this.#documentLength[slot]!;
    this.#documentCount--;
    const n = this.#documentCount;
    // Haystack: (avg · (n + 1) − len) / n, and 0 when the store becomes empty.
    this.#averageLength = n === 0 ? 0 : (this.#averageLength * (n + 1) - length) / n;
    this.#version++;
  }

  /** True when stale postings make up enough of the index that {@link Bm25Index.purge} pays off. */
  get needsPurge(): boolean {
    return this.#deadPostings > 0 && this.#deadPostings >= Math.max(4096, this.#livePostings / 4);
  }

  /** Drops every stale posting; afterwards the deleted slots may be reused. */
  purge(): void {
    const dead = this.#dead;
    for (const list of this.#postings) {
      let kept = 0;
      for (let index = 0; index < list.length; index++) {
        const slot = list.data[2 * index]!;
        if (dead[slot] === 1) continue;
        list.data[2 * kept] = slot;
        list.data[2 * kept + 1] = list.data[2 * index + 1]!;
        kept++;
      }
      list.length = kept;
    }
    dead.fill(0);
    this.#deadPostings = 0;
  }

  /** Forgets everything. */
  clear(): void {
    this.#termIds.clear();
    this.#terms.length = 0;
    this.#postings.length = 0;
    this.#documentFrequency = new Int32Array(64);
    this.#documentLength = new Int32Array(64);
    this.#dead = new Uint8Array(64);
    this.#tfScratch = new Int32Array(64);
    this.#deadPostings = 0;
    this.#livePostings = 0;
    this.#vocabularySize = 0;
    this.#documentCount = 0;
    this.#averageLength = 0;
    this.#version++;
  }
}
