import { HTMLToDocument, PDFToDocument } from "@junction/converters";
import { MemoryLogger } from "@junction/core";
import { ByteStream } from "@junction/documents";
import { describe, expect, test } from "vitest";
import { buildPdf } from "./support/minimal-pdf.js";
import { useTempDir } from "./support/temp-dir.js";

const tempDir = useTempDir();

const page = `<!doctype html><html><head><title>Release &amp; notes</title><style>p{color:red}</style></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<main><h1>Version 2</h1><p>Faster <b>indexing</b>, see <a href="https://example.com/changes">the changes</a>.</p>
<ul><li>BM25</li><li>Filters</li></ul></main>
<footer>Copyright</footer><script>track()</script></body></html>`;

describe("HTMLToDocument", () => {
  test("keeps the main text, drops navigation, footer and scripts; the meta is the stream's and the input's, as Haystack's", async () => {
    const stream = ByteStream.fromString(page, {
      meta: { url: "https://example.com/v2", content_type: "text/html" },
    });
    const { documents } = await new HTMLToDocument().run({ sources: [stream] });
    expect(documents?.[0]?.content).toBe(
      "Version 2\n\nFaster indexing, see the changes.\n\n- BM25\n- Filters",
    );
    // HTMLToDocument.run: merged_metadata = {**bytestream.meta, **metadata} (no title)
    expect(documents?.[0]?.meta).toEqual({ url: "https://example.com/v2", content_type: "text/html" });
    const titled = await new HTMLToDocument({ extractTitle: true }).run({ sources: [stream] });
    expect(titled.documents?.[0]?.meta).toEqual({
      url: "https://example.com/v2",
      content_type: "text/html",
      title: "Release & notes",
    });
  });

  test("keepLinks writes link targets; mainContent: false keeps the whole body; the meta input wins over the title", async () => {
    const { documents } = await new HTMLToDocument({
      keepLinks: true,
      mainContent: false,
      extractTitle: true,
    }).run({
      sources: [ByteStream.fromString(page)],
      meta: { title: "Mine" },
    });
    const content = documents?.[0]?.content ?? "";
    expect(content).toContain("the changes [https://example.com/changes]");
    expect(content).toContain("Version 2");
    expect(content).not.toContain("Home"); // <nav> is still dropped
    expect(content).not.toContain("track()");
    expect(documents?.[0]?.meta).toEqual({ title: "Mine" });
  });

  test("maxHtmlBytes and empty pages fail with warnings naming the source; the batch goes on", async () => {
    const { write } = await tempDir();
    const empty = await write("empty.html", "");
    const logger = new MemoryLogger();
    const { documents } = await new HTMLToDocument({ maxHtmlBytes: 1000 }).run(
      {
        sources: [
          empty,
          ByteStream.fromString(`<p>${"x".repeat(2000)}</p>`),
          ByteStream.fromString("<p>ok</p>"),
        ],
      },
      { logger },
    );
    expect(documents?.map((document) => document.content)).toEqual(["ok"]);
    const warnings = logger.messages("warn");
    expect(warnings[0]).toMatch(/empty\.html.* is empty/);
    expect(warnings[1]).toMatch(/ByteStream #1 is 2007 bytes of HTML, over maxHtmlBytes \(1000\)/);
  });

  test("a page without readable text gives an empty document and a warning", async () => {
    const logger = new MemoryLogger();
    const { documents } = await new HTMLToDocument().run(
      { sources: [ByteStream.fromString("<html><body><script>x()</script></body></html>")] },
      { logger },
    );
    expect(documents?.[0]?.content).toBe("");
    expect(logger.messages("warn")[0]).toContain("has no readable text");
  });
});

describe("PDFToDocument", () => {
  test("extracts each page's text and joins pages with a form feed", async () => {
    const { write } = await tempDir();
    const path = await write(
      "report.pdf",
      buildPdf([["Quarterly report", "Revenue grew (a lot)."], ["Second page"], ["Third page"]]),
    );
    const { documents } = await new PDFToDocument().run({ sources: [path], meta: { kind: "report" } });
    expect(documents?.[0]?.content).toBe("Quarterly report\nRevenue grew (a lot).\fSecond page\fThird page");
    expect(documents?.[0]?.meta).toEqual({ file_path: "report.pdf", kind: "report" });
  });

  test("a PDF without extractable text gives an empty document and a warning naming the file", async () => {
    const logger = new MemoryLogger();
    const stream = new ByteStream(buildPdf([[], []]), { meta: { file_path: "/scans/scan.pdf" } });
    const { documents } = await new PDFToDocument().run({ sources: [stream] }, { logger });
    expect(documents?.[0]?.content).toBe("\f");
    expect(logger.messages("warn")).toEqual([
      expect.stringMatching(/no text could be extracted from ByteStream #0 \("\/scans\/scan\.pdf"\)/),
    ]);
  });

  test("a corrupt PDF is a warning naming it (or an error with raiseOnFailure); the batch goes on", async () => {
    const { write } = await tempDir();
    const broken = await write("broken.pdf", "%PDF-1.4 this is not really a PDF");
    const good = await write("good.pdf", buildPdf([["Good"]]));
    const logger = new MemoryLogger();
    const { documents } = await new PDFToDocument().run({ sources: [broken, good] }, { logger });
    expect(documents?.map((document) => document.content)).toEqual(["Good"]);
    expect(logger.messages("warn")[0]).toMatch(/broken\.pdf.* is not a readable PDF/);
    await expect(
      new PDFToDocument({ raiseOnFailure: true }).run({ sources: [broken] }),
    ).rejects.toMatchObject({
      code: "CONVERSION_ERROR",
      reason: "corrupt",
    });
  });

  test("maxPages: a longer PDF fails, naming the file and the option", async () => {
    const error = await new PDFToDocument({ maxPages: 2, raiseOnFailure: true })
      .run({
        sources: [new ByteStream(buildPdf([["1"], ["2"], ["3"]]), { meta: { file_path: "long.pdf" } })],
      })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/long\.pdf.* has 3 pages, over maxPages \(2\)/);
  });

  test("the caller's ByteStream is left intact (pdf.js gets a copy)", async () => {
    const stream = new ByteStream(buildPdf([["Keep me"]]));
    const before = stream.data.byteLength;
    await new PDFToDocument().run({ sources: [stream] });
    expect(stream.data.byteLength).toBe(before);
    const again = await new PDFToDocument().run({ sources: [stream] });
    expect(again.documents?.[0]?.content).toBe("Keep me");
  });
});
