import {
  type ComponentRunOptions,
  JunctionError,
  MemoryLogger,
  Pipeline,
  Secret,
  serializeComponent,
} from "@junction/core";
import { Document, EmbeddingError, isEmbeddingProgress } from "@junction/documents";
import { OpenAIApiError, OpenAIDocumentEmbedder, OpenAITextEmbedder } from "@junction/openai";
import { describe, expect, it, vi } from "vitest";
import {
  EMBED_TEST_KEY,
  tokensFor,
  useEmbeddingsHarness,
  vectorFor,
} from "./support/fake-embeddings-server.js";

const h = useEmbeddingsHarness();

/** Runs a document embedder directly; both outputs are always set. */
async function embed(
  embedder: OpenAIDocumentEmbedder,
  documents: Document[],
  options: ComponentRunOptions = {},
) {
  const { documents: embedded, meta } = await embedder.run({ documents }, options);
  if (embedded === undefined || meta === undefined) throw new Error("an output is missing");
  return { documents: embedded, meta };
}

function docs(count: number): Document[] {
  return Array.from({ length: count }, (_, index) => new Document({ content: `document number ${index}` }));
}

describe("OpenAITextEmbedder", () => {
  it("embeds prefix + text + suffix and reports the answering model and usage", async () => {
    const embedder = new OpenAITextEmbedder({
      model: "text-embedding-3-small",
      baseURL: h.server.baseURL,
      dimensions: 5,
      prefix: "query: ",
      suffix: "!",
    });
    const result = await embedder.run({ text: "capital of France" });
    expect(result).toEqual({
      embedding: vectorFor("query: capital of France!", 5),
      meta: {
        model: "text-embedding-3-small-served",
        usage: { prompt_tokens: 4, total_tokens: 4 },
      },
    });
    expect(h.server.requests).toHaveLength(1);
    expect(h.server.requests[0]?.body).toEqual({
      model: "text-embedding-3-small",
      input: "query: capital of France!",
      encoding_format: "float",
      dimensions: 5,
    });
    expect(h.server.requests[0]?.headers.authorization).toBe(`Bearer ${EMBED_TEST_KEY}`);
  });

  it("defaults to Haystack's model and sends no dimensions unless set", async () => {
    await new OpenAITextEmbedder({ baseURL: h.server.baseURL }).run({ text: "hi" });
    expect(h.server.requests[0]?.body).toEqual({
      model: "text-embedding-ada-002",
      input: "hi",
      encoding_format: "float",
    });
  });

  it("without a key or a baseURL, says which variable to set", async () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    await expect(new OpenAITextEmbedder().run({ text: "hi" })).rejects.toThrow(
      /^OpenAITextEmbedder: no API key\. Set the environment variable "OPENAI_API_KEY"/,
    );
    expect(h.server.requests).toHaveLength(0);
  });

  it("refuses a list of documents and points to the document embedder", async () => {
    const embedder = new OpenAITextEmbedder({ baseURL: h.server.baseURL });
    const run = embedder.run({ text: docs(1) as unknown as string });
    await expect(run).rejects.toThrow(/use OpenAIDocumentEmbedder/);
    expect(h.server.requests).toHaveLength(0);
  });

  it("refuses documents at the pipeline boundary with the same hint", async () => {
    const pipeline = new Pipeline().addComponent(
      "query",
      new OpenAITextEmbedder({ baseURL: h.server.baseURL }),
    );
    await expect(pipeline.run({ query: { text: docs(2) } })).rejects.toThrow(/use OpenAIDocumentEmbedder/);
    expect(h.server.requests).toHaveLength(0);
  });

  it("reports a server error as a redacted OpenAIApiError naming the embedder", async () => {
    h.server.on(0, { kind: "fail", status: 401, message: `bad key ${EMBED_TEST_KEY}` });
    const embedder = new OpenAITextEmbedder({ baseURL: h.server.baseURL, maxRetries: 0 });
    const error = await embedder.run({ text: "hi" }).catch((caught: unknown) => caught);
    expect(OpenAIApiError.isInstance(error)).toBe(true);
    expect((error as OpenAIApiError).status).toBe(401);
    expect((error as Error).message).toMatch(
      /^OpenAITextEmbedder: the call to model "text-embedding-ada-002" failed with HTTP 401/,
    );
    expect((error as Error).message).not.toContain(EMBED_TEST_KEY);
  });
});

