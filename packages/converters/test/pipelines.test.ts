import {
  CSVToDocument,
  HTMLToDocument,
  JSONConverter,
  LinkContentFetcher,
  MarkdownToDocument,
  PDFToDocument,
  type ResolveHost,
  TextFileToDocument,
} from "@junction/converters";
import { createRegistry, defaultRegistry, MemoryLogger, Pipeline } from "@junction/core";
import { ByteStream, type Document, DocumentSplitter } from "@junction/documents";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type LocalServer, startServer } from "./support/local-server.js";
import { buildPdf } from "./support/minimal-pdf.js";

let server: LocalServer;

beforeAll(async () => {
  server = await startServer({
    "/article": (response) =>
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          "<html><head><title>Guide</title></head><body><nav>Menu</nav><main><p>One two three four five.</p></main></body></html>",
        ),
  });
});

afterAll(() => server.close());

describe("serialization", () => {
  test("every converter and the fetcher are registered under junction.* names", () => {
    const classes = {
      "junction.CSVToDocument": CSVToDocument,
      "junction.HTMLToDocument": HTMLToDocument,
      "junction.JSONConverter": JSONConverter,
      "junction.LinkContentFetcher": LinkContentFetcher,
      "junction.MarkdownToDocument": MarkdownToDocument,
      "junction.PDFToDocument": PDFToDocument,
      "junction.TextFileToDocument": TextFileToDocument,
    };
    for (const [type, componentClass] of Object.entries(classes)) {
      expect(defaultRegistry.getComponentClass(type)).toBe(componentClass);
    }
  });

  const pipeline = () =>
    new Pipeline({ logger: new MemoryLogger() })
      .addComponent("text", new TextFileToDocument({ encoding: "latin1", storeFullPath: true }))
      .addComponent("markdown", new MarkdownToDocument({ maxFileBytes: 1000 }))
      .addComponent(
        "html",
        new HTMLToDocument({ keepLinks: true, maxHtmlBytes: 5000, baseDirectory: "/srv/pages" }),
      )
      .addComponent("pdf", new PDFToDocument({ maxPages: 10, raiseOnFailure: true }))
      .addComponent("csv", new CSVToDocument({ conversionMode: "row", delimiter: ";" }))
      .addComponent(
        "json",
        new JSONConverter({ jqSchema: ".items[]", contentKey: "text", extraMetaFields: "*" }),
      )
      .addComponent(
        "fetch",
        new LinkContentFetcher({
          timeout: 5000,
          maxBytes: 1000,
          allowedAddressRanges: ["10.1.0.0/16"],
          userAgents: ["a"],
        }),
      )
      .connect("fetch.streams", "html.sources");

  test("a pipeline of converters survives toJSON → JSON text → fromJSON, and toJSON(fromJSON(doc)) equals doc", () => {
    const document = JSON.parse(JSON.stringify(pipeline().toJSON()));
    expect(document.components.html.init_parameters).toMatchObject({ keepLinks: true, maxHtmlBytes: 5000 });
    expect(document.components.json.init_parameters).toMatchObject({
      jqSchema: ".items[]",
      extraMetaFields: "*",
    });
    expect(document.components.fetch.init_parameters).toMatchObject({
      allowPrivateAddresses: false,
      timeout: 5000,
    });
    const loaded = Pipeline.fromJSON(document);
    expect(loaded.toJSON()).toEqual(document);
    expect(loaded.getComponent("csv")?.params).toMatchObject({ conversionMode: "row", delimiter: ";" });
  });

  test("the same through YAML", () => {
    const yaml = pipeline().toYAML();
    expect(Pipeline.fromYAML(yaml).toYAML()).toBe(yaml);
  });

  test("a custom resolveHost is written by its registered name and found again when loading", () => {
    const resolveHost: ResolveHost = async () => [{ address: "127.0.0.1", family: 4 }];
    const registry = createRegistry().registerFunction("test.localResolver", resolveHost);
    const fetcher = new LinkContentFetcher({ resolveHost });
    const document = new Pipeline().addComponent("fetch", fetcher).toJSON({ registry });
    expect(document.components.fetch?.init_parameters.resolveHost).toBe("test.localResolver");
    const loaded = Pipeline.fromJSON(document, { registry });
    expect(loaded.getComponent("fetch")?.params).toMatchObject({ resolveHost });
    const unregistered = new LinkContentFetcher({ resolveHost: async () => [] });
    expect(() => new Pipeline().addComponent("fetch", unregistered).toJSON()).toThrow(/registerFunction/);
  });
});

describe("pipelines", () => {
  test("LinkContentFetcher → HTMLToDocument → DocumentSplitter", async () => {
    const url = `${server.origin}/article`;
    const pipeline = new Pipeline()
      .addComponent("fetch", new LinkContentFetcher({ allowPrivateAddresses: true }))
      .addComponent("html", new HTMLToDocument({ extractTitle: true }))
      .addComponent("split", new DocumentSplitter({ splitBy: "word", splitLength: 3 }))
      .connect("fetch.streams", "html.sources")
      .connect("html.documents", "split.documents");
    const result = await pipeline.run({ fetch: { urls: [url] } });
    const chunks = (result.split as { documents: Document[] }).documents;
    expect(chunks.map((chunk) => chunk.content)).toEqual(["One two three ", "four five."]);
    expect(chunks[0]?.meta).toMatchObject({ url, content_type: "text/html", title: "Guide", split_id: 0 });
  });

  test("PDFToDocument → DocumentSplitter by page gives one chunk per page with its page_number", async () => {
    const pipeline = new Pipeline()
      .addComponent("pdf", new PDFToDocument())
      .addComponent("split", new DocumentSplitter({ splitBy: "page", splitLength: 1 }))
      .connect("pdf.documents", "split.documents");
    const pdf = new ByteStream(buildPdf([["Cover"], ["Chapter one"], ["Chapter two"]]), {
      meta: { file_path: "/books/book.pdf" },
    });
    const result = await pipeline.run({ pdf: { sources: [pdf] } });
    const pages = (result.split as { documents: Document[] }).documents;
    expect(pages.map((page) => [page.content, page.meta.page_number, page.meta.file_path])).toEqual([
      ["Cover\f", 1, "book.pdf"],
      ["Chapter one\f", 2, "book.pdf"],
      ["Chapter two", 3, "book.pdf"],
    ]);
  });

  test("in a pipeline, a skipped source's warning names the component", async () => {
    const logger = new MemoryLogger();
    const pipeline = new Pipeline({ logger }).addComponent("notes", new TextFileToDocument());
    const result = await pipeline.run({ notes: { sources: ["/nonexistent/notes.txt"] } });
    expect(result.notes).toEqual({ documents: [] });
    expect(logger.messages("warn")).toContainEqual(
      expect.stringContaining(
        '"notes" (junction.TextFileToDocument): "/nonexistent/notes.txt" does not exist.',
      ),
    );
  });
});
