/**
 * A bounded min-heap of (score, order, slot) keeping the `k` best entries: the highest scores, and for
 * equal scores the lowest `order` (the earlier-written document, as Haystack's stable sort keeps). The
 * root is the worst kept entry, so a candidate that cannot enter is rejected with one comparison.
 */
export class TopKHeap {
  readonly #scores: Float64Array;
  readonly #orders: Float64Array;
  readonly #slots: Int32Array;
  #size = 0;
  readonly capacity: number;

  /**
   * @param k - the most entries kept (a caller's `top_k`, possibly huge or negative)
   * @param candidates - how many entries can be offered at most (the stored documents): the arrays are
   *   sized by the smaller of the two, so a `top_k` of 1e15 does not size them
   */
  constructor(k: number, candidates: number) {
    const capacity = Math.max(0, Math.min(k, candidates));
    this.capacity = capacity;
    this.#scores = new Float64Array(capacity);
    this.#orders = new Float64Array(capacity);
    this.#slots = new Int32Array(capacity);
  }

  /** How many entries are kept. */
  get size(): number {
    return this.#size;
  }

  /** True when `a` ranks below `b` (lower score, or equal score and later order). */
  #worse(aScore: number, aOrder: number, bScore: number, bOrder: number): boolean {
    return aScore < bScore || (aScore === bScore && aOrder > bOrder);
  }

  /** True when an entry with this score and order would be kept (check before costly work such as filters). */
  admits(score: number, order: number): boolean {
    if (this.#size < this.capacity) return this.capacity > 0;
    return this.#worse(this.#scores[0]!, this.#orders[0]!, score, order);
  }

  /** Adds an entry the heap {@link TopKHeap.admits}, evicting the worst when full. */
  push(score: number, order: number, slot: number): void {
    if (this.#size < this.capacity) {
      let index = this.#size++;
      while (index > 0) {
        const parent = (index - 1) >> 1;
        if (!this.#worse(score, order, this.#scores[parent]!, this.#orders[parent]!)) break;
        this.#set(index, this.#scores[parent]!, this.#orders[parent]!, this.#slots[parent]!);
        index = parent;
      }
      this.#set(index, score, order, slot);
      return;
    }
    this.#siftDown(0, score, order, slot);
  }

  #set(index: number, score: number, order: number, slot: number): void {
    this.#scores[index] = score;
    this.#orders[index] = order;
    this.#slots[index] = slot;
  }

  #siftDown(start: number, score: number, order: number, slot: number): void {
    let index = start;
    const size = this.#size;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      if (
        right < size &&
        this.#worse(this.#scores[right]!, this.#orders[right]!, this.#scores[left]!, this.#orders[left]!)
      ) {
        child = right;
      }
      if (!this.#worse(this.#scores[child]!, this.#orders[child]!, score, order)) break;
      this.#set(index, this.#scores[child]!, this.#orders[child]!, this.#slots[child]!);
      index = child;
    }
    this.#set(index, score, order, slot);
  }

  /** The kept entries, best first; empties the heap. */
  drain(): { slots: number[]; scores: number[] } {
    const count = this.#size;
    const slots = new Array<number>(count);
    const scores = new Array<number>(count);
    for (let position = count - 1; position >= 0; position--) {
      slots[position] = this.#slots[0]!;
      scores[position] = this.#scores[0]!;
      const last = --this.#size;
      if (last > 0) this.#siftDown(0, this.#scores[last]!, this.#orders[last]!, this.#slots[last]!);
    }
    return { slots, scores };
  }
}
