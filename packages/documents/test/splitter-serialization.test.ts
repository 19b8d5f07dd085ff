import { createRegistry, defaultRegistry, MemoryLogger, Pipeline } from "@junction/core";
import {
  Document,
  DocumentCleaner,
  DocumentJoiner,
  DocumentSplitter,
  LostInTheMiddleRanker,
  MetaFieldRanker,
  RecursiveDocumentSplitter,
} from "@junction/documents";
import { describe, expect, test } from "vitest";

/** Every preprocessing component, with non-default options, in one pipeline. */
function preprocessingPipeline(): Pipeline {
  const pipeline = new Pipeline({ logger: new MemoryLogger() })
    .addComponent(
      "cleaner",
      new DocumentCleaner({
        removeRegex: "\\[\\d+\\]",
        replaceRegexes: { "(\\w+)@example": "$1@redacted" },
        keepId: true,
      }),
    )
    .addComponent(
      "splitter",
      new DocumentSplitter({ splitBy: "sentence", splitLength: 2, splitOverlap: 1, language: "en" }),
    )
    .addComponent(
      "recursive",
      new RecursiveDocumentSplitter({
        splitLength: 6,
        splitOverlap: 2,
        splitUnit: "word",
        separators: ["\n\n", "sentence"],
      }),
    )
    .addComponent(
      "joiner",
      new DocumentJoiner({ joinMode: "reciprocal_rank_fusion", weights: [2, 1], topK: 6 }),
    )
    .addComponent(
      "meta_ranker",
      new MetaFieldRanker({
        metaField: "split_id",
        sortOrder: "ascending",
        weight: 0.5,
        missingMeta: "drop",
      }),
    )
    .addComponent("middle", new LostInTheMiddleRanker({ topK: 5, wordCountThreshold: 400 }));
  pipeline.connect("cleaner.documents", "splitter.documents");
  pipeline.connect("cleaner.documents", "recursive.documents");
  pipeline.connect("splitter.documents", "joiner.documents");
  pipeline.connect("recursive.documents", "joiner.documents");
  pipeline.connect("joiner.documents", "meta_ranker.documents");
  pipeline.connect("meta_ranker.documents", "middle.documents");
  return pipeline;
}

const inputs = {
  cleaner: {
    documents: [
      new Document({
        content:
          "Write to ann@example today [1]. The second sentence follows.\n\nA new paragraph starts here. It ends here! Does it?",
        meta: { source: "mail" },
      }),
    ],
  },
};

describe("preprocessing components in pipeline documents", () => {
  test("a splittingFunction is written by its registered name and resolved on load", async () => {
    const byDots = (text: string) => text.split(".");
    const registry = createRegistry().registerFunction("test.byDots", byDots);
    const pipeline = new Pipeline().addComponent(
      "split",
      new DocumentSplitter({ splitBy: "function", splittingFunction: byDots }),
    );
    const json = pipeline.toJSON({ registry });
    const written = (json.components as Record<string, { init_parameters: Record<string, unknown> }>).split;
    expect(written?.init_parameters.splittingFunction).toBe("test.byDots");
    const loaded = Pipeline.fromJSON(json, { registry });
    const result = await loaded.run({ split: { documents: [new Document({ content: "a.b" })] } });
    expect((result as { split: { documents: Document[] } }).split.documents.map((d) => d.content)).toEqual([
      "a",
      "b",
    ]);
    expect(() => pipeline.toJSON()).toThrow(/registerFunction/);
  });

  test("each is registered in the default registry under its junction.* name", () => {
    const classes = {
      "junction.DocumentJoiner": DocumentJoiner,
      "junction.DocumentSplitter": DocumentSplitter,
      "junction.RecursiveDocumentSplitter": RecursiveDocumentSplitter,
      "junction.DocumentCleaner": DocumentCleaner,
      "junction.LostInTheMiddleRanker": LostInTheMiddleRanker,
      "junction.MetaFieldRanker": MetaFieldRanker,
    };
    for (const [type, componentClass] of Object.entries(classes)) {
      expect(defaultRegistry.getComponentClass(type)).toBe(componentClass);
    }
  });

  test("a pipeline of all of them survives JSON and YAML and runs the same", async () => {
    const pipeline = preprocessingPipeline();
    const json = JSON.parse(JSON.stringify(pipeline.toJSON())) as Record<string, unknown>;
    const fromJSON = Pipeline.fromJSON(json);
    const fromYAML = Pipeline.fromYAML(pipeline.toYAML());
    expect(fromJSON.toJSON()).toEqual(json);
    expect(fromYAML.toJSON()).toEqual(json);
    const expected = await pipeline.run(inputs);
    const documents = (expected as { middle: { documents: Document[] } }).middle.documents;
    expect(documents.length).toBeGreaterThan(0);
    expect(documents.every((document) => !document.content?.includes("[1]"))).toBe(true);
    expect(documents.some((document) => document.content?.includes("ann@redacted"))).toBe(true);
    expect(await fromJSON.run(inputs)).toEqual(expected);
    expect(await fromYAML.run(inputs)).toEqual(expected);
  });
});
