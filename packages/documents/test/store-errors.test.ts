import { JunctionError } from "@junction/core";
import { expect, test } from "vitest";
import { DuplicateDocumentError } from "../src/index.js";

test("DuplicateDocumentError carries every id and lists them in its message", () => {
  const error = new DuplicateDocumentError(["a", "b"]);
  expect(JunctionError.isInstance(error)).toBe(true);
  expect(error.code).toBe("DUPLICATE_DOCUMENT");
  expect(error.name).toBe("DuplicateDocumentError");
  expect(error.ids).toEqual(["a", "b"]);
  expect(error.message).toContain('2 documents with ids "a", "b" already stored; nothing was written');
  const many = new DuplicateDocumentError(Array.from({ length: 25 }, (_, index) => `id${index}`));
  expect(many.ids).toHaveLength(25);
  expect(many.message).toContain("and 5 more");
  expect(new DuplicateDocumentError(["x"], { message: "Store: x exists." }).message).toBe("Store: x exists.");
});
