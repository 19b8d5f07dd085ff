import { MemoryLogger } from "@junction/core";
import { Document, LostInTheMiddleRanker, MetaFieldRanker } from "@junction/documents";
import { describe, expect, test } from "vitest";

const contents = (documents: readonly Document[] = []) => documents.map((document) => document.content);
const numbered = (count: number, prefix = "") =>
  Array.from({ length: count }, (_, index) => new Document({ content: `${prefix}${index + 1}` }));

describe("LostInTheMiddleRanker (Haystack's cases)", () => {
  test("puts the best documents at both ends", async () => {
    const ranker = new LostInTheMiddleRanker();
    expect(contents((await ranker.run({ documents: numbered(9) })).documents)).toEqual(
      "1 3 5 7 9 8 6 4 2".split(" "),
    );
    expect(contents((await ranker.run({ documents: numbered(10) })).documents)).toEqual(
      "1 3 5 7 9 10 8 6 4 2".split(" "),
    );
    expect(contents((await ranker.run({ documents: numbered(2) })).documents)).toEqual(["1", "2"]);
  });

  test("a word budget stops adding documents once reached (the one reaching it is included)", async () => {
    const ranker = new LostInTheMiddleRanker({ wordCountThreshold: 6 });
    expect(contents((await ranker.run({ documents: numbered(9, "word") })).documents)).toEqual(
      "word1 word3 word5 word6 word4 word2".split(" "),
    );
    const single = await ranker.run({
      documents: [new Document({ content: "one two three four five six seven" })],
    });
    expect(single.documents).toHaveLength(1);
    const firstFills = await new LostInTheMiddleRanker({ wordCountThreshold: 2 }).run({
      documents: [new Document({ content: "a b c" }), new Document({ content: "d" })],
    });
    expect(contents(firstFills.documents)).toEqual(["a b c"]);

    // words are len(content.split()): Python splits at U+001F too, and not at a BOM
    const separated = await new LostInTheMiddleRanker({ wordCountThreshold: 3 }).run({
      documents: ["a\x1fb", "c\ufeffd", "e", "f"].map((content) => new Document({ content })),
    });
    expect(contents(separated.documents)).toEqual(["a\x1fb", "c\ufeffd"]);
  });

  test("topK keeps the first k before reordering; the run inputs override the options", async () => {
    const ranker = new LostInTheMiddleRanker({ topK: 4 });
    expect(contents((await ranker.run({ documents: numbered(9) })).documents)).toEqual(["1", "3", "4", "2"]);
    expect(contents((await ranker.run({ documents: numbered(9), top_k: 3 })).documents)).toEqual([
      "1",
      "3",
      "2",
    ]);
    expect(
      contents((await ranker.run({ documents: numbered(9, "w"), word_count_threshold: 2 })).documents),
    ).toEqual(["w1", "w2"]);
  });

  test("drops duplicates by id, keeping the highest score", async () => {
    const ranker = new LostInTheMiddleRanker();
    const { documents } = await ranker.run({
      documents: [
        new Document({ id: "a", content: "low", score: 0.1 }),
        new Document({ id: "b", content: "other" }),
        new Document({ id: "a", content: "high", score: 0.9 }),
      ],
    });
    expect(contents(documents)).toEqual(["high", "other"]);
  });

  test("documents without text are an error; invalid options fail", async () => {
    const ranker = new LostInTheMiddleRanker();
    await expect(
      ranker.run({ documents: [new Document({ content: "1" }), new Document({ id: "bytes" })] }),
    ).rejects.toThrow(/document "bytes" has no text content/);
    expect(() => new LostInTheMiddleRanker({ wordCountThreshold: 0 })).toThrow(/wordCountThreshold/);
    expect(() => new LostInTheMiddleRanker({ topK: -1 })).toThrow(/topK/);
    await expect(ranker.run({ documents: numbered(3), top_k: 0 })).rejects.toThrow(/top_k/);
  });
});

const rated = (ratings: readonly unknown[]) =>
  ratings.map((rating) => new Document({ content: "abc", meta: { rating } }));
const ratings = (documents: readonly Document[] = []) => documents.map((document) => document.meta.rating);

