import { DeserializationError, SerializationError } from "@junction/core";
import { describe, expect, it } from "vitest";
import {
  type Document,
  type DocumentStore,
  type DocumentStoreJSON,
  documentStoreFromJSON,
  documentStoreToJSON,
  documentStoreTypes,
  registerDocumentStoreType,
} from "../src/index.js";

/** A minimal store with a configuration, registered under a test type. */
class NotesStore implements DocumentStore {
  readonly label: string;
  constructor(init: { label?: unknown } = {}) {
    if (init.label !== undefined && typeof init.label !== "string")
      throw new TypeError("label must be a string.");
    this.label = init.label ?? "notes";
  }
  async countDocuments() {
    return 0;
  }
  async filterDocuments(): Promise<Document[]> {
    return [];
  }
  async writeDocuments() {
    return 0;
  }
  async deleteDocuments() {}
  async deleteAllDocuments() {}
  toJSON(): DocumentStoreJSON {
    return { type: "test.NotesStore", init_parameters: { label: this.label } };
  }
}

const fromNotes = (init: Record<string, unknown>) => new NotesStore(init);
registerDocumentStoreType({ type: "test.NotesStore", fromJSON: fromNotes });

describe("document store serialization", () => {
  it("writes { type, init_parameters } and reads the same store back", () => {
    const json = documentStoreToJSON(new NotesStore({ label: "faq" }));
    expect(json).toEqual({ type: "test.NotesStore", init_parameters: { label: "faq" } });
    const store = documentStoreFromJSON(json);
    expect(store).toBeInstanceOf(NotesStore);
    expect((store as NotesStore).label).toBe("faq");
  });

  it("refuses a store without toJSON, naming its class and the fix", () => {
    class PlainStore extends NotesStore {}
    const plain = new PlainStore();
    Object.defineProperty(plain, "toJSON", { value: undefined });
    expect(() => documentStoreToJSON(plain)).toThrowError(SerializationError);
    expect(() => documentStoreToJSON(plain)).toThrowError(
      /PlainStore has no toJSON\(\).*registerDocumentStoreType/,
    );
  });

  it("refuses to write a store whose type is not registered (it could not be loaded back)", () => {
    const store = new NotesStore();
    store.toJSON = () => ({ type: "test.Unregistered", init_parameters: {} });
    expect(() => documentStoreToJSON(store)).toThrowError(/"test\.Unregistered" is not registered/);
  });

  it("names an unknown type, the registered types and the closest one", () => {
    let error: unknown;
    try {
      documentStoreFromJSON({ type: "test.NoteStore", init_parameters: {} });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeserializationError);
    const message = (error as Error).message;
    expect(message).toContain('unknown document store type "test.NoteStore"');
    expect(message).toContain('Did you mean "test.NotesStore"?');
    expect(message).toContain('"test.NotesStore"');
  });

  it("suggests the Junction type for a Haystack module path", () => {
    expect(() =>
      documentStoreFromJSON({
        type: "haystack.document_stores.in_memory.document_store.NotesStore",
        init_parameters: {},
      }),
    ).toThrowError(/Did you mean "test\.NotesStore"\?/);
  });

  it("reports a store that refuses its init_parameters, with the type", () => {
    expect(() =>
      documentStoreFromJSON({ type: "test.NotesStore", init_parameters: { label: 3 } }),
    ).toThrowError(/cannot create the "test\.NotesStore" store: label must be a string/);
  });

  it("refuses prototype-polluting input and non-objects", () => {
    expect(() => documentStoreFromJSON(JSON.parse('{"type":"test.NotesStore","__proto__":{}}'))).toThrowError(
      DeserializationError,
    );
    expect(() => documentStoreFromJSON("test.NotesStore")).toThrowError(/must be an object/);
  });

  it("refuses registering a type twice with another fromJSON, and accepts the same one", () => {
    expect(() => registerDocumentStoreType({ type: "test.NotesStore", fromJSON: fromNotes })).not.toThrow();
    expect(() =>
      registerDocumentStoreType({ type: "test.NotesStore", fromJSON: () => new NotesStore() }),
    ).toThrowError(/already registered/);
    expect(documentStoreTypes()).toContain("test.NotesStore");
  });
});
