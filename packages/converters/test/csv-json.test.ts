import { ConversionError, CSVToDocument, JSONConverter } from "@junction/converters";
import { MemoryLogger } from "@junction/core";
import { ByteStream } from "@junction/documents";
import { describe, expect, test } from "vitest";

const csv =
  'question,answer,file_path\nWhat is BM25?,"A ranking function, by term frequency.",x\nWhy?,Because,y,surplus\n\nShort\n';

describe("CSVToDocument", () => {
  test("file mode: one document holding the CSV text", async () => {
    const stream = ByteStream.fromString(csv, { meta: { file_path: "/data/faq.csv" } });
    const { documents } = await new CSVToDocument().run({ sources: [stream] });
    expect(documents).toHaveLength(1);
    expect(documents?.[0]?.content).toBe(csv);
    expect(documents?.[0]?.meta).toEqual({ file_path: "faq.csv" });
  });

  test("row mode: one document per row, other columns in meta (csv_ prefix on a clash), row_number, missing cells empty, surplus cells in extra_columns", async () => {
    const stream = ByteStream.fromString(csv, { meta: { file_path: "/data/faq.csv" } });
    const { documents } = await new CSVToDocument({ conversionMode: "row" }).run({
      sources: [stream],
      content_column: "answer",
    });
    expect(documents?.map((document) => document.content)).toEqual([
      "A ranking function, by term frequency.",
      "Because",
      "",
    ]);
    expect(documents?.map((document) => document.meta)).toEqual([
      { file_path: "faq.csv", question: "What is BM25?", csv_file_path: "x", row_number: 0 },
      {
        file_path: "faq.csv",
        question: "Why?",
        csv_file_path: "y",
        extra_columns: ["surplus"],
        row_number: 1,
      },
      { file_path: "faq.csv", question: "Short", csv_file_path: "", row_number: 2 },
    ]);
  });

  test("row mode with another delimiter and quote character", async () => {
    const { documents } = await new CSVToDocument({
      conversionMode: "row",
      delimiter: ";",
      quoteChar: "'",
    }).run({
      sources: [ByteStream.fromString("text;n\n'a;b';1\n")],
      content_column: "text",
    });
    expect(documents?.[0]?.content).toBe("a;b");
    expect(documents?.[0]?.meta).toEqual({ n: "1", row_number: 0 });
  });

  test("row mode without content_column is an error; a file without that column is a warning listing its columns", async () => {
    const converter = new CSVToDocument({ conversionMode: "row" });
    await expect(converter.run({ sources: [ByteStream.fromString(csv)] })).rejects.toThrow(
      /conversionMode is "row" but no content_column was given/,
    );
    const logger = new MemoryLogger();
    const { documents } = await converter.run(
      { sources: [ByteStream.fromString(csv), ByteStream.fromString("body\nok\n")], content_column: "body" },
      { logger },
    );
    expect(documents?.map((document) => document.content)).toEqual(["ok"]);
    expect(logger.messages("warn")[0]).toContain(
      'ByteStream #0 has no column "body" (content_column). Its columns: "question", "answer", "file_path"',
    );
  });

  test("row mode parses as Python's csv module: stray quotes are text, an unclosed quote takes the rest", async () => {
    // Expected rows from csv.DictReader(io.StringIO(text), restkey="extra_columns") and
    // CSVToDocument._build_document_from_row: a key already in the meta being built — the base meta or an
    // earlier column — becomes csv_<name>, then csv_<name>_1; a repeated header name keeps its first
    // position and its last value; a short row's missing cells are "".
    const text = 'text,csv_file_path,file_path,n,n\n5" screen,p,q,1,2\n"abc"def,,,3\n"open,end\nmore';
    const stream = ByteStream.fromString(text, { meta: { file_path: "/data/faq.csv" } });
    const { documents } = await new CSVToDocument({ conversionMode: "row" }).run({
      sources: [stream],
      content_column: "text",
    });
    expect(documents?.map((document) => document.content)).toEqual(['5" screen', "abcdef", "open,end\nmore"]);
    expect(documents?.map((document) => document.meta)).toEqual([
      { file_path: "faq.csv", csv_file_path: "p", csv_file_path_1: "q", n: "2", row_number: 0 },
      { file_path: "faq.csv", csv_file_path: "", csv_file_path_1: "", n: "", row_number: 1 },
      { file_path: "faq.csv", csv_file_path: "", csv_file_path_1: "", n: "", row_number: 2 },
    ]);
  });

  test("row mode: doubled quotes, CRLF, line breaks in quotes and spaces as Python's csv reads them", async () => {
    // csv.DictReader(io.StringIO('text,n\r\n"say ""hi""\r\nthere",1\r\n\r\n x ,"2" \r\n'))
    // → [{'text': 'say "hi"\r\nthere', 'n': '1'}, {'text': ' x ', 'n': '2 '}]
    const { documents } = await new CSVToDocument({ conversionMode: "row" }).run({
      sources: [ByteStream.fromString('text,n\r\n"say ""hi""\r\nthere",1\r\n\r\n x ,"2" \r\n')],
      content_column: "text",
    });
    expect(documents?.map((document) => [document.content, document.meta.n])).toEqual([
      ['say "hi"\r\nthere', "1"],
      [" x ", "2 "],
    ]);
  });

  test("CSV Python's reader refuses (a lone carriage return) is a warning naming the source", async () => {
    // csv.Error: new-line character seen in unquoted field (Haystack's run raises; here the source fails).
    const logger = new MemoryLogger();
    const { documents } = await new CSVToDocument({ conversionMode: "row" }).run(
      {
        sources: [ByteStream.fromString("a,b\n1\r2,3\n"), ByteStream.fromString("a\nok\n")],
        content_column: "a",
      },
      { logger },
    );
    expect(documents?.map((document) => document.content)).toEqual(["ok"]);
    expect(logger.messages("warn")[0]).toMatch(
      /ByteStream #0 is not valid CSV \(line 2: new-line character seen in unquoted field/,
    );
  });

  test("a delimiter of more than one character is refused at construction", () => {
    expect(() => new CSVToDocument({ delimiter: ";;" })).toThrow(/delimiter/);
  });
});

