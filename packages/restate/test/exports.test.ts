import * as api from "@junction/restate";
import { expect, test } from "vitest";

test("@junction/restate exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "DefinitionChangedError",
    "decodeRunInputs",
    "definitionFingerprint",
    "junctionChatThread",
    "junctionWorkflow",
    "restateDurable",
    "serveJunction",
  ]);
});
