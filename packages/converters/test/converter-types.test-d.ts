import { CSVToDocument, LinkContentFetcher, PDFToDocument, TextFileToDocument } from "@junction/converters";
import type { ByteStream, Document } from "@junction/documents";
import { expectTypeOf, test } from "vitest";

test("converters take paths or ByteStreams and resolve to Documents", async () => {
  const converter = new TextFileToDocument();
  const result = await converter.run({ sources: ["a.txt"], meta: { lang: "en" } });
  expectTypeOf(result.documents).toEqualTypeOf<Document[] | undefined>();
  // @ts-expect-error sources are strings or ByteStreams
  await converter.run({ sources: [42] });
  // @ts-expect-error a CSV converter's content_column is a string
  await new CSVToDocument().run({ sources: [], content_column: 1 });
  // @ts-expect-error maxPages is a number
  new PDFToDocument({ maxPages: "10" });
});

test("LinkContentFetcher resolves to ByteStreams", async () => {
  const { streams } = await new LinkContentFetcher().run({ urls: ["https://example.com"] });
  expectTypeOf(streams).toEqualTypeOf<ByteStream[] | undefined>();
});
