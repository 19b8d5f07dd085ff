import { ComponentError, MemoryLogger, Pipeline } from "@junction/core";
import {
  Document,
  DocumentJoiner,
  DocumentSplitter,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
} from "@junction/documents";
import { describe, expect, test } from "vitest";

const doc = (content: string, score?: number, meta?: Record<string, unknown>) =>
  new Document({ content, score, meta });
const contents = (documents: readonly Document[] = []) => documents.map((document) => document.content);
const quiet = { logger: new MemoryLogger() };

describe("DocumentJoiner", () => {
  test("concatenate keeps one copy per id, the highest-scored, sorted by score", async () => {
    const joiner = new DocumentJoiner();
    const { documents = [] } = await joiner.run(
      {
        documents: [
          [doc("a", 0.2), doc("b", 0.9)],
          [doc("a", 0.7), doc("c", 0.1)],
        ],
      },
      quiet,
    );
    expect(contents(documents)).toEqual(["b", "a", "c"]);
    expect(documents.map((document) => document.score)).toEqual([0.9, 0.7, 0.1]);
  });

  test("duplicates are recognised by id, not by content", async () => {
    const joiner = new DocumentJoiner();
    const { documents = [] } = await joiner.run(
      { documents: [[doc("same", 1, { source: "x" })], [doc("same", 1, { source: "y" })]] },
      quiet,
    );
    expect(documents).toHaveLength(2);
  });

  test("merge: Σ wᵢ·sᵢ with weights normalized to sum 1", async () => {
    const joiner = new DocumentJoiner({ joinMode: "merge", weights: [1, 3] });
    const { documents = [] } = await joiner.run(
      {
        documents: [
          [doc("a", 0.5), doc("b", 0.6)],
          [doc("a", 0.3), doc("c", 0.9)],
        ],
      },
      quiet,
    );
    expect(contents(documents)).toEqual(["c", "a", "b"]);
    expect(documents[0]?.score).toBeCloseTo(0.675, 12);
    expect(documents[1]?.score).toBeCloseTo(0.125 + 0.225, 12);
    expect(documents[2]?.score).toBeCloseTo(0.15, 12);
  });

  test("reciprocal rank fusion: Σ wᵢ·61/(61+rank), 0-based", async () => {
    const joiner = new DocumentJoiner({ joinMode: "reciprocal_rank_fusion" });
    const { documents = [] } = await joiner.run(
      {
        documents: [
          [doc("a"), doc("b"), doc("c")],
          [doc("b", 1000), doc("c"), doc("a"), doc("f", undefined, { key: "value" })],
        ],
      },
      quiet,
    );
    expect(contents(documents)).toEqual(["b", "a", "c", "f"]);
    const expected = [
      0.5 * (61 / 62) + 0.5,
      0.5 + 0.5 * (61 / 63),
      0.5 * (61 / 63) + 0.5 * (61 / 62),
      0.5 * (61 / 64),
    ];
    documents.forEach((document, index) => {
      expect(document.score).toBeCloseTo(expected[index] ?? 0, 12);
    });
  });

  test("reciprocal rank fusion gives exactly 1 to a document first in every list", async () => {
    const joiner = new DocumentJoiner({ joinMode: "reciprocal_rank_fusion" });
    const { documents = [] } = await joiner.run({ documents: [[doc("a")], [doc("a")], [doc("a")]] }, quiet);
    expect(documents[0]?.score).toBe(1);
  });

  test("distribution-based fusion rescales each list by (s−(μ−3σ))/6σ with population σ", async () => {
    const joiner = new DocumentJoiner({ joinMode: "distribution_based_rank_fusion" });
    const { documents = [] } = await joiner.run(
      {
        documents: [
          [doc("a", 0.6), doc("b", 0.2), doc("c", 0.5)],
          [doc("d", 0.5), doc("e", 0.8), doc("f", 1.1, { key: "value" }), doc("g", 0.3), doc("a", 0.3)],
        ],
      },
      quiet,
    );
    const scores = Object.fromEntries(documents.map((document) => [document.content, document.score]));
    // Computed with Haystack's formula in Python (its own test checks two truncated decimals).
    const expected = {
      a: 0.6634301126151534,
      b: 0.27119784233878524,
      c: 0.5653720450460613,
      d: 0.4462085646360081,
      e: 0.6075828707279839,
      f: 0.7689571768199596,
      g: 0.3386256939080243,
    };
    for (const [content, score] of Object.entries(expected)) {
      expect(scores[content]).toBeCloseTo(score, 12);
    }
  });

  test("distribution-based fusion scores a list of equal scores 0", async () => {
    const joiner = new DocumentJoiner({ joinMode: "distribution_based_rank_fusion", sortByScore: false });
    const { documents = [] } = await joiner.run({ documents: [[doc("a", 0.2), doc("b", 0.2)]] }, quiet);
    expect(documents.map((document) => document.score)).toEqual([0, 0]);
  });

  test("a missing score sorts last (as −∞) and is reported at info level", async () => {
    const logger = new MemoryLogger();
    const joiner = new DocumentJoiner();
    const { documents = [] } = await joiner.run(
      { documents: [[doc("x"), doc("y", -5)], [doc("z", 2)]] },
      { logger },
    );
    expect(contents(documents)).toEqual(["z", "y", "x"]);
    expect(logger.messages("info")[0]).toContain("sorted as if their score were -infinity");
  });

  test("ties keep the order in which ids first arrived", async () => {
    const joiner = new DocumentJoiner({ joinMode: "merge" });
    const { documents = [] } = await joiner.run(
      {
        documents: [
          [doc("p", 1), doc("q", 1)],
          [doc("r", 1), doc("p", 0)],
        ],
      },
      quiet,
    );
    // p: 0.5, q: 0.5, r: 0.5 — equal, so first-seen order.
    expect(contents(documents)).toEqual(["p", "q", "r"]);
  });

  test("sortByScore false keeps the first-seen order", async () => {
    const joiner = new DocumentJoiner({ sortByScore: false });
    const { documents = [] } = await joiner.run({ documents: [[doc("a", 0.1)], [doc("b", 0.9)]] }, quiet);
    expect(contents(documents)).toEqual(["a", "b"]);
  });

  test("topK truncates; the top_k input overrides it and 0 returns nothing", async () => {
    const joiner = new DocumentJoiner({ topK: 2 });
    const lists = [[doc("a", 3), doc("b", 2), doc("c", 1)]];
    expect(contents((await joiner.run({ documents: lists }, quiet)).documents)).toEqual(["a", "b"]);
    expect(contents((await joiner.run({ documents: lists, top_k: 1 }, quiet)).documents)).toEqual(["a"]);
    expect((await joiner.run({ documents: lists, top_k: 0 }, quiet)).documents).toEqual([]);
    await expect(joiner.run({ documents: lists, top_k: -1 }, quiet)).rejects.toThrow(/must not be negative/);
  });

  test("weights of the wrong length are a clear error naming the component", async () => {
    const joiner = new DocumentJoiner({ joinMode: "reciprocal_rank_fusion", weights: [1, 2, 3] });
    const error = await joiner
      .run({ documents: [[doc("a")], [doc("b")]] }, { ...quiet, componentName: "fusion" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentError);
    expect((error as Error).message).toContain('DocumentJoiner "fusion".run: 3 weights for 2 document lists');
  });

  test("invalid options fail at construction", () => {
    expect(() => new DocumentJoiner({ weights: [0, 0] })).toThrow(/weights.*sum to zero/s);
    expect(() => new DocumentJoiner({ topK: 0 })).toThrow(/topK/);
    // @ts-expect-error: not a join mode
    expect(() => new DocumentJoiner({ joinMode: "zip" })).toThrow(/joinMode/);
  });

  test("an empty input gives an empty output in every mode", async () => {
    for (const joinMode of [
      "concatenate",
      "merge",
      "reciprocal_rank_fusion",
      "distribution_based_rank_fusion",
    ] as const) {
      const joiner = new DocumentJoiner({ joinMode });
      expect((await joiner.run({ documents: [[], []] }, quiet)).documents).toEqual([]);
    }
  });

  test("joins two retrievers in a pipeline: one copy of a document found by both, fused first", async () => {
    const store = new InMemoryDocumentStore();
    const { documents: chunks = [] } = await new DocumentSplitter({
      splitBy: "sentence",
      splitLength: 1,
    }).run({
      documents: [
        new Document({
          content: "Paris is the capital of France. Berlin is the capital of Germany. Rome is in Italy.",
        }),
      ],
    });
    await store.writeDocuments(chunks);
    const pipeline = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("by_city", new InMemoryBM25Retriever({ documentStore: store, topK: 2 }))
      .addComponent("by_country", new InMemoryBM25Retriever({ documentStore: store, topK: 2 }))
      .addComponent("joiner", new DocumentJoiner({ joinMode: "reciprocal_rank_fusion" }));
    pipeline.connect("by_city.documents", "joiner.documents");
    pipeline.connect("by_country.documents", "joiner.documents");
    const result = (await pipeline.run({
      by_city: { query: "Paris" },
      by_country: { query: "France capital" },
    })) as {
      joiner: { documents: Document[] };
    };
    const joined = result.joiner.documents;
    expect(joined[0]?.content).toBe("Paris is the capital of France. ");
    expect(joined[0]?.score).toBe(1);
    expect(new Set(joined.map((document) => document.id)).size).toBe(joined.length);
  });
});
