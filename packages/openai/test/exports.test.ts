import * as api from "@junction/openai";
import { expect, test } from "vitest";

test("@junction/openai exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ARGUMENTS_ERROR_KEY",
    "MALFORMED_ARGUMENTS_KEY",
    "OpenAIApiError",
    "OpenAIChatGenerator",
    "OpenAIDocumentEmbedder",
    "OpenAITextEmbedder",
    "makeSchemaStrict",
    "openAIChatGeneratorParamsSchema",
    "openAIDocumentEmbedderParamsSchema",
    "openAITextEmbedderParamsSchema",
    "toOpenAIMessages",
    "zodToResponseFormat",
  ]);
});