const laureates = {
  laureates: [
    {
      firstname: "Enrico",
      surname: "Fermi",
      motivation: "for his demonstrations of new radioactive elements",
    },
    { firstname: "Rita", surname: "Levi-Montalcini", motivation: "for their discoveries of growth factors" },
  ],
};

describe("JSONConverter", () => {
  test("jqSchema + contentKey + extraMetaFields, as Haystack's example", async () => {
    const converter = new JSONConverter({
      jqSchema: ".laureates[]",
      contentKey: "motivation",
      extraMetaFields: ["firstname", "surname", "born"],
    });
    const { documents } = await converter.run({
      sources: [ByteStream.fromString(JSON.stringify(laureates))],
    });
    expect(documents?.map((document) => document.content)).toEqual([
      "for his demonstrations of new radioactive elements",
      "for their discoveries of growth factors",
    ]);
    expect(documents?.[0]?.meta).toEqual({ firstname: "Enrico", surname: "Fermi", born: null });
  });

  test('extraMetaFields "*" copies every other key; the selected meta wins over the meta input', async () => {
    const converter = new JSONConverter({
      jqSchema: ".laureates[1]",
      contentKey: "motivation",
      extraMetaFields: "*",
    });
    const { documents } = await converter.run({
      sources: [ByteStream.fromString(JSON.stringify(laureates), { meta: { file_path: "/n/nobel.json" } })],
      meta: { surname: "overridden?", year: 1986 },
    });
    expect(documents?.[0]?.meta).toEqual({
      file_path: "nobel.json",
      surname: "Levi-Montalcini",
      year: 1986,
      firstname: "Rita",
    });
  });

  test("contentKey alone reads the whole file's object; jqSchema alone takes scalars", async () => {
    const whole = await new JSONConverter({ contentKey: "text" }).run({
      sources: [ByteStream.fromString('{"text": "Whole file", "other": 1}')],
    });
    expect(whole.documents?.map((document) => [document.content, document.meta])).toEqual([
      ["Whole file", {}],
    ]);
    const scalars = await new JSONConverter({ jqSchema: '.items[]."name"' }).run({
      sources: [ByteStream.fromString('{"items": [{"name": "a"}, {"name": 2}, {"name": true}]}')],
    });
    expect(scalars.documents?.map((document) => document.content)).toEqual(["a", "2", "true"]);
  });

  test("selected values of the wrong shape are skipped with a warning naming the item and the file", async () => {
    const logger = new MemoryLogger();
    const { documents } = await new JSONConverter({ jqSchema: ".[]", contentKey: "text" }).run(
      { sources: [ByteStream.fromString('[{"text": "ok"}, 3, {"other": 1}, {"text": {"nested": true}}]')] },
      { logger },
    );
    expect(documents?.map((document) => document.content)).toEqual(["ok"]);
    expect(logger.messages("warn")).toEqual([
      'junction.JSONConverter: item 1 of ByteStream #0 is a number, not an object with "text"; skipped it.',
      'junction.JSONConverter: item 2 of ByteStream #0 has no key "text" (contentKey); skipped it.',
      'junction.JSONConverter: item 3 of ByteStream #0 has an object under "text", not a scalar; skipped it.',
    ]);
  });

  test("invalid JSON and a selector that does not fit are warnings naming the source", async () => {
    const logger = new MemoryLogger();
    const { documents } = await new JSONConverter({ jqSchema: ".items[]", contentKey: "t" }).run(
      { sources: [ByteStream.fromString("{not json"), ByteStream.fromString('{"items": "a string"}')] },
      { logger },
    );
    expect(documents).toEqual([]);
    const [invalid, misfit] = logger.messages("warn");
    expect(invalid).toContain("ByteStream #0 is not valid JSON");
    expect(misfit).toContain('jqSchema ".items[]" does not fit ByteStream #1: Cannot iterate over string');
  });

  test("construction refuses jq beyond paths, and neither jqSchema nor contentKey", () => {
    expect(() => new JSONConverter({ jqSchema: ".items[] | select(.a)" })).toThrow(
      /unsupported syntax at position 8/,
    );
    expect(() => new JSONConverter({})).toThrow(/set jqSchema, contentKey, or both/);
  });

  test("with raiseOnFailure, invalid JSON is an error", async () => {
    await expect(
      new JSONConverter({ contentKey: "t", raiseOnFailure: true }).run({
        sources: [ByteStream.fromString("[")],
      }),
    ).rejects.toBeInstanceOf(ConversionError);
  });
});
