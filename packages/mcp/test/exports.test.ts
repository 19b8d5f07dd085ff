import * as api from "@junction/mcp";
import { expect, test } from "vitest";

test("@junction/mcp exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual(["MCPError", "MCPToolset", "resultToText"]);
});
