import { closestNames, didYouMean } from "@junction/core";
import { expect, test } from "vitest";

test("suggests the closest names for typos, swaps and case slips", () => {
  expect(closestNames("nmu", ["num", "double", "sum"])).toEqual(["num"]);
  expect(closestNames("exit_reasn", ["exit_reason", "last_message"])).toEqual(["exit_reason"]);
  expect(closestNames("Documents", ["documents", "messages"])).toEqual(["documents"]);
  expect(closestNames("weather", ["weather_tool", "clock"])).toEqual(["weather_tool"]);
});

test("suggests nothing when no name is close", () => {
  expect(closestNames("prompt", ["llm", "router"])).toEqual([]);
  expect(didYouMean("prompt", ["llm", "router"])).toBe("");
});

test("didYouMean writes a sentence to append to a message", () => {
  expect(didYouMean("nmu", ["num"])).toBe(' Did you mean "num"?');
  expect(didYouMean("lm", ["llm", "lm2"])).toBe(' Did you mean "llm" or "lm2"?');
});
