import { MemoryLogger } from "@junction/core";
import { Document, RecursiveDocumentSplitter, type SplitOverlap } from "@junction/documents";
import { describe, expect, test } from "vitest";

type Options = ConstructorParameters<typeof RecursiveDocumentSplitter>[0];

const run = async (options: Options, content: string) =>
  (await new RecursiveDocumentSplitter(options).run({ documents: [new Document({ content })] })).documents ??
  [];
const contents = (documents: readonly Document[]) => documents.map((document) => document.content);

describe("RecursiveDocumentSplitter (Haystack's cases)", () => {
  test("splits at a separator and keeps it with the piece before it", async () => {
    const chunks = await run(
      { splitLength: 20, separators: ["."], splitUnit: "char" },
      "This is a test. Another sentence. And one more.",
    );
    expect(contents(chunks)).toEqual(["This is a test.", " Another sentence.", " And one more."]);
  });

  test("merges neighbouring pieces while they fit", async () => {
    const chunks = await run(
      { splitLength: 18, separators: ["\n\n", "\n"], splitUnit: "char" },
      "This is a test.\n\n\nAnother test.\n\n\n\nFinal test.",
    );
    expect(contents(chunks)).toEqual(["This is a test.\n\n", "\nAnother test.\n\n\n\n", "Final test."]);
  });

  test("word unit measures pieces as Haystack's _chunk_length: space-separated, so a lone form feed is a word", async () => {
    // test_run_split_by_word_count_page_breaks_word_unit (split_length=4, separators=[" "])
    const text = "This is some text. \f This text is on another page. \f This is the last pag3.";
    const chunks = await run({ splitLength: 4, separators: [" "] }, text);
    expect(
      chunks.map((chunk) => [chunk.content, chunk.meta.page_number, chunk.meta.split_idx_start]),
    ).toEqual([
      ["This is some text. ", 1, 0],
      ["\f This text is ", 2, text.indexOf("\f This text is ")],
      ["on another page. \f ", 3, text.indexOf("on another page. \f ")],
      ["This is the last ", 3, text.indexOf("This is the last ")],
      ["pag3.", 3, text.indexOf("pag3.")],
    ]);
    // "a\nb" is one piece of text.split(" "): "one\ntwo three\nfour" is two words, so it fits in 2
    expect(contents(await run({ splitLength: 2, separators: [" "] }, "one\ntwo three\nfour"))).toEqual([
      "one\ntwo three\nfour",
    ]);
  });

  test("the sentence separator cuts where Haystack's SentenceSplitter does", async () => {
    // test_run_split_by_sentence_count_page_breaks_word_unit (split_length=7, separators=["sentence"])
    const text =
      "Sentence on page 1. Another on page 1.\fSentence on page 2. Another on page 2.\fSentence on page 3. Another on page 3.\f\fSentence on page 5.";
    const chunks = await run({ splitLength: 7, separators: ["sentence"] }, text);
    expect(chunks.map((chunk) => [chunk.content, chunk.meta.page_number])).toEqual([
      ["Sentence on page 1. ", 1],
      ["Another on page 1.\f", 1],
      ["Sentence on page 2. ", 2],
      ["Another on page 2.\f", 2],
      ["Sentence on page 3. ", 3],
      ["Another on page 3.\f\f", 3],
      ["Sentence on page 5.", 5],
    ]);
  });

  test("page_number is the page a chunk ends on (trailing form feeds ignored); offsets are exact", async () => {
    const text =
      "Sentence on page 1. Another on page 1.\fSentence on page 2. Another on page 2.\fSentence on page 3. Another on page 3.\f\f Sentence on page 5.";
    const chunks = await run({ separators: ["."], splitLength: 30, splitUnit: "char" }, text);
    expect(contents(chunks)).toEqual([
      "Sentence on page 1.",
      " Another on page 1.",
      "\fSentence on page 2.",
      " Another on page 2.",
      "\fSentence on page 3.",
      " Another on page 3.",
      "\f\f Sentence on page 5.",
    ]);
    expect(chunks.map((chunk) => chunk.meta.page_number)).toEqual([1, 1, 2, 2, 3, 3, 5]);
    for (const chunk of chunks) expect(chunk.meta.split_idx_start).toBe(text.indexOf(chunk.content ?? ""));
  });

  test("char overlap: ranges link neighbours, and an overlong chunk is cut and carried on", async () => {
    const chunks = await run(
      { splitLength: 20, splitOverlap: 10, separators: ["."], splitUnit: "char" },
      "A simple sentence1. A bright sentence2. A clever sentence3",
    );
    expect(contents(chunks)).toEqual([
      "A simple sentence1.",
      "sentence1. A bright ",
      " A bright sentence2.",
      "sentence2. A clever ",
      " A clever sentence3",
    ]);
    const overlaps = chunks.map((chunk) => chunk.meta._split_overlap as SplitOverlap[]);
    expect(overlaps[0]).toEqual([{ doc_id: chunks[1]?.id, range: [0, 10] }]);
    expect(overlaps[1]).toEqual([
      { doc_id: chunks[0]?.id, range: [9, 19] },
      { doc_id: chunks[2]?.id, range: [0, 10] },
    ]);
    expect(overlaps[4]).toEqual([{ doc_id: chunks[3]?.id, range: [10, 20] }]);
  });

  test("char overlap with the fixed-size fallback", async () => {
    const chunks = await run(
      { splitLength: 8, splitOverlap: 4, separators: ["."], splitUnit: "char" },
      "A simple sentence1. Short. Short.",
    );
    expect(contents(chunks)).toEqual([
      "A simple",
      "mple sen",
      " sentenc",
      "tence1. ",
      "e1. Shor",
      "Short. S",
      "t. Short",
      "hort.",
    ]);
  });

  test("word overlap: the last word repeats; a cut chunk ends at its last word", async () => {
    // test_run_split_by_dot_and_overlap_1_word_unit (and its split_idx_start twin)
    const text = "This is sentence one. This is sentence two. This is sentence three. This is sentence four.";
    const chunks = await run({ splitLength: 4, splitOverlap: 1, separators: ["."], splitUnit: "word" }, text);
    expect(contents(chunks)).toEqual([
      "This is sentence one.",
      "one. This is sentence",
      "sentence two. This is",
      "is sentence three. This",
      "This is sentence four.",
    ]);
    for (const chunk of chunks) expect(chunk.meta.split_idx_start).toBe(text.indexOf(chunk.content ?? ""));
  });

  test("overlap is honoured when no separator matches (haystack#11767)", async () => {
    expect(
      contents(
        await run({ splitLength: 5, splitOverlap: 2, separators: ["\n\n"], splitUnit: "char" }, "abcdefghij"),
      ),
    ).toEqual(["abcde", "defgh", "ghij"]);
    expect(
      contents(
        await run(
          { splitLength: 3, splitOverlap: 1, separators: ["\n\n"], splitUnit: "word" },
          "one two three four five six seven",
        ),
      ),
    ).toEqual(["one two three", "three four five", "five six seven"]);
  });

  test("the word fallback counts runs of whitespace as separators and makes no whitespace-only chunk", async () => {
    const options: Options = { splitLength: 1, separators: ["\n\n"], splitUnit: "word" };
    expect(contents(await run(options, "hello  world"))).toEqual(["hello", "  world"]);
    expect(contents(await run(options, "hello world "))).toEqual(["hello", " world "]);
  });

  test("falls back to fixed-size chunks when separators leave pieces too long", async () => {
    const chunks = await run({ separators: [" "], splitLength: 2, splitUnit: "char" }, "This is some text");
    expect(contents(chunks)).toEqual(["Th", "is", " ", "is", " ", "so", "me", " ", "te", "xt"]);
  });

  test("default separators: paragraphs, then sentences, then lines, then words", async () => {
    const text = "First paragraph here.\n\nSecond one. It has two sentences.\nAnd a line.";
    const chunks = await run({ splitLength: 5 }, text);
    expect(contents(chunks)).toEqual([
      "First paragraph here.\n\n",
      "Second one. ",
      "It has two sentences.\n",
      "And a line.",
    ]);
  });

  test("meta: source and parent id, split id, offset, _split_overlap null without overlap; ids unique", async () => {
    const source = new Document({ content: "one two. three four. five six.", meta: { lang: "en" } });
    const { documents = [] } = await new RecursiveDocumentSplitter({ splitLength: 2, separators: ["."] }).run(
      {
        documents: [source],
      },
    );
    expect(documents[1]?.meta).toEqual({
      lang: "en",
      source_id: source.id,
      parent_id: source.id,
      split_id: 1,
      split_idx_start: 8,
      _split_overlap: null,
      page_number: 1,
    });
    expect(new Set(documents.map((document) => document.id)).size).toBe(documents.length);
    // RecursiveDocumentSplitter._run_one creates the Document before setting page_number, so the id hashes
    // the meta without it (and with _split_overlap still None or []).
    const { page_number: _page, ...hashed } = documents[1]?.meta ?? {};
    expect(documents[1]?.id).toBe(new Document({ content: documents[1]?.content, meta: hashed }).id);
    const [first] = await run({ splitLength: 2, splitOverlap: 1, separators: ["."] }, "one two. three four.");
    const { page_number: _firstPage, ...firstHashed } = first?.meta ?? {};
    expect(first?.id).toBe(
      new Document({ content: first?.content, meta: { ...firstHashed, _split_overlap: [] } }).id,
    );
  });

  test("empty documents are skipped with a warning", async () => {
    const logger = new MemoryLogger();
    const { documents } = await new RecursiveDocumentSplitter().run(
      { documents: [new Document({ content: "" }), new Document({ id: "blob-only" })] },
      { logger },
    );
    expect(documents).toEqual([]);
    expect(logger.messages("warn")).toHaveLength(2);
  });

  test("warns when a whole chunk becomes the next one's overlap", async () => {
    const logger = new MemoryLogger();
    await new RecursiveDocumentSplitter({ splitLength: 3, splitOverlap: 2, separators: ["."] }).run(
      { documents: [new Document({ content: "a b. c d e." })] },
      { logger },
    );
    expect(logger.messages("warn")[0]).toContain("entirely repeated as the overlap");
  });

  test("invalid options fail at construction, naming the option", () => {
    expect(() => new RecursiveDocumentSplitter({ splitLength: 0 })).toThrow(/splitLength/);
    expect(() => new RecursiveDocumentSplitter({ splitOverlap: -1 })).toThrow(/splitOverlap/);
    expect(() => new RecursiveDocumentSplitter({ splitLength: 5, splitOverlap: 5 })).toThrow(
      /splitOverlap \(5\) must be less than splitLength \(5\)/,
    );
    expect(() => new RecursiveDocumentSplitter({ separators: [""] })).toThrow(/separator must not be empty/);
  });
});
