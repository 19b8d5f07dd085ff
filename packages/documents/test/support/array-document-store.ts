import {
  compileFilter,
  type Document,
  type DocumentStore,
  DuplicateDocumentError,
  type Filter,
  type WriteDocumentsOptions,
} from "../../src/index.js";

/**
 * The smallest correct DocumentStore: an array scanned with compileFilter. The conformance suite runs
 * on it to show the suite's expectations are consistent with the reference semantics.
 */
export class ArrayDocumentStore implements DocumentStore {
  #documents: Document[] = [];

  async countDocuments(): Promise<number> {
    return this.#documents.length;
  }

  async filterDocuments(filters?: Filter): Promise<Document[]> {
    if (filters === undefined || Object.keys(filters).length === 0) return [...this.#documents];
    return this.#documents.filter(compileFilter(filters));
  }

  async writeDocuments(documents: readonly Document[], options: WriteDocumentsOptions = {}): Promise<number> {
    const policy = options.policy ?? "none";
    const stored = new Set(this.#documents.map((document) => document.id));
    if (policy === "fail" || policy === "none") {
      const seen = new Set<string>();
      const duplicates = documents.filter((document) => {
        const duplicate = stored.has(document.id) || seen.has(document.id);
        seen.add(document.id);
        return duplicate;
      });
      if (duplicates.length > 0) throw new DuplicateDocumentError(duplicates.map((document) => document.id));
    }
    let written = 0;
    for (const document of documents) {
      const index = this.#documents.findIndex((item) => item.id === document.id);
      if (index === -1) this.#documents.push(document);
      else if (policy === "skip") continue;
      else this.#documents[index] = document;
      written++;
    }
    return written;
  }

  async deleteDocuments(ids: readonly string[]): Promise<void> {
    const gone = new Set(ids);
    this.#documents = this.#documents.filter((document) => !gone.has(document.id));
  }

  async deleteAllDocuments(): Promise<void> {
    this.#documents = [];
  }
}
