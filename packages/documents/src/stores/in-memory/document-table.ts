import type { Document } from "../../document/document.js";

/**
 * The documents of an in-memory store, each in an integer slot the indexes refer to, with its insertion
 * order (Haystack's dict order: an overwritten document moves to the end). A deleted slot is reused only
 * after the BM25 index dropped its stale postings ({@link DocumentTable.releasePendingSlots}).
 */
export class DocumentTable {
  /** Id → slot, in insertion order. */
  readonly #slots = new Map<string, number>();
  readonly #documents: (Document | undefined)[] = [];
  #orders = new Float64Array(64);
  #nextOrder = 0;
  readonly #free: number[] = [];
  readonly #pending: number[] = [];

  /** How many documents are stored. */
  get size(): number {
    return this.#slots.size;
  }

  /** Insertion order by slot (smaller = written earlier). */
  get orders(): Float64Array {
    return this.#orders;
  }

  /** Deleted slots not yet reusable. */
  get pendingSlots(): number {
    return this.#pending.length;
  }

  /** The slot of the document with this id. */
  slotOf(id: string): number | undefined {
    return this.#slots.get(id);
  }

  /** The document in a slot (the slot must be occupied). */
  documentAt(slot: number): Document {
    return this.#documents[slot]!;
  }

  /** The documents in insertion order. */
  *documentsInOrder(): IterableIterator<Document> {
    for (const slot of this.#slots.values()) yield this.#documents[slot]!;
  }

  /** Stores a document (its id must be free) and returns its slot. */
  insert(document: Document): number {
    const slot = this.#free.pop() ?? this.#documents.length;
    if (slot === this.#documents.length) this.#documents.push(document);
    else this.#documents[slot] = document;
    if (slot >= this.#orders.length) {
      const orders = new Float64Array(Math.max(slot + 1, this.#orders.length * 2));
      orders.set(this.#orders);
      this.#orders = orders;
    }
    this.#orders[slot] = this.#nextOrder++;
    this.#slots.set(document.id, slot);
    return slot;
  }

  /** Empties a slot and returns the document it held. */
  remove(slot: number): Document {
    const document = this.#documents[slot]!;
    this.#slots.delete(document.id);
    this.#documents[slot] = undefined;
    this.#pending.push(slot);
    return document;
  }

  /** Makes the deleted slots reusable (after the BM25 index purged their postings). */
  releasePendingSlots(): void {
    for (const slot of this.#pending) this.#free.push(slot);
    this.#pending.length = 0;
  }

  /** Forgets every document. */
  clear(): void {
    this.#slots.clear();
    this.#documents.length = 0;
    this.#orders = new Float64Array(64);
    this.#nextOrder = 0;
    this.#free.length = 0;
    this.#pending.length = 0;
  }
}
