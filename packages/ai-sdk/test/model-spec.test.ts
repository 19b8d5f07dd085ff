import "@junction/ai-sdk";
import { createRegistry, DeserializationError, Pipeline } from "@junction/core";
import { MockEmbeddingModelV3, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";

/** A document holding one component whose model is `{ factory, modelId }`. */
function documentWith(type: string, model: unknown) {
  return { version: 1, components: { c: { type, init_parameters: { model } } }, connections: [] };
}

function loadError(type: string, model: unknown, registry = createRegistry()): DeserializationError {
  try {
    Pipeline.fromJSON(documentWith(type, model), { registry });
  } catch (error) {
    if (error instanceof DeserializationError) return error;
    throw error;
  }
  throw new Error("the document loaded");
}

describe("a saved AI SDK model ({ factory, modelId }) is read back, or refused with its path", () => {
  it("an embedder whose factory makes a language model names the kind it needed", () => {
    const registry = createRegistry().registerFunction("mock.language", () => new MockLanguageModelV3());
    const error = loadError(
      "junction.AISDKTextEmbedder",
      { factory: "mock.language", modelId: "m" },
      registry,
    );
    expect(error.message).toContain(
      'the function "mock.language" did not return an AI SDK embedding model (specification "v2", "v3" or "v4") for "m".',
    );
  });

  it("a chat generator whose factory makes an embedding model names the kind it needed", () => {
    const registry = createRegistry().registerFunction("mock.embedding", () => new MockEmbeddingModelV3());
    const error = loadError(
      "junction.AISDKChatGenerator",
      { factory: "mock.embedding", modelId: "m" },
      registry,
    );
    expect(error.message).toContain("did not return an AI SDK language model");
  });

  it("a factory that throws is reported with its message; a bad shape says what it must be", () => {
    const registry = createRegistry().registerFunction("mock.broken", () => {
      throw new Error("no such model");
    });
    expect(
      loadError("junction.AISDKDocumentEmbedder", { factory: "mock.broken", modelId: "x" }, registry).message,
    ).toContain('the model factory "mock.broken" failed for "x": no such model');
    expect(loadError("junction.AISDKChatGenerator", "gpt").message).toContain(
      'must be { "factory": "<registered function name>", "modelId": "<model id>" }.',
    );
  });
});
