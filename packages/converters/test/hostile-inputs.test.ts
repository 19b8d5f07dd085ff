import { MemoryLogger } from "@junction/core";
import { ByteStream } from "@junction/documents";
import { describe, expect, test } from "vitest";
import {
  ConversionError,
  CSVToDocument,
  HTMLToDocument,
  JSONConverter,
  MarkdownToDocument,
  PDFToDocument,
  TextFileToDocument,
} from "../src/index.js";

function stream(content: string | Uint8Array, filePath: string): ByteStream {
  const data = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return new ByteStream(data, { meta: { file_path: filePath } });
}

async function failure(run: () => Promise<unknown>): Promise<ConversionError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConversionError);
  return error as ConversionError;
}

const garbage = new Uint8Array(100_000).map((_, index) => (index * 7919 + 13) % 256);

describe("hostile HTML", () => {
  test("100k levels of nesting are refused fast, naming the source and maxHtmlDepth", async () => {
    const html = `<html><body>${"<div>".repeat(100_000)}x${"</div>".repeat(100_000)}</body></html>`;
    const converter = new HTMLToDocument({ raiseOnFailure: true });
    const started = performance.now();
    const error = await failure(() => converter.run({ sources: [stream(html, "deep.html")] }));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error.reason).toBe("too_large");
    expect(error.message).toContain('"deep.html"');
    expect(error.message).toContain("maxHtmlDepth (512)");
  });

  test("end tags that close nothing do not hide the depth", async () => {
    const html = "<div></span>".repeat(5_000);
    const converter = new HTMLToDocument({ raiseOnFailure: true });
    await expect(converter.run({ sources: [stream(html, "unclosed.html")] })).rejects.toThrow("maxHtmlDepth");
  });

  test("nesting the scan cannot see is still refused, not a stack overflow", async () => {
    // A `<` inside an attribute hides the tag from the scan; the tree walk's own limit catches it.
    const html = `<body>${'<div title="<">'.repeat(3_000)}x</body>`;
    const converter = new HTMLToDocument({ raiseOnFailure: true, maxHtmlDepth: 1000 });
    const error = await failure(() => converter.run({ sources: [stream(html, "hidden.html")] }));
    expect(error.message).toContain("maxHtmlDepth (1000)");
  });

  test("a page of unclosed paragraphs and list items is not mistaken for a deep one", async () => {
    const html = `<body>${"<p>para".repeat(3_000)}<ul>${"<li>item".repeat(3_000)}</ul></body>`;
    const { documents = [] } = await new HTMLToDocument({ raiseOnFailure: true }).run({
      sources: [stream(html, "sloppy.html")],
    });
    expect(documents[0]?.content?.split("item")).toHaveLength(3_001);
  });

  test("a page over 16 M characters is converted whole, without html-to-text's console warning", async () => {
    const html = `<body><p>start</p><!--${"x".repeat(17_000_000)}--><p>end</p></body>`;
    const { documents = [] } = await new HTMLToDocument({ raiseOnFailure: true }).run({
      sources: [stream(html, "long.html")],
    });
    expect(documents[0]?.content).toContain("end");
  }, 30_000);

  test("a page over maxHtmlBytes is refused naming the limit", async () => {
    const converter = new HTMLToDocument({ raiseOnFailure: true, maxHtmlBytes: 1_000 });
    const error = await failure(() =>
      converter.run({ sources: [stream(`<p>${"a".repeat(2_000)}</p>`, "big.html")] }),
    );
    expect(error.message).toContain("maxHtmlBytes (1000)");
  });
});

describe("hostile Markdown", () => {
  test.each([
    [
      "a list nested 3,000 levels (ran out of memory after minutes)",
      Array.from({ length: 3_000 }, (_, index) => `${"  ".repeat(index)}- x`).join("\n"),
      "(line 201)",
    ],
    ["a quote nested 5,000 levels (overflowed marked's stack)", `${"> ".repeat(5_000)}x`, "(line 1)"],
    ["100k nested raw HTML elements", `${"<div>".repeat(100_000)}x`, "more than 512 levels deep"],
  ])("%s is refused fast, naming the source and the limit", async (_name, markdown, where) => {
    const converter = new MarkdownToDocument({ raiseOnFailure: true });
    const started = performance.now();
    const error = await failure(() => converter.run({ sources: [stream(markdown, "deep.md")] }));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error.reason).toBe("too_large");
    expect(error.message).toContain('"deep.md"');
    expect(error.message).toContain(where);
  });

  test("ordinary nesting, long blank lines and deep code indentation still convert", async () => {
    const markdown = [
      "# Title",
      "> quoted",
      "> > twice",
      "- a",
      "  - b",
      "    1. c",
      " ".repeat(1_000),
      "text after a long blank line",
    ].join("\n");
    const { documents = [] } = await new MarkdownToDocument({ raiseOnFailure: true }).run({
      sources: [stream(markdown, "fine.md")],
    });
    expect(documents[0]?.content).toContain("twice");
    expect(documents[0]?.content).toContain("text after a long blank line");
  });
});

