import type { EmbeddingModelV2, EmbeddingModelV3CallOptions } from "@ai-sdk/provider";
import { AISDKDocumentEmbedder, AISDKTextEmbedder } from "@junction/ai-sdk";
import {
  type ComponentRunOptions,
  createRegistry,
  deserializeComponent,
  MemoryLogger,
  Pipeline,
  serializeComponent,
} from "@junction/core";
import { Document, EmbeddingError, isEmbeddingProgress } from "@junction/documents";
import { MockEmbeddingModelV3, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";

/** A deterministic vector for a text. */
function vectorFor(text: string): number[] {
  return [text.length, text.charCodeAt(0) || 0, text.split(" ").length];
}

/** A v3 mock that embeds with {@link vectorFor} and reports one token per text. */
function mockModel(options: { maxEmbeddingsPerCall?: number; modelId?: string; failCall?: number } = {}) {
  let calls = 0;
  return new MockEmbeddingModelV3({
    modelId: options.modelId ?? "mock-embed",
    maxEmbeddingsPerCall: options.maxEmbeddingsPerCall ?? 100,
    doEmbed: async ({ values }: EmbeddingModelV3CallOptions) => {
      calls += 1;
      if (calls === options.failCall) throw new Error("provider overloaded");
      return { embeddings: values.map(vectorFor), usage: { tokens: values.length }, warnings: [] };
    },
  });
}

function docs(count: number): Document[] {
  return Array.from({ length: count }, (_, index) => new Document({ content: `text ${index}` }));
}

async function embed(
  embedder: AISDKDocumentEmbedder,
  documents: Document[],
  options: ComponentRunOptions = {},
) {
  const { documents: embedded, meta } = await embedder.run({ documents }, options);
  if (embedded === undefined || meta === undefined) throw new Error("an output is missing");
  return { documents: embedded, meta };
}

describe("AISDKTextEmbedder", () => {
  it("embeds prefix + text + suffix and reports the model id and usage", async () => {
    const model = mockModel();
    const embedder = new AISDKTextEmbedder({
      model,
      prefix: "query: ",
      suffix: "?",
      providerOptions: { mock: { x: 1 } },
    });
    const controller = new AbortController();
    const result = await embedder.run({ text: "capital" }, { signal: controller.signal });
    expect(result).toEqual({
      embedding: vectorFor("query: capital?"),
      meta: { model: "mock-embed", usage: { prompt_tokens: 1, total_tokens: 1 } },
    });
    expect(model.doEmbedCalls).toHaveLength(1);
    expect(model.doEmbedCalls[0]?.values).toEqual(["query: capital?"]);
    expect(model.doEmbedCalls[0]?.abortSignal).toBe(controller.signal);
    expect(model.doEmbedCalls[0]?.providerOptions).toEqual({ mock: { x: 1 } });
  });

  it("refuses a list of documents and points to the document embedder", async () => {
    const embedder = new AISDKTextEmbedder({ model: mockModel() });
    await expect(embedder.run({ text: docs(1) as unknown as string })).rejects.toThrow(
      /use AISDKDocumentEmbedder/,
    );
  });

  it("accepts a specification v2 model and refuses a language model with a hint", async () => {
    const v2: EmbeddingModelV2<string> = {
      specificationVersion: "v2",
      provider: "legacy",
      modelId: "legacy-embed",
      maxEmbeddingsPerCall: undefined,
      supportsParallelCalls: false,
      doEmbed: async ({ values }) => ({ embeddings: values.map(vectorFor) }),
    };
    const result = await new AISDKTextEmbedder({ model: v2 }).run({ text: "hello" });
    expect(result.embedding).toEqual(vectorFor("hello"));
    expect(result.meta).toEqual({ model: "legacy-embed", usage: { prompt_tokens: 0, total_tokens: 0 } });
    expect(() => new AISDKTextEmbedder({ model: new MockLanguageModelV3() as never })).toThrow(
      /a language model \(it has `doGenerate`\), not an embedding model.*openai\.embedding/,
    );
  });
});

describe("AISDKDocumentEmbedder", () => {
  it("embeds in batches capped by maxEmbeddingsPerCall and puts each embedding on its document", async () => {
    const model = mockModel({ maxEmbeddingsPerCall: 2 });
    const input = docs(5);
    const { documents, meta } = await embed(new AISDKDocumentEmbedder({ model, batchSize: 32 }), input);
    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([
      ["text 0", "text 1"],
      ["text 2", "text 3"],
      ["text 4"],
    ]);
    expect(documents.map((doc) => doc.id)).toEqual(input.map((doc) => doc.id));
    expect(documents.map((doc) => doc.embedding)).toEqual(input.map((doc) => vectorFor(doc.content ?? "")));
    expect(meta).toEqual({
      model: "mock-embed",
      usage: { prompt_tokens: 5, total_tokens: 5 },
      failed_documents: [],
    });
  });

  it("composes prefix + meta values + content + suffix with the separator", async () => {
    const model = mockModel();
    const embedder = new AISDKDocumentEmbedder({
      model,
      prefix: "passage: ",
      metaFieldsToEmbed: ["title", "page"],
      embeddingSeparator: " - ",
      suffix: ".",
    });
    await embed(embedder, [
      new Document({ content: "Body", meta: { title: "Intro", page: 3 } }),
      new Document({ content: "x", meta: { page: null } }),
    ]);
    expect(model.doEmbedCalls[0]?.values).toEqual(["passage: Intro - 3 - Body.", "passage: x."]);
  });

  it("warns about a failed call, naming its documents, and lists them in meta", async () => {
    const input = docs(4);
    const logger = new MemoryLogger();
    const embedder = new AISDKDocumentEmbedder({ model: mockModel({ failCall: 1 }), batchSize: 2 });
    const { documents, meta } = await embed(embedder, input, { logger });
    expect(meta.failed_documents).toEqual([input[0]?.id, input[1]?.id]);
    expect(meta.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    expect(documents.map((doc) => doc.embedding === undefined)).toEqual([true, true, false, false]);
    const warnings = logger.records.filter((record) => record.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("AISDKDocumentEmbedder: batch 1 of 2");
    expect(warnings[0]?.message).toContain(`"${input[0]?.id}", "${input[1]?.id}"`);
    expect(warnings[0]?.message).toContain("provider overloaded");
  });

  it("with raiseOnFailure throws an EmbeddingError naming the batch", async () => {
    const input = docs(4);
    const embedder = new AISDKDocumentEmbedder({
      model: mockModel({ failCall: 2 }),
      batchSize: 2,
      raiseOnFailure: true,
    });
    const error = await embed(embedder, input).catch((caught: unknown) => caught);
    expect(EmbeddingError.isInstance(error)).toBe(true);
    expect((error as EmbeddingError).batch).toBe(2);
    expect((error as EmbeddingError).documentIds).toEqual([input[2]?.id, input[3]?.id]);
    expect((error as Error).message).toMatch(/^AISDKDocumentEmbedder: batch 2 of 2 .*provider overloaded/);
  });

  it("passes the run's signal to the call in flight and rejects with its reason", async () => {
    let seen: AbortSignal | undefined;
    const model = new MockEmbeddingModelV3({
      doEmbed: ({ abortSignal }: EmbeddingModelV3CallOptions) =>
        new Promise((_, reject) => {
          seen = abortSignal;
          abortSignal?.addEventListener("abort", () => reject(new Error("request cancelled")));
        }),
    });
    const controller = new AbortController();
    const run = embed(new AISDKDocumentEmbedder({ model }), docs(2), { signal: controller.signal });
    while (seen === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    const reason = new Error("user stopped");
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(seen.aborted).toBe(true);
  });

  it("streams progress after each call, in order, in Pipeline.stream", async () => {
    const pipeline = new Pipeline().addComponent(
      "embed",
      new AISDKDocumentEmbedder({ model: mockModel(), batchSize: 3 }),
    );
    const progress: string[] = [];
    for await (const event of pipeline.stream({ embed: { documents: docs(7) } })) {
      if (event.type === "chunk" && isEmbeddingProgress(event.chunk))
        progress.push(`${event.chunk.done}/${event.chunk.total}`);
    }
    expect(progress).toEqual(["3/7", "6/7", "7/7"]);
  });

  it("saves the model as its registered factory and id, and loads it back (JSON and YAML)", () => {
    const factory = (modelId: string) => mockModel({ modelId });
    const registry = createRegistry().registerFunction("mock.embedding", factory);
    const embedder = new AISDKDocumentEmbedder({
      model: factory("embed-small"),
      modelFactory: factory,
      batchSize: 16,
      metaFieldsToEmbed: ["title"],
      providerOptions: { mock: { dimensions: 8 } },
    });
    const doc = serializeComponent(embedder, { registry });
    expect(doc).toEqual({
      type: "junction.AISDKDocumentEmbedder",
      init_parameters: {
        model: { factory: "mock.embedding", modelId: "embed-small" },
        providerOptions: { mock: { dimensions: 8 } },
        prefix: "",
        suffix: "",
        batchSize: 16,
        metaFieldsToEmbed: ["title"],
        embeddingSeparator: "\n",
        raiseOnFailure: false,
      },
    });
    const loaded = deserializeComponent(doc, { registry }) as AISDKDocumentEmbedder;
    expect(loaded.params.model.modelId).toBe("embed-small");
    expect(loaded.params.modelFactory).toBe(factory);
    const pipeline = new Pipeline()
      .addComponent("docs", embedder)
      .addComponent("query", new AISDKTextEmbedder({ model: factory("embed-small"), modelFactory: factory }));
    const yaml = pipeline.toYAML({ registry });
    expect(Pipeline.fromYAML(yaml, { registry }).toYAML({ registry })).toBe(yaml);
    const json = pipeline.toJSON({ registry });
    expect(Pipeline.fromJSON(json, { registry }).toJSON({ registry })).toEqual(json);
  });

  it("refuses to save a model without modelFactory, saying how to fix it", () => {
    expect(() => serializeComponent(new AISDKTextEmbedder({ model: mockModel() }))).toThrow(/modelFactory/);
  });
});
