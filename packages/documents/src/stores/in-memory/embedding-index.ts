import type { EmbeddingSimilarityFunction } from "./in-memory-options.js";
import { TopKHeap } from "./top-k-heap.js";

/**
 * Dense embeddings in one contiguous `Float32Array` (a row per embedded document), so exact top-k is a
 * single pass of multiply-adds over memory. For cosine similarity rows are stored normalized (a zero
 * vector stays zero, as Haystack guards zero norms), so cosine is a dot product with the normalized
 * query. Deleting moves the last row into the hole, keeping rows dense.
 */
export class EmbeddingIndex {
  #data = new Float32Array(0);
  /** Row → slot. */
  #rowSlot = new Int32Array(0);
  /** Slot → row, or -1. */
  #slotRow = new Int32Array(0);
  #rows = 0;
  #dimension: number | undefined;
  readonly #similarity: EmbeddingSimilarityFunction;

  /** @param similarity - how vectors are compared */
  constructor(similarity: EmbeddingSimilarityFunction) {
    this.#similarity = similarity;
  }

  /** The dimension every stored embedding has, or `undefined` when none is stored. */
  get dimension(): number | undefined {
    return this.#dimension;
  }

  /** How many documents have an embedding. */
  get size(): number {
    return this.#rows;
  }

  #ensureSlot(slot: number): void {
    if (slot < this.#slotRow.length) return;
    const next = new Int32Array(Math.max(slot + 1, this.#slotRow.length * 2, 64)).fill(-1);
    next.set(this.#slotRow);
    this.#slotRow = next;
  }

  #ensureRows(rows: number, dimension: number): void {
    if (rows <= this.#rowSlot.length) return;
    const capacity = Math.max(rows, this.#rowSlot.length * 2, 16);
    const data = new Float32Array(capacity * dimension);
    data.set(this.#data.subarray(0, this.#rows * dimension));
    this.#data = data;
    const rowSlot = new Int32Array(capacity);
    rowSlot.set(this.#rowSlot.subarray(0, this.#rows));
    this.#rowSlot = rowSlot;
  }

  /** Stores the embedding of the document in `slot`; the caller checked the dimension. */
  add(slot: number, embedding: readonly number[]): void {
    const dimension = embedding.length;
    this.#dimension ??= dimension;
    this.#ensureSlot(slot);
    this.#ensureRows(this.#rows + 1, dimension);
    const row = this.#rows++;
    const base = row * dimension;
    let scale = 1;
    if (this.#similarity === "cosine") {
      let squares = 0;
      for (let i = 0; i < dimension; i++) squares += embedding[i]! * embedding[i]!;
      const norm = Math.sqrt(squares);
      scale = norm === 0 ? 1 : 1 / norm;
    }
    for (let i = 0; i < dimension; i++) this.#data[base + i] = embedding[i]! * scale;
    this.#rowSlot[row] = slot;
    this.#slotRow[slot] = row;
  }

  /** Removes the embedding of the document in `slot`, if it has one. */
  remove(slot: number): void {
    const row = slot < this.#slotRow.length ? this.#slotRow[slot]! : -1;
    if (row < 0) return;
    const last = --this.#rows;
    const dimension = this.#dimension!;
    if (row !== last) {
      this.#data.copyWithin(row * dimension, last * dimension, (last + 1) * dimension);
      const moved = this.#rowSlot[last]!;
      this.#rowSlot[row] = moved;
      this.#slotRow[moved] = row;
    }
    this.#slotRow[slot] = -1;
    if (this.#rows === 0) this.#dimension = undefined;
  }

  /** Forgets everything. */
  clear(): void {
    this.#data = new Float32Array(0);
    this.#rowSlot = new Int32Array(0);
    this.#slotRow = new Int32Array(0);
    this.#rows = 0;
    this.#dimension = undefined;
  }

  /**
   * The `topK` best rows for `query` (slots and raw similarities, best first; ties by insertion order).
   * The query's dimension must equal {@link EmbeddingIndex.dimension}.
   */
  search(
    query: readonly number[],
    topK: number,
    orderOf: Float64Array,
    accept: ((slot: number) => boolean) | undefined,
  ): { slots: number[]; scores: number[] } {
    const heap = new TopKHeap(topK, this.#rows);
    const dimension = this.#dimension;
    if (dimension === undefined || topK <= 0) return heap.drain();
    const q = Float64Array.from(query);
    if (this.#similarity === "cosine") {
      let squares = 0;
      for (let i = 0; i < dimension; i++) squares += q[i]! * q[i]!;
      const norm = Math.sqrt(squares);
      if (norm !== 0) for (let i = 0; i < dimension; i++) q[i] = q[i]! / norm;
    }
    const data = this.#data;
    const rowSlot = this.#rowSlot;
    const rows = this.#rows;
    const tail = dimension & ~3;
    for (let row = 0, base = 0; row < rows; row++, base += dimension) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i < tail; i += 4) {
        s0 += data[base + i]! * q[i]!;
        s1 += data[base + i + 1]! * q[i + 1]!;
        s2 += data[base + i + 2]! * q[i + 2]!;
        s3 += data[base + i + 3]! * q[i + 3]!;
      }
      for (; i < dimension; i++) s0 += data[base + i]! * q[i]!;
      const score = s0 + s1 + (s2 + s3);
      const slot = rowSlot[row]!;
      const order = orderOf[slot]!;
      if (!heap.admits(score, order)) continue;
      if (accept !== undefined && !accept(slot)) continue;
      heap.push(score, order, slot);
    }
    return heap.drain();
  }
}