describe("MetaFieldRanker (Haystack's cases)", () => {
  test("ranks by the meta field, descending by default, ascending on request", async () => {
    expect(
      ratings(
        (await new MetaFieldRanker({ metaField: "rating" }).run({ documents: rated([1.3, 0.7, 2.1]) }))
          .documents,
      ),
    ).toEqual([2.1, 1.3, 0.7]);
    expect(
      ratings(
        (await new MetaFieldRanker({ metaField: "rating" }).run({ documents: rated([1, 5, 8]) })).documents,
      ),
    ).toEqual([8, 5, 1]);
    const ascending = new MetaFieldRanker({ metaField: "rating", sortOrder: "ascending" });
    expect(ratings((await ascending.run({ documents: rated([1.1, 0.5, 2.3]) })).documents)).toEqual([
      0.5, 1.1, 2.3,
    ]);
  });

  test("string values sort by code point, as Python's sorted (an emoji after U+FF01)", async () => {
    // MetaFieldRanker.run: sorted(..., key=meta value); Python compares str by code point.
    const documents = ["\uff01", "🪲", "a"].map(
      (tag) => new Document({ content: `tagged ${tag}`, meta: { tag } }),
    );
    const ranker = new MetaFieldRanker({ metaField: "tag", sortOrder: "ascending" });
    const { documents: ranked = [] } = await ranker.run({ documents });
    expect(ranked.map((document) => document.meta.tag)).toEqual(["a", "\uff01", "🪲"]);
  });

  test("date values: zone-less date-times are read as naive (UTC), and naive mixed with zoned keeps the order", async () => {
    // MetaFieldRanker._parse_meta with meta_value_type="date" uses dateutil: "2021-06-01T09:00" is naive and
    // sorts by its clock reading; sorted() of naive and aware datetimes raises TypeError → incoming order.
    const dated = (...dates: string[]) =>
      dates.map((date) => new Document({ content: `on ${date}`, meta: { date } }));
    const ranker = new MetaFieldRanker({ metaField: "date", metaValueType: "date", sortOrder: "ascending" });
    const naive = await ranker.run({
      documents: dated("2021-06-01T09:00", "2021-06-01", "2021-05-31 23:30"),
    });
    expect(naive.documents?.map((document) => document.meta.date)).toEqual([
      "2021-05-31 23:30",
      "2021-06-01",
      "2021-06-01T09:00",
    ]);
    const logger = new MemoryLogger();
    const mixed = await ranker.run({ documents: dated("2021-06-02", "2021-06-01T00:00:00Z") }, { logger });
    expect(mixed.documents?.map((document) => document.meta.date)).toEqual([
      "2021-06-02",
      "2021-06-01T00:00:00Z",
    ]);
    expect(logger.messages("warn")[0]).toContain("dates with and without a time zone");
  });

  test("weight 0 keeps the incoming order (deduplicated); a run input can set it", async () => {
    const documents = [
      new Document({ id: "duplicate", content: "keep me", meta: { rating: 1.3 }, score: 0.9 }),
      new Document({ id: "duplicate", content: "drop me", meta: { rating: 1.2 }, score: 0.1 }),
      new Document({ id: "unique", content: "unique", meta: { rating: 2.1 } }),
    ];
    expect(
      contents((await new MetaFieldRanker({ metaField: "rating", weight: 0 }).run({ documents })).documents),
    ).toEqual(["keep me", "unique"]);
    const ranker = new MetaFieldRanker({ metaField: "rating" });
    expect(contents((await ranker.run({ documents })).documents)).toEqual(["unique", "keep me"]);
    expect(contents((await ranker.run({ documents, weight: 0 })).documents)).toEqual(["keep me", "unique"]);
  });

  test("metaValueType parses string values as float, int or date", async () => {
    const by = (metaValueType: "float" | "int" | "date", values: string[]) =>
      new MetaFieldRanker({ metaField: "rating", metaValueType }).run({ documents: rated(values) });
    expect(ratings((await by("float", ["1.1", "10.5", "2.3"])).documents)).toEqual(["10.5", "2.3", "1.1"]);
    expect(ratings((await by("int", ["1", "10", "2"])).documents)).toEqual(["10", "2", "1"]);
    expect(ratings((await by("date", ["2022-10", "2023-01", "2022-11"])).documents)).toEqual([
      "2023-01",
      "2022-11",
      "2022-10",
    ]);
  });

  test("linear_score mixes incoming scores with a linear meta score", async () => {
    const ranker = new MetaFieldRanker({ metaField: "rating", rankingMode: "linear_score", weight: 0.5 });
    const documents = [
      new Document({ content: "abc", meta: { rating: 1.3 }, score: 0.3 }),
      new Document({ content: "abc", meta: { rating: 0.7 }, score: 0.4 }),
      new Document({ content: "abc", meta: { rating: 2.1 }, score: 0.6 }),
    ];
    const { documents: ranked = [] } = await ranker.run({ documents });
    expect(ranked.map((document) => document.score)).toEqual([0.8, 0.15 + 1 / 3, 0.2 + 1 / 6]);
    const fused = await ranker.run({ documents, ranking_mode: "reciprocal_rank_fusion" });
    expect(fused.documents?.[0]?.score).toBeCloseTo(0.5 / 61 + 0.5 / 62, 12);
  });

  test("linear_score warns about missing or out-of-range scores", async () => {
    const logger = new MemoryLogger();
    const ranker = new MetaFieldRanker({ metaField: "rating", rankingMode: "linear_score", weight: 0.5 });
    await ranker.run(
      {
        documents: [
          new Document({ content: "a", meta: { rating: 1 } }),
          new Document({ content: "b", meta: { rating: 2 }, score: 1.3 }),
        ],
      },
      { logger },
    );
    expect(logger.messages("warn").join("\n")).toMatch(/score wasn't provided; defaulting to 0/);
    expect(logger.messages("warn").join("\n")).toMatch(/score 1.3 .* outside the \[0,1\] range/);
  });

  test("missing meta goes to the bottom, the top, or is dropped — with a warning", async () => {
    const documents = (middleScore: number) => [
      new Document({ id: "1", content: "abc", meta: { rating: 1.3 }, score: 0.6 }),
      new Document({ id: "2", content: "abc", meta: {}, score: middleScore }),
      new Document({ id: "3", content: "abc", meta: { rating: 2.1 }, score: 0.39 }),
    ];
    const run = async (missingMeta: "bottom" | "top" | "drop", middleScore: number) => {
      const logger = new MemoryLogger();
      const ranker = new MetaFieldRanker({
        metaField: "rating",
        rankingMode: "linear_score",
        weight: 0.5,
        missingMeta,
      });
      const { documents: ranked = [] } = await ranker.run({ documents: documents(middleScore) }, { logger });
      return { ids: ranked.map((document) => document.id), warnings: logger.messages("warn") };
    };
    const bottom = await run("bottom", 0.4);
    expect(bottom.ids[2]).toBe("2");
    expect(bottom.warnings[0]).toContain('documents with ids 2 don\'t have the meta field "rating"');
    expect((await run("top", 0.59)).ids[0]).toBe("2");
    const dropped = await run("drop", 0.59);
    expect(dropped.ids).toEqual(["3", "1"]); // 3: 0.5 + 0.39·0.5, 1: 0.6·0.5 + 0.25
    expect(dropped.warnings[0]).toContain("removed from the list");
  });

  test("no document with the field, mixed types or unparsable values: a warning, incoming order kept", async () => {
    const logger = new MemoryLogger();
    const missing = await new MetaFieldRanker({ metaField: "year" }).run(
      { documents: rated([1, 2]) },
      { logger },
    );
    expect(ratings(missing.documents)).toEqual([1, 2]);
    const mixed = await new MetaFieldRanker({ metaField: "rating" }).run(
      { documents: rated([1, "b", 3]) },
      { logger },
    );
    expect(ratings(mixed.documents)).toEqual([1, "b", 3]);
    const unparsable = await new MetaFieldRanker({ metaField: "rating", metaValueType: "int" }).run(
      { documents: rated(["2", "x", "10"]) },
      { logger },
    );
    // unparsed strings sort as strings
    expect(ratings(unparsable.documents)).toEqual(["x", "2", "10"]);
    const warnings = logger.messages("warn");
    expect(warnings[0]).toContain("none of the documents with ids");
    expect(warnings[1]).toContain("cannot be compared");
    expect(warnings[2]).toContain("could not parse the meta values");
  });

  test("invalid options fail at construction; invalid run inputs fail naming the input", async () => {
    expect(() => new MetaFieldRanker({ metaField: "rating", weight: 1.5 })).toThrow(/weight/);
    expect(() => new MetaFieldRanker({ metaField: "rating", topK: 0 })).toThrow(/topK/);
    const ranker = new MetaFieldRanker({ metaField: "rating", topK: 3 });
    await expect(ranker.run({ documents: rated([1]), top_k: 0 })).rejects.toThrow(
      /"top_k" must be > 0, but got 0/,
    );
    await expect(ranker.run({ documents: rated([1]), weight: -0.1 })).rejects.toThrow(
      /"weight" must be in \[0, 1\]/,
    );
  });
});
