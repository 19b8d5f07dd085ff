import * as api from "@junction/converters";
import { expect, test } from "vitest";

test("@junction/converters exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "CSVToDocument",
    "ConversionError",
    "FetchError",
    "HTMLToDocument",
    "JSONConverter",
    "LinkContentFetcher",
    "MarkdownToDocument",
    "PDFToDocument",
    "TextFileToDocument",
    "defaultUserAgent",
    "systemResolveHost",
  ]);
});