describe("OpenAIDocumentEmbedder", () => {
  it("embeds in batches of batchSize and puts each embedding on its document, ids unchanged", async () => {
    const input = docs(5);
    const embedder = new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL, batchSize: 2 });
    const { documents, meta } = await embed(embedder, input);
    expect(h.server.requests.map((request) => request.body.input)).toEqual([
      ["document number 0", "document number 1"],
      ["document number 2", "document number 3"],
      ["document number 4"],
    ]);
    expect(documents.map((doc) => doc.id)).toEqual(input.map((doc) => doc.id));
    expect(documents.map((doc) => doc.embedding)).toEqual(input.map((doc) => vectorFor(doc.content ?? "")));
    expect(documents.map((doc) => doc.content)).toEqual(input.map((doc) => doc.content));
    const tokens = input.reduce((sum, doc) => sum + tokensFor(doc.content ?? ""), 0);
    expect(meta).toEqual({
      model: "text-embedding-ada-002-served",
      usage: { prompt_tokens: tokens, total_tokens: tokens },
      failed_documents: [],
    });
  });

  it("composes prefix + meta values + content + suffix with the separator, as Haystack", async () => {
    const embedder = new OpenAIDocumentEmbedder({
      baseURL: h.server.baseURL,
      prefix: "passage: ",
      suffix: " <end>",
      metaFieldsToEmbed: ["title", "year", "draft", "missing", "empty"],
      embeddingSeparator: " | ",
      dimensions: 8,
    });
    const input = [
      new Document({ content: "Body.", meta: { title: "Paris", year: 2024, draft: false, empty: null } }),
      new Document({ meta: { title: "No content" } }),
      new Document({ content: "Plain." }),
    ];
    const { documents } = await embed(embedder, input);
    const sent = [
      "passage: Paris | 2024 | False | Body. <end>",
      "passage: No content |  <end>",
      "passage: Plain. <end>",
    ];
    expect(h.server.requests[0]?.body.input).toEqual(sent);
    expect(h.server.requests[0]?.body.dimensions).toBe(8);
    expect(documents.map((doc) => doc.embedding)).toEqual(sent.map((text) => vectorFor(text, 8)));
  });

  it("embeds documents that share an id once and gives each copy the embedding", async () => {
    const first = new Document({ id: "same", content: "first text" });
    const second = new Document({ id: "same", content: "second text" });
    const other = new Document({ content: "other" });
    const embedder = new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL });
    const { documents } = await embed(embedder, [first, other, second]);
    expect(h.server.requests[0]?.body.input).toEqual(["second text", "other"]);
    expect(documents.map((doc) => [doc.id, doc.content, doc.embedding])).toEqual([
      ["same", "first text", vectorFor("second text")],
      [other.id, "other", vectorFor("other")],
      ["same", "second text", vectorFor("second text")],
    ]);
  });

  it("matches embeddings to texts by the answer's index, not its order", async () => {
    h.server.reverseOrder = true;
    const input = docs(3);
    const { documents } = await embed(new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL }), input);
    expect(documents.map((doc) => doc.embedding)).toEqual(input.map((doc) => vectorFor(doc.content ?? "")));
  });

  it("returns no documents and zero usage for an empty list without calling the server", async () => {
    const { documents, meta } = await embed(new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL }), []);
    expect(documents).toEqual([]);
    expect(meta).toEqual({
      model: "text-embedding-ada-002",
      usage: { prompt_tokens: 0, total_tokens: 0 },
      failed_documents: [],
    });
    expect(h.server.requests).toHaveLength(0);
  });

  it("warns about a failed batch, naming its documents and the error, and lists them in meta", async () => {
    h.server.on(1, { kind: "fail", status: 500, message: "model overloaded" });
    const input = docs(5);
    const logger = new MemoryLogger();
    const embedder = new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL, batchSize: 2, maxRetries: 0 });
    const { documents, meta } = await embed(embedder, input, { logger });
    const failedIds = [input[2]?.id, input[3]?.id];
    expect(meta.failed_documents).toEqual(failedIds);
    expect(documents.map((doc) => doc.embedding === undefined)).toEqual([false, false, true, true, false]);
    expect(documents.map((doc) => doc.id)).toEqual(input.map((doc) => doc.id));
    const tokens = [0, 1, 4].reduce((sum, index) => sum + tokensFor(input[index]?.content ?? ""), 0);
    expect(meta.usage).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
    const warnings = logger.records.filter((record) => record.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("OpenAIDocumentEmbedder: batch 2 of 3");
    expect(warnings[0]?.message).toContain(`"${input[2]?.id}", "${input[3]?.id}"`);
    expect(warnings[0]?.message).toContain("model overloaded");
    expect(warnings[0]?.fields.documentIds).toEqual(failedIds);
  });

  it("with raiseOnFailure throws an EmbeddingError naming the batch and stops", async () => {
    h.server.on(1, { kind: "fail", status: 500, message: "model overloaded" });
    const input = docs(5);
    const embedder = new OpenAIDocumentEmbedder({
      baseURL: h.server.baseURL,
      batchSize: 2,
      maxRetries: 0,
      raiseOnFailure: true,
    });
    const error = await embed(embedder, input).catch((caught: unknown) => caught);
    expect(EmbeddingError.isInstance(error)).toBe(true);
    const embeddingError = error as EmbeddingError;
    expect(embeddingError.batch).toBe(2);
    expect(embeddingError.batchCount).toBe(3);
    expect(embeddingError.documentIds).toEqual([input[2]?.id, input[3]?.id]);
    expect(embeddingError.message).toMatch(/^OpenAIDocumentEmbedder: batch 2 of 3 \(documents "/);
    expect(OpenAIApiError.isInstance(embeddingError.cause)).toBe(true);
    expect((embeddingError.cause as OpenAIApiError).status).toBe(500);
    expect(h.server.requests).toHaveLength(2);
  });

  it("cancels the request in flight when the run's signal aborts", async () => {
    h.server.on(1, { kind: "hang" });
    const controller = new AbortController();
    const disconnected = h.server.nextDisconnect();
    const embedder = new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL, batchSize: 1 });
    const run = embedder.run({ documents: docs(3) }, { signal: controller.signal });
    const reason = new Error("stop now");
    while (h.server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    await disconnected;
    expect(h.server.requests).toHaveLength(2);
  });

  it("streams progress after each batch, in order, as chunk events of Pipeline.stream", async () => {
    const pipeline = new Pipeline().addComponent(
      "embedder",
      new OpenAIDocumentEmbedder({ baseURL: h.server.baseURL, batchSize: 2 }),
    );
    const seen: string[] = [];
    for await (const event of pipeline.stream({ embedder: { documents: docs(5) } })) {
      if (event.type === "chunk" && isEmbeddingProgress(event.chunk)) {
        seen.push(`${event.componentName} ${event.chunk.done}/${event.chunk.total}`);
      } else seen.push(event.type);
    }
    expect(seen).toEqual([
      "component_start",
      "embedder 2/5",
      "embedder 4/5",
      "embedder 5/5",
      "component_end",
      "run_end",
    ]);
  });

  it("round-trips through JSON and YAML with the key as an env-var reference", () => {
    const embedder = new OpenAIDocumentEmbedder({
      model: "text-embedding-3-small",
      apiKey: Secret.fromEnvVar("MY_EMBED_KEY"),
      baseURL: "http://localhost:11434/v1",
      dimensions: 256,
      prefix: "p",
      suffix: "s",
      batchSize: 8,
      metaFieldsToEmbed: ["title"],
      embeddingSeparator: " ",
      timeout: 5_000,
      maxRetries: 1,
      raiseOnFailure: true,
    });
    const doc = serializeComponent(embedder);
    expect(doc).toEqual({
      type: "junction.OpenAIDocumentEmbedder",
      init_parameters: {
        model: "text-embedding-3-small",
        apiKey: { type: "env_var", env_vars: ["MY_EMBED_KEY"], strict: true },
        baseURL: "http://localhost:11434/v1",
        dimensions: 256,
        prefix: "p",
        suffix: "s",
        batchSize: 8,
        metaFieldsToEmbed: ["title"],
        embeddingSeparator: " ",
        timeout: 5_000,
        maxRetries: 1,
        raiseOnFailure: true,
      },
    });
    const pipeline = new Pipeline()
      .addComponent("documents", embedder)
      .addComponent("query", new OpenAITextEmbedder({ prefix: "q: " }));
    const json = pipeline.toJSON();
    expect(Pipeline.fromJSON(json).toJSON()).toEqual(json);
    const yaml = pipeline.toYAML();
    expect(Pipeline.fromYAML(yaml).toYAML()).toBe(yaml);
    expect(Pipeline.fromYAML(yaml).toJSON()).toEqual(json);
  });

  it("refuses to write a literal API key", () => {
    const embedder = new OpenAITextEmbedder({ apiKey: Secret.fromToken(EMBED_TEST_KEY) });
    let thrown: unknown;
    try {
      serializeComponent(embedder);
    } catch (error) {
      thrown = error;
    }
    expect(JunctionError.isInstance(thrown)).toBe(true);
    expect(String((thrown as Error).message)).not.toContain(EMBED_TEST_KEY);
  });
});
