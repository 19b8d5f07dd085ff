import { ConversionError, MarkdownToDocument, TextFileToDocument } from "@junction/converters";
import { MemoryLogger } from "@junction/core";
import { ByteStream } from "@junction/documents";
import { describe, expect, test } from "vitest";
import { useTempDir } from "./support/temp-dir.js";

const tempDir = useTempDir();

describe("TextFileToDocument", () => {
  test("reads each file into a document with file_path (the file name) and the meta input merged", async () => {
    const { write } = await tempDir();
    const a = await write("a.txt", "Alpha text.");
    const b = await write("b.txt", "Beta text.");
    const { documents } = await new TextFileToDocument().run({ sources: [a, b], meta: { lang: "en" } });
    expect(documents?.map((document) => document.content)).toEqual(["Alpha text.", "Beta text."]);
    expect(documents?.map((document) => document.meta)).toEqual([
      { file_path: "a.txt", lang: "en" },
      { file_path: "b.txt", lang: "en" },
    ]);
    expect(documents?.[0]?.id).toMatch(/^[0-9a-f]{64}$/);
  });

  test("storeFullPath keeps the path as given; a meta list gives one object per source", async () => {
    const { write } = await tempDir();
    const a = await write("a.txt", "A");
    const b = await write("b.txt", "B");
    const { documents } = await new TextFileToDocument({ storeFullPath: true }).run({
      sources: [a, b],
      meta: [{ n: 1 }, { n: 2 }],
    });
    expect(documents?.map((document) => document.meta)).toEqual([
      { file_path: a, n: 1 },
      { file_path: b, n: 2 },
    ]);
  });

  test("one meta object is copied per source: changing one document's nested meta leaves the others alone", async () => {
    const shared = { tags: ["a"] };
    const { documents } = await new TextFileToDocument().run({
      sources: [ByteStream.fromString("1"), ByteStream.fromString("2")],
      meta: { shared },
    });
    const first = documents?.[0]?.meta.shared as { tags: string[] } | undefined;
    first?.tags.push("changed");
    expect(documents?.[0]?.meta).toEqual({ shared: { tags: ["a", "changed"] } });
    expect(documents?.[1]?.meta).toEqual({ shared: { tags: ["a"] } });
    expect(shared.tags).toEqual(["a"]);
  });

  test("a meta list of the wrong length is an error naming both counts", async () => {
    const error = await new TextFileToDocument()
      .run({ sources: [ByteStream.fromString("x")], meta: [{}, {}] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as ConversionError).message).toContain("a list of 2 objects for 1 sources");
  });

  test("a ByteStream's meta is kept; the meta input wins over it", async () => {
    const stream = ByteStream.fromString("Hello", { meta: { url: "https://a.example/x", lang: "de" } });
    const { documents } = await new TextFileToDocument().run({ sources: [stream], meta: { lang: "en" } });
    expect(documents?.[0]?.content).toBe("Hello");
    expect(documents?.[0]?.meta).toEqual({ url: "https://a.example/x", lang: "en" });
  });

  test("a missing file is a warning naming it, and the batch goes on", async () => {
    const { write, dir } = await tempDir();
    const good = await write("good.txt", "Still here.");
    const logger = new MemoryLogger();
    const { documents } = await new TextFileToDocument().run(
      { sources: [`${dir}/missing.txt`, good] },
      { logger },
    );
    expect(documents?.map((document) => document.content)).toEqual(["Still here."]);
    const [warning] = logger.messages("warn");
    expect(warning).toContain("missing.txt");
    expect(warning).toContain("does not exist");
    expect(warning).toContain("raiseOnFailure");
  });

  test("with raiseOnFailure the first failing source is an error naming it and the reason", async () => {
    const { dir } = await tempDir();
    const error = await new TextFileToDocument({ raiseOnFailure: true })
      .run({ sources: [`${dir}/missing.txt`] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversionError);
    expect(error).toMatchObject({ code: "CONVERSION_ERROR", reason: "not_found" });
    expect((error as Error).message).toContain("missing.txt");
  });

  test("decodes with the encoding option; invalid bytes for the encoding are a warning naming the file", async () => {
    const { write } = await tempDir();
    const latin = await write("latin.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9])); // "café" in latin1
    const logger = new MemoryLogger();
    const asUtf8 = await new TextFileToDocument().run({ sources: [latin] }, { logger });
    expect(asUtf8.documents).toEqual([]);
    expect(logger.messages("warn")[0]).toMatch(/latin\.txt.*not valid utf-8 text/);
    const asLatin = await new TextFileToDocument({ encoding: "latin1" }).run({ sources: [latin] });
    expect(asLatin.documents?.[0]?.content).toBe("café");
  });

  test("a ByteStream's meta.encoding overrides the option; an unknown encoding option is refused at construction", async () => {
    const stream = new ByteStream(new Uint8Array([0xe9]), { meta: { encoding: "latin1" } });
    const { documents } = await new TextFileToDocument().run({ sources: [stream] });
    expect(documents?.[0]?.content).toBe("é");
    expect(() => new TextFileToDocument({ encoding: "klingon-8" })).toThrow(/unknown encoding/);
  });

  test("Python codec names from Haystack pipelines are accepted (latin-1, utf_8, utf-8-sig)", async () => {
    // TextFileToDocument(encoding=...) passes the name to bytes.decode: Python spellings must work here too.
    const cafe = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    const latin = await new TextFileToDocument({ encoding: "latin-1" }).run({
      sources: [new ByteStream(cafe)],
    });
    expect(latin.documents?.[0]?.content).toBe("café");
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    for (const encoding of ["utf_8", "utf-8-sig", "UTF_8"]) {
      const { documents } = await new TextFileToDocument({ encoding }).run({
        sources: [new ByteStream(bom)],
      });
      expect(documents?.[0]?.content).toBe("hi");
    }
    const fromMeta = new ByteStream(cafe, { meta: { encoding: "ISO8859_1" } });
    expect((await new TextFileToDocument().run({ sources: [fromMeta] })).documents?.[0]?.content).toBe(
      "café",
    );
  });

  test("an http(s) URL given as a source is refused, pointing to LinkContentFetcher", async () => {
    const error = await new TextFileToDocument()
      .run({ sources: ["https://example.com/a.txt"] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: "invalid_input" });
    expect((error as Error).message).toContain("LinkContentFetcher");
  });

  test("a file: URL is read as a path", async () => {
    const { write } = await tempDir();
    const path = await write("u.txt", "from a file URL");
    const { documents } = await new TextFileToDocument().run({ sources: [`file://${path}`] });
    expect(documents?.[0]?.content).toBe("from a file URL");
  });

  test("maxFileBytes: a larger file or ByteStream fails, naming the source and the option", async () => {
    const { write } = await tempDir();
    const big = await write("big.txt", "x".repeat(101));
    const logger = new MemoryLogger();
    const converter = new TextFileToDocument({ maxFileBytes: 100 });
    const { documents } = await converter.run(
      { sources: [big, ByteStream.fromString("y".repeat(200)), ByteStream.fromString("ok")] },
      { logger },
    );
    expect(documents?.map((document) => document.content)).toEqual(["ok"]);
    const warnings = logger.messages("warn");
    expect(warnings[0]).toMatch(/big\.txt.*101 bytes, over maxFileBytes \(100\)/);
    expect(warnings[1]).toMatch(/ByteStream #1.*200 bytes, over maxFileBytes/);
  });

  test("baseDirectory: relative paths resolve inside it; paths leaving it are refused", async () => {
    const { write, dir } = await tempDir();
    await write("inside.txt", "inside");
    const logger = new MemoryLogger();
    const converter = new TextFileToDocument({ baseDirectory: dir });
    const { documents } = await converter.run(
      { sources: ["inside.txt", "../../etc/passwd", "/etc/hostname"] },
      { logger },
    );
    expect(documents?.map((document) => document.content)).toEqual(["inside"]);
    expect(logger.messages("warn")).toHaveLength(2);
    for (const warning of logger.messages("warn")) expect(warning).toContain("outside baseDirectory");
  });

  test("a directory is a warning, not a crash", async () => {
    const { dir } = await tempDir();
    const logger = new MemoryLogger();
    const { documents } = await new TextFileToDocument().run({ sources: [dir] }, { logger });
    expect(documents).toEqual([]);
    expect(logger.messages("warn")[0]).toContain("is not a regular file");
  });
});

describe("MarkdownToDocument", () => {
  test("removes markup and keeps the text, one line per block", async () => {
    const markdown = [
      "# Install",
      "",
      "Run **pnpm** and read [the docs](https://example.com/docs).",
      "",
      "- first",
      "- second",
      "",
      "```sh",
      "pnpm add x",
      "```",
    ].join("\n");
    const { documents } = await new MarkdownToDocument().run({
      sources: [ByteStream.fromString(markdown, { meta: { file_path: "/docs/README.md" } })],
    });
    const content = documents?.[0]?.content ?? "";
    expect(content).toContain("Install\n\nRun pnpm and read the docs.");
    expect(content).toContain("- first\n- second");
    expect(content).toContain("pnpm add x");
    expect(content).not.toMatch(/[#*[\]`]|https:/);
    expect(documents?.[0]?.meta).toEqual({ file_path: "README.md" });
  });
});
