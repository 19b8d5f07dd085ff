import { describe, expect, test } from "vitest";
import { documentMatchesFilter } from "../src/index.js";
import {
  conformanceDocuments,
  describeDocumentStore,
  filterCases,
  invalidFilterCases,
} from "../src/testing/index.js";
import { ArrayDocumentStore } from "./support/array-document-store.js";

describeDocumentStore("ArrayDocumentStore (test-only)", () => new ArrayDocumentStore());

describe("the conformance fixtures", () => {
  test("every hand-checked expectation agrees with documentMatchesFilter", () => {
    const documents = conformanceDocuments();
    for (const item of filterCases) {
      const ids = documents
        .filter((document) => documentMatchesFilter(item.filter, document))
        .map((d) => d.id);
      expect(ids.sort(), item.key).toEqual([...item.expected].sort());
    }
  });

  test("most filter cases match some but not all documents, and the error cases are many", () => {
    const informative = filterCases.filter((item) => item.expected.length > 0 && item.expected.length < 11);
    expect(informative.length).toBeGreaterThan(filterCases.length * 0.8);
    expect(invalidFilterCases.length).toBeGreaterThanOrEqual(15);
  });
});
