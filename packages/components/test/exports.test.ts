import * as api from "@junction/components";
import { expect, test } from "vitest";

test("@junction/components exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "BranchJoiner",
    "ChatPromptBuilder",
    "ConditionalRouter",
    "ListJoiner",
    "NoRouteSelectedError",
    "OutputAdaptationError",
    "OutputAdapter",
    "PromptBuilder",
    "PromptRenderError",
    "RouteConditionError",
    "StringJoiner",
  ]);
});
