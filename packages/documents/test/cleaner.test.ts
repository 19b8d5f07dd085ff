import { MemoryLogger } from "@junction/core";
import { Document, DocumentCleaner } from "@junction/documents";
import { describe, expect, test } from "vitest";

type Options = ConstructorParameters<typeof DocumentCleaner>[0];

const clean = async (options: Options, content: string) =>
  (await new DocumentCleaner(options).run({ documents: [new Document({ content })] })).documents?.[0]
    ?.content;

const indent = " ".repeat(8);
const lines = (...rows: string[]) => rows.join(`\n${indent}`);

describe("DocumentCleaner (Haystack's cases)", () => {
  test("removes empty lines page by page", async () => {
    expect(
      await clean(
        { removeExtraWhitespaces: false },
        "This is a text with some words. \f\n\n  \nThere is a second sentence. \n\nAnd there is a third sentence.",
      ),
    ).toBe("This is a text with some words. \fThere is a second sentence. \nAnd there is a third sentence.");
  });

  test("collapses extra whitespace and strips each page, keeping form feeds", async () => {
    expect(
      await clean(
        { removeEmptyLines: false },
        " This is a text with some words. There is a second sentence.  And there  is a third sentence.\f ",
      ),
    ).toBe("This is a text with some words. There is a second sentence. And there is a third sentence.\f");
  });

  test("removes substrings, including astral characters", async () => {
    expect(
      await clean({ removeSubstrings: ["This", "A", "words", "🪲"] }, "This is a text with some words.\f🪲"),
    ).toBe(" is a text with some .\f");
  });

  test("removes regex matches page by page", async () => {
    expect(await clean({ removeRegex: "\\s\\s+" }, "This is a  text \f with   some words.")).toBe(
      "This is a text\fwith some words.",
    );
  });

  test("replaces regex matches, with groups", async () => {
    const options: Options = { removeEmptyLines: false, removeExtraWhitespaces: false };
    expect(
      await clean({ ...options, replaceRegexes: { "Page \\d+": "" } }, "Page 1 content.\fPage 2 content."),
    ).toBe(" content.\f content.");
    expect(await clean({ ...options, replaceRegexes: { "(\\d+)-(\\d+)": "$2-$1" } }, "range 1-9")).toBe(
      "range 9-1",
    );
  });

  test("removes a header and footer repeated on every page", async () => {
    const page = (number: number, body: string) =>
      lines(
        "This is a header.",
        "Page  of",
        String(number),
        "4",
        body,
        "This is a footer number 1",
        "This is footer number 2",
      );
    const text = `First Page\f\f${page(2, "Lorem ipsum dolor sit amet")}\f${page(3, "Sid ut perspiciatis unde")}\f${page(4, "Sed do eiusmod tempor.")}`;
    const expected = `First Page\f\f${lines(" 2", "4", "Lorem ipsum dolor sit amet\f 3", "4", "Sid ut perspiciatis unde\f 4", "4", "Sed do eiusmod tempor.")}`;
    expect(
      await clean(
        { removeEmptyLines: false, removeExtraWhitespaces: false, removeRepeatedSubstrings: true },
        text,
      ),
    ).toBe(expected);
  });

  test("a single middle page has nothing in common with another page", async () => {
    const text = "PAGE ONE\fThe quick brown fox jumps high\fPAGE THREE";
    expect(
      await clean(
        { removeEmptyLines: false, removeExtraWhitespaces: false, removeRepeatedSubstrings: true },
        text,
      ),
    ).toBe(text);
  });

  test("unicode normalization and asciiOnly", async () => {
    const text = "ｱｲｳｴｵ\nComment c\u0327a va\nÁ";
    expect(await clean({ unicodeNormalization: "NFKC", removeExtraWhitespaces: false }, text)).toBe(
      "アイウエオ\nComment ça va\nÁ",
    );
    expect(await clean({ unicodeNormalization: "NFD" }, "ç")).toBe("c\u0327");
    expect(
      await clean({ asciiOnly: true, removeExtraWhitespaces: false, removeEmptyLines: false }, text),
    ).toBe("\nComment ca va\nA");
  });

  test("stripWhitespaces trims the ends only", async () => {
    expect(
      await clean(
        { stripWhitespaces: true, removeExtraWhitespaces: false, removeEmptyLines: false },
        "  # Title\n\n  - item\n  ",
      ),
    ).toBe("# Title\n\n  - item");
  });

  test("ids are recomputed unless keepId; other fields are kept", async () => {
    const source = new Document({ content: "a  b", meta: { lang: "en" }, score: 0.5, embedding: [1, 2] });
    const { documents = [] } = await new DocumentCleaner().run({ documents: [source] });
    expect(documents[0]?.content).toBe("a b");
    expect(documents[0]?.id).toBe(
      new Document({ content: "a b", meta: { lang: "en" }, embedding: [1, 2] }).id,
    );
    expect(documents[0]?.id).not.toBe(source.id);
    expect(documents[0]).toMatchObject({ meta: { lang: "en" }, score: 0.5, embedding: [1, 2] });
    const kept = await new DocumentCleaner({ keepId: true }).run({ documents: [source] });
    expect(kept.documents?.[0]?.id).toBe(source.id);
  });

  test("a document without text passes through with a warning", async () => {
    const logger = new MemoryLogger();
    const blobOnly = new Document({ id: "blob" });
    const { documents } = await new DocumentCleaner().run({ documents: [blobOnly] }, { logger });
    expect(documents).toEqual([blobOnly]);
    expect(logger.messages("warn")[0]).toContain('document "blob" has no text content');
  });

  test("whitespace is Python's: separators and NEL collapse and strip, a BOM is text", async () => {
    // DocumentCleaner._remove_extra_whitespaces: re.sub(r"\s\s+", " ", page).strip(), where Python's
    // \s is str.isspace() (U+001C–U+001F and U+0085 included, U+FEFF not).
    expect(await clean({}, "\x1ca\x1c\x1db\x85\x85c\x1f")).toBe("a b c");
    expect(await clean({}, "\ufeffa  b\ufeff")).toBe("\ufeffa b\ufeff");
    // strip_whitespaces: text.strip()
    const stripOnly: Options = {
      stripWhitespaces: true,
      removeExtraWhitespaces: false,
      removeEmptyLines: false,
    };
    expect(await clean(stripOnly, "\x85\x1e a \x1f")).toBe("a");
    expect(await clean(stripOnly, "\ufeff a ")).toBe("\ufeff a");
  });

  test('an empty removeRegex is no regex step: pages are not stripped ("if self.remove_regex:")', async () => {
    const options: Options = { removeRegex: "", removeExtraWhitespaces: false, removeEmptyLines: false };
    expect(await clean(options, " a \f b ")).toBe(" a \f b ");
  });

  test("headers are searched in the first 300 characters counted as Python does (an emoji is one)", async () => {
    // _find_and_remove_header_footer: p[:n_chars] with n_chars=300 counts code points. The header starts
    // at code point 151 (302 UTF-16 units in): inside Python's window, outside a 300-unit slice.
    const body = "🪲".repeat(150);
    const page = (n: number) => `${body} Running header here x${n} ${"word ".repeat(5)}`;
    const text = [page(1), page(2), page(3), page(4)].join("\f");
    const cleaned = await clean({ removeRepeatedSubstrings: true, removeExtraWhitespaces: false }, text);
    expect(cleaned?.split("\f")[1]).not.toContain("Running header here");
  });

  test("an invalid regex fails at construction, naming the option", () => {
    expect(() => new DocumentCleaner({ removeRegex: "(" })).toThrow(/removeRegex/);
    expect(() => new DocumentCleaner({ replaceRegexes: { "[": "" } })).toThrow(/replaceRegexes/);
  });
});
