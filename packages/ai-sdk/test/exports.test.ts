import * as api from "@junction/ai-sdk";
import { expect, test } from "vitest";

test("@junction/ai-sdk exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "AISDKChatGenerator",
    "AISDKDocumentEmbedder",
    "AISDKTextEmbedder",
    "aiSDKChatGeneratorParamsSchema",
    "aiSDKDocumentEmbedderParamsSchema",
    "aiSDKTextEmbedderParamsSchema",
    "isAISDKEmbeddingModel",
    "isAISDKLanguageModel",
    "mapFinishReason",
    "supportedEmbeddingSpecificationVersions",
    "supportedSpecificationVersions",
    "toPrompt",
    "toUsage",
  ]);
});
