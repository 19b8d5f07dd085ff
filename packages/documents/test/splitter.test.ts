import { ComponentError, MemoryLogger } from "@junction/core";
import { Document, DocumentSplitter, type SplitOverlap } from "@junction/documents";
import { describe, expect, test } from "vitest";

const split = async (splitter: DocumentSplitter, ...texts: string[]) =>
  (await splitter.run({ documents: texts.map((content) => new Document({ content })) })).documents ?? [];
const contents = (documents: readonly Document[] = []) => documents.map((document) => document.content);
const pages = (documents: readonly Document[] = []) => documents.map((document) => document.meta.page_number);
const overlaps = (document: Document | undefined) => document?.meta._split_overlap as SplitOverlap[];

const text = "This is a text with some words. There is a second sentence. And there is a third sentence.";

describe("DocumentSplitter (Haystack's cases)", () => {
  test("by word keeps each word's trailing space; meta records source, split id and offset", async () => {
    const source = new Document({ content: text, meta: { name: "doc" } });
    const { documents = [] } = await new DocumentSplitter({ splitBy: "word", splitLength: 10 }).run({
      documents: [source],
    });
    expect(contents(documents)).toEqual([
      "This is a text with some words. There is a ",
      "second sentence. And there is a third sentence.",
    ]);
    expect(documents[1]?.meta).toEqual({
      name: "doc",
      source_id: source.id,
      page_number: 1,
      split_id: 1,
      split_idx_start: text.indexOf("second"),
    });
  });

  test("a threshold merges a short tail into the previous chunk", async () => {
    const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 15, splitThreshold: 10 });
    expect(contents(await split(splitter, text))).toEqual([text]);
  });

  test("a threshold merge with overlap does not duplicate the overlap (haystack#12366)", async () => {
    const splitter = new DocumentSplitter({
      splitBy: "word",
      splitLength: 3,
      splitOverlap: 1,
      splitThreshold: 3,
    });
    expect(contents(await split(splitter, "a b c d e f"))).toEqual(["a b c ", "c d e f"]);
  });

  test("several documents are split independently, split_id restarting at 0", async () => {
    const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 10 });
    const other =
      "This is a different text with some words. There is a second sentence. And there is a third sentence. And there is a fourth sentence.";
    const documents = await split(splitter, text, other);
    expect(contents(documents).slice(2)).toEqual([
      "This is a different text with some words. There is ",
      "a second sentence. And there is a third sentence. And ",
      "there is a fourth sentence.",
    ]);
    expect(documents.map((document) => document.meta.split_id)).toEqual([0, 1, 0, 1, 2]);
  });

  test("by period, passage, page and line", async () => {
    const by = (splitBy: "period" | "passage" | "page" | "line", content: string) =>
      split(new DocumentSplitter({ splitBy, splitLength: 1 }), content);
    expect(contents(await by("period", text))).toEqual([
      "This is a text with some words.",
      " There is a second sentence.",
      " And there is a third sentence.",
    ]);
    expect(
      contents(
        await by(
          "passage",
          "This is a text with some words. There is a second sentence.\n\nAnd there is a third sentence.\n\n And another passage.",
        ),
      ),
    ).toEqual([
      "This is a text with some words. There is a second sentence.\n\n",
      "And there is a third sentence.\n\n",
      " And another passage.",
    ]);
    const paged = await by(
      "page",
      "This is a text with some words. There is a second sentence.\f And there is a third sentence.\f And another passage.",
    );
    expect(contents(paged)).toEqual([
      "This is a text with some words. There is a second sentence.\f",
      " And there is a third sentence.\f",
      " And another passage.",
    ]);
    expect(pages(paged)).toEqual([1, 2, 3]);
    expect(
      contents(
        await by(
          "line",
          "This is a text with some words.\nThere is a second sentence.\nAnd there is a third sentence.",
        ),
      ),
    ).toEqual([
      "This is a text with some words.\n",
      "There is a second sentence.\n",
      "And there is a third sentence.",
    ]);
  });

  test("page_number counts form feeds before each chunk, with and without overlap", async () => {
    const one = "This is some text.\f This text is on another page.";
    const two = "This content has two.\f\f page brakes.";
    expect(pages(await split(new DocumentSplitter({ splitBy: "word", splitLength: 2 }), one, two))).toEqual([
      1, 1, 2, 2, 2, 1, 1, 3,
    ]);
    expect(
      pages(
        await split(
          new DocumentSplitter({ splitBy: "word", splitLength: 3, splitOverlap: 1 }),
          "This is some text. And\f this text is on another page.",
          two,
        ),
      ),
    ).toEqual([1, 1, 1, 2, 2, 1, 1, 3]);
    const passages =
      "This is a text with some words.\f There is a second sentence.\n\nAnd there is a third sentence.\n\nAnd more passages.\n\n\f And another passage.";
    expect(
      pages(await split(new DocumentSplitter({ splitBy: "passage", splitLength: 1 }), passages)),
    ).toEqual([1, 2, 2, 2]);
    expect(
      pages(
        await split(new DocumentSplitter({ splitBy: "passage", splitLength: 2, splitOverlap: 1 }), passages),
      ),
    ).toEqual([1, 2, 2]);
    const paged =
      "This is a text with some words. There is a second sentence.\f And there is a third sentence.\f And another passage.";
    expect(pages(await split(new DocumentSplitter({ splitBy: "page", splitLength: 2 }), paged))).toEqual([
      1, 3,
    ]);
    expect(
      pages(await split(new DocumentSplitter({ splitBy: "page", splitLength: 2, splitOverlap: 1 }), paged)),
    ).toEqual([1, 2]);

    // test_add_page_number_to_metadata_with_overlap_period_split as updated by haystack PR #12687: the
    // overlap-only tails " End." and " More text." are no longer chunks.
    const byPeriod = await split(
      new DocumentSplitter({ splitBy: "period", splitLength: 2, splitOverlap: 1 }),
      "This is some text. And this is more text.\f This text is on another page. End.",
      "This content has two.\f\f page brakes. More text.",
    );
    expect(contents(byPeriod)).toEqual([
      "This is some text. And this is more text.",
      " And this is more text.\f This text is on another page.",
      "\f This text is on another page. End.",
      "This content has two.\f\f page brakes.",
      "\f\f page brakes. More text.",
    ]);
    expect(pages(byPeriod)).toEqual([1, 1, 1, 1, 1]);
  });

  test("_split_overlap links neighbours with ranges in the other chunk's coordinates", async () => {
    const source = "This is a text with some words. There is a second sentence. And a third sentence.";
    const documents = await split(new DocumentSplitter({ splitLength: 10, splitOverlap: 5 }), source);
    expect(contents(documents)).toEqual([
      "This is a text with some words. There is a ",
      "some words. There is a second sentence. And a third ",
      "second sentence. And a third sentence.",
    ]);
    expect(overlaps(documents[0])).toEqual([{ doc_id: documents[1]?.id, range: [0, 23] }]);
    expect(overlaps(documents[1])).toEqual([
      { doc_id: documents[0]?.id, range: [20, 43] },
      { doc_id: documents[2]?.id, range: [0, 29] },
    ]);
    expect(documents[0]?.content?.slice(20, 43)).toBe("some words. There is a ");
  });

  test("chunks that differ only by page get different ids (haystack#8741)", async () => {
    const documents = await split(new DocumentSplitter({ splitBy: "page", splitLength: 1 }), "same\fsame");
    expect(contents(documents)).toEqual(["same\f", "same"]);
    const again = await split(new DocumentSplitter({ splitBy: "word", splitLength: 1 }), "same same");
    expect(again[0]?.content).toBe("same ");
    expect(new Set(again.map((document) => document.id)).size).toBe(2);
  });

  test("copies the source meta; equal texts with different meta give different chunk ids", async () => {
    const splitter = new DocumentSplitter({ splitLength: 5 });
    const { documents = [] } = await splitter.run({
      documents: [
        new Document({ content: "Text.", meta: { name: "doc 0" } }),
        new Document({ content: "Text.", meta: { name: "doc 1" } }),
      ],
    });
    expect(documents.map((document) => document.meta.name)).toEqual(["doc 0", "doc 1"]);
    expect(documents[0]?.id).not.toBe(documents[1]?.id);
  });

  test("sentences keep their trailing whitespace", async () => {
    const splitter = new DocumentSplitter({ splitBy: "sentence", splitLength: 2 });
    expect(contents(await split(splitter, "First one. Second one! Third one? Fourth."))).toEqual([
      "First one. Second one! ",
      "Third one? Fourth.",
    ]);
  });

  test("sentences end as Haystack's SentenceSplitter ends them: split rules and abbreviations", async () => {
    const bySentence = (content: string, language = "en") =>
      split(new DocumentSplitter({ splitBy: "sentence", splitLength: 1, language }), content).then(contents);
    // TestSplittingNLTKSentenceSplitter.test_run_split_by_sentence_1 / _3
    expect(
      await bySentence(
        "Moonlight shimmered softly, wolves howled nearby, night enveloped everything. It was a dark night ... The moon was full.",
      ),
    ).toEqual([
      "Moonlight shimmered softly, wolves howled nearby, night enveloped everything. ",
      "It was a dark night ... ",
      "The moon was full.",
    ]);
    expect(
      await bySentence(
        "Sentence on page 1.\fSentence on page 2. \fSentence on page 3. \f\f Sentence on page 5.",
      ),
    ).toEqual([
      "Sentence on page 1.\f",
      "Sentence on page 2. \f",
      "Sentence on page 3. \f\f ",
      "Sentence on page 5.",
    ]);
    // SentenceSplitter._needs_join: a bracket opening the next sentence, a boundary inside a quotation
    // (test_apply_split_rules_join_case_4 / _case_1)
    expect(
      await bySentence("This is a test. (With a parenthetical statement.) And another sentence."),
    ).toEqual(["This is a test. (With a parenthetical statement.) ", "And another sentence."]);
    expect(await bySentence('He said "This is sentence one. This is sentence two." Then he left.')).toEqual([
      'He said "This is sentence one. This is sentence two." ',
      "Then he left.",
    ]);
    // Punkt ends sentences only at . ? ! and not after abbreviations or initials (ICU breaks at both,
    // and at every line break)
    expect(
      await bySentence(
        "Mr. Smith met Dr. Jones at noon. Then J. K. Rowling arrived.\nA heading\n\nMore text here.",
      ),
    ).toEqual([
      "Mr. Smith met Dr. Jones at noon. ",
      "Then J. K. Rowling arrived.\n",
      "A heading\n\nMore text here.",
    ]);
    // after an abbreviation or an ellipsis, a capitalised common opener starts a sentence (Punkt's
    // sentence starters), a name does not
    expect(await bySentence("We met at 5 p.m. Then we left. Wait... John came.")).toEqual([
      "We met at 5 p.m. ",
      "Then we left. ",
      "Wait... John came.",
    ]);
    expect(await bySentence("Das ist z.B. gut. Und Dr. Müller kommt.", "de")).toEqual([
      "Das ist z.B. gut. ",
      "Und Dr. Müller kommt.",
    ]);
  });

  test("respectSentenceBoundary gathers whole sentences up to splitLength words", async () => {
    const layout = (documents: readonly Document[], source: string) =>
      documents.map((document) => [
        document.content,
        document.meta.page_number,
        document.meta.split_idx_start === source.indexOf(document.content ?? ""),
      ]);
    // test_run_split_by_word_respect_sentence_boundary
    const text =
      "Moonlight shimmered softly, wolves howled nearby, night enveloped everything. It was a dark night.\fThe moon was full.";
    const bySentences = new DocumentSplitter({
      splitBy: "word",
      splitLength: 3,
      respectSentenceBoundary: true,
    });
    expect(layout(await split(bySentences, text), text)).toEqual([
      ["Moonlight shimmered softly, wolves howled nearby, night enveloped everything. ", 1, true],
      ["It was a dark night.\f", 1, true],
      ["The moon was full.", 2, true],
    ]);
    // test_run_split_by_word_respect_sentence_boundary_with_split_overlap_and_page_breaks
    const paged =
      "Sentence on page 1. Another on page 1.\fSentence on page 2. Another on page 2.\fSentence on page 3. Another on page 3.\f\f Sentence on page 5.";
    const overlapping = new DocumentSplitter({
      splitBy: "word",
      splitLength: 8,
      splitOverlap: 1,
      respectSentenceBoundary: true,
    });
    const chunks = await split(overlapping, paged);
    expect(layout(chunks, paged)).toEqual([
      ["Sentence on page 1. Another on page 1.\f", 1, true],
      ["Another on page 1.\fSentence on page 2. ", 1, true],
      ["Sentence on page 2. Another on page 2.\f", 2, true],
      ["Another on page 2.\fSentence on page 3. ", 2, true],
      ["Sentence on page 3. Another on page 3.\f\f ", 3, true],
      ["Another on page 3.\f\f Sentence on page 5.", 3, true],
    ]);
    expect(overlaps(chunks[1])).toEqual([
      { doc_id: chunks[0]?.id, range: [20, 39] },
      { doc_id: chunks[2]?.id, range: [0, 20] },
    ]);
    // test_run_split_by_word_respect_sentence_boundary_no_repeats: the long first sentence is not repeated
    const long =
      "This is a test sentence with many many words that exceeds the split length and should not be repeated. This is another test sentence. (This is a third test sentence.) This is the last test sentence.";
    const noRepeats = await split(
      new DocumentSplitter({
        splitBy: "word",
        splitLength: 13,
        splitOverlap: 3,
        respectSentenceBoundary: true,
      }),
      long,
    );
    expect(noRepeats).toHaveLength(3);
    expect(noRepeats.slice(1).some((chunk) => chunk.content?.includes("many many words"))).toBe(false);
  });

  test("respectSentenceBoundary with another splitBy is ignored with a warning, as in Haystack", async () => {
    const logger = new MemoryLogger();
    const splitter = new DocumentSplitter({
      splitBy: "sentence",
      splitLength: 1,
      respectSentenceBoundary: true,
    });
    const { documents } = await splitter.run(
      { documents: [new Document({ content: "One. Two." })] },
      { logger },
    );
    expect(contents(documents)).toEqual(["One. ", "Two."]);
    expect(logger.messages("warn")[0]).toContain('respectSentenceBoundary works with splitBy "word" only');
  });

  test('splitBy "function": one chunk per returned string, meta plus source_id only', async () => {
    // test_split_by_function
    const splitter = new DocumentSplitter({
      splitBy: "function",
      splittingFunction: (text) => text.split("."),
    });
    const source = new Document({ id: "1", content: "This.Is.A.Test", meta: { key: "value" } });
    const { documents = [] } = await splitter.run({ documents: [source] });
    expect(documents.map((document) => [document.content, document.meta])).toEqual(
      ["This", "Is", "A", "Test"].map((content) => [content, { key: "value", source_id: "1" }]),
    );
    const bySpaces = new DocumentSplitter({
      splitBy: "function",
      splittingFunction: (text) => text.split(/\s{2,}/),
    });
    const spaced = await bySpaces.run({ documents: [new Document({ content: "This       Is\n  A  Test" })] });
    expect(contents(spaced.documents)).toEqual(["This", "Is", "A", "Test"]);
    // test_undefined_function; a function returning something else fails the run, naming the document
    expect(() => new DocumentSplitter({ splitBy: "function" })).toThrow(/splittingFunction/);
    const broken = new DocumentSplitter({
      splitBy: "function",
      splittingFunction: (() => "oops") as unknown as (text: string) => string[],
    });
    await expect(broken.run({ documents: [source] })).rejects.toThrow(/must return a list of strings/);
  });

  test("a trailing delimiter never makes a chunk of only overlap (haystack#12686)", async () => {
    const splitter = new DocumentSplitter({ splitLength: 2, splitOverlap: 1 });
    expect(contents(await split(splitter, "a b "))).toEqual(["a b "]);
  });

  test("empty documents are skipped with a warning; documents without content are an error", async () => {
    const logger = new MemoryLogger();
    const splitter = new DocumentSplitter();
    const { documents = [] } = await splitter.run({ documents: [new Document({ content: "" })] }, { logger });
    expect(documents).toEqual([]);
    expect(logger.messages("warn")[0]).toContain("has empty content; skipping it");
    const kept = await new DocumentSplitter({ skipEmptyDocuments: false }).run({
      documents: [new Document({ content: "" })],
    });
    expect(contents(kept.documents)).toEqual([""]);
    await expect(splitter.run({ documents: [new Document({ id: "x" })] })).rejects.toThrow(
      /DocumentSplitter.run: document "x" has no content/,
    );
  });

  test("invalid options fail at construction, naming the option", () => {
    const fails = (options: ConstructorParameters<typeof DocumentSplitter>[0], pattern: RegExp) => {
      let caught: unknown;
      try {
        new DocumentSplitter(options);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ComponentError);
      expect((caught as Error).message).toMatch(pattern);
    };
    fails({ splitLength: 0 }, /splitLength/);
    fails({ splitOverlap: -1 }, /splitOverlap/);
    fails({ splitLength: 3, splitOverlap: 3 }, /splitOverlap \(3\) must be less than splitLength \(3\)/);
    fails({ splitThreshold: -2 }, /splitThreshold/);
    fails({ splitBy: "sentence", language: "not a tag!" }, /language/);
  });
});