describe("hostile bytes", () => {
  test.each([
    ["TextFileToDocument", () => new TextFileToDocument({ raiseOnFailure: true })],
    ["MarkdownToDocument", () => new MarkdownToDocument({ raiseOnFailure: true })],
    ["HTMLToDocument", () => new HTMLToDocument({ raiseOnFailure: true })],
    ["CSVToDocument", () => new CSVToDocument({ raiseOnFailure: true })],
    ["JSONConverter", () => new JSONConverter({ raiseOnFailure: true, jqSchema: "." })],
  ] as const)("binary garbage given to %s is a decode error naming the source", async (_name, make) => {
    const converter = make() as { run: (inputs: { sources: ByteStream[] }) => Promise<unknown> };
    const error = await failure(() => converter.run({ sources: [stream(garbage, "garbage.bin")] }));
    expect(error.reason).toBe("decode");
    expect(error.message).toContain('"garbage.bin"');
  });

  test("invalid UTF-8 is skipped with a warning by default, never silently", async () => {
    const logger = new MemoryLogger();
    const { documents = [] } = await new TextFileToDocument().run(
      { sources: [stream(new Uint8Array([0x68, 0x69, 0xff, 0xfe, 0xc3]), "bad.txt")] },
      { logger },
    );
    expect(documents).toEqual([]);
    expect(logger.messages("warn")[0]).toContain('("bad.txt") is not valid utf-8 text');
  });
});

describe("hostile PDF, CSV and JSON", () => {
  test("a jqSchema with a long run of spaces in brackets (from a loaded pipeline document) is refused at once", () => {
    // The bracket pattern once backtracked quadratically over the spaces (3 s at 80,000).
    const jqSchema = `.items[${" ".repeat(1_000_000)}x]`;
    expect(() => new JSONConverter({ jqSchema })).toThrow(/params\.jqSchema/);
  });

  test("a PDF that claims 1e9 pages is read by its real pages", async () => {
    const pdf = [
      "%PDF-1.4",
      "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
      "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1000000000 >> endobj",
      "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj",
      "trailer << /Root 1 0 R >>",
      "%%EOF",
    ].join("\n");
    const logger = new MemoryLogger();
    const started = performance.now();
    const result = await new PDFToDocument({ maxPages: 100 })
      .run({ sources: [stream(pdf, "claims.pdf")] }, { logger })
      .catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(10_000);
    // Either refused with a warning naming the file, or converted to an (empty) document: never a hang.
    const warnings = logger.messages("warn").join("\n");
    if (result instanceof Error) expect(result.message).toContain("claims.pdf");
    else expect(warnings).toContain("claims.pdf");
  }, 20_000);

  test("a CSV with a 10 MB field is converted", async () => {
    const csv = `a,b\n"${"x".repeat(10_000_000)}",1\n`;
    const { documents = [] } = await new CSVToDocument({ raiseOnFailure: true }).run({
      sources: [stream(csv, "wide.csv")],
    });
    expect(documents[0]?.content?.length).toBe(csv.length);
  });

  test("a CSV row with a 10 MB field becomes one document", async () => {
    const csv = `a,b\n"${"x".repeat(10_000_000)}",1\n`;
    const { documents = [] } = await new CSVToDocument({ raiseOnFailure: true, conversionMode: "row" }).run({
      sources: [stream(csv, "wide.csv")],
      content_column: "a",
    });
    expect(documents[0]?.content?.length).toBe(10_000_000);
    expect(documents[0]?.meta.b).toBe("1");
  });

  test("a JSON list of 300k items iterated with .[] does not overflow the stack", async () => {
    const json = JSON.stringify(Array.from({ length: 300_000 }, (_, index) => ({ text: `item ${index}` })));
    const { documents = [] } = await new JSONConverter({
      jqSchema: ".[]",
      contentKey: "text",
      raiseOnFailure: true,
    }).run({
      sources: [stream(json, "many.json")],
    });
    expect(documents).toHaveLength(300_000);
    expect(documents[299_999]?.content).toBe("item 299999");
  }, 60_000);

  test("JSON nested 100k deep is handled without a stack overflow", async () => {
    const json = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const logger = new MemoryLogger();
    const result = await new JSONConverter({ jqSchema: ".a.a", contentKey: "a" })
      .run({ sources: [stream(json, "deep.json")] }, { logger })
      .catch((error: unknown) => error);
    expect(result).not.toBeInstanceOf(RangeError);
    if (result instanceof Error) expect(result.message).toContain("deep.json");
    else expect(logger.messages("warn").join("\n")).toContain("deep.json");
  });
});
