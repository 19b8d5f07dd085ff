import { type PlannableTool, planToolCalls } from "@junction/agents";
import { describe, expect, test } from "vitest";

const reader = (key: string, name = "reader_tool"): PlannableTool => ({
  name,
  inputsFromState: { [key]: "value" },
});
const writer = (key: string, name = "writer_tool"): PlannableTool => ({
  name,
  outputsToState: { [key]: { source: "out" } },
});
const retrieval: PlannableTool = {
  name: "retrieval_tool",
  inputsFromState: { documents: "documents" },
  outputsToState: { documents: {} },
};
const stateTool: PlannableTool = { name: "state_tool", needsState: true };
const call = (toolName: string, args: Record<string, unknown> = {}) => ({ toolName, arguments: args });

describe("planToolCalls", () => {
  test("no calls → no batches", () => {
    expect(planToolCalls([], [])).toEqual([]);
  });
  test("a single call is one batch", () => {
    expect(planToolCalls([call("writer_tool")], [writer("documents")])).toEqual([[0]]);
  });
  test("read-only calls run in one batch", () => {
    expect(planToolCalls([call("reader_tool"), call("reader_tool")], [reader("documents")])).toEqual([
      [0, 1],
    ]);
  });
  test("disjoint keys run in one batch", () => {
    expect(planToolCalls([call("writer_tool"), call("reader_tool")], [writer("a"), reader("b")])).toEqual([
      [0, 1],
    ]);
  });
  test("writer then reader serializes", () => {
    expect(
      planToolCalls([call("writer_tool"), call("reader_tool")], [writer("docs"), reader("docs")]),
    ).toEqual([[0], [1]]);
  });
  test("a reader requested before its writer is moved after it", () => {
    expect(
      planToolCalls([call("reader_tool"), call("writer_tool")], [reader("docs"), writer("docs")]),
    ).toEqual([[1], [0]]);
  });
  test("write-write overlap alone creates no order", () => {
    expect(planToolCalls([call("writer_tool"), call("writer_tool")], [writer("docs")])).toEqual([[0, 1]]);
  });
  test("a read/write cycle is broken by call index", () => {
    expect(planToolCalls([call("retrieval_tool"), call("retrieval_tool")], [retrieval])).toEqual([[0], [1]]);
  });
  test("a tool that needs the whole State is a barrier", () => {
    const calls = [call("reader_tool"), call("state_tool"), call("writer_tool")];
    expect(planToolCalls(calls, [reader("a"), stateTool, writer("b")])).toEqual([[2], [1], [0]]);
  });
  test("two whole-State tools run one after the other", () => {
    expect(planToolCalls([call("state_tool"), call("state_tool")], [stateTool])).toEqual([[0], [1]]);
  });
  test("an argument the model supplied is not a State read", () => {
    const calls = [call("reader_tool", { value: "provided" }), call("writer_tool")];
    expect(planToolCalls(calls, [reader("docs"), writer("docs")])).toEqual([[0, 1]]);
  });
  test("independent calls share the first batch while dependants wait", () => {
    const tools = [writer("documents", "search"), reader("documents", "summarize"), { name: "weather" }];
    const calls = [call("summarize"), call("search"), call("weather"), call("search")];
    expect(planToolCalls(calls, tools)).toEqual([[1, 2, 3], [0]]);
  });
  test("a chain of dependencies yields one batch per link", () => {
    const tools: PlannableTool[] = [
      { name: "a", outputsToState: { x: {} } },
      { name: "b", inputsFromState: { x: "x" }, outputsToState: { y: {} } },
      { name: "c", inputsFromState: { y: "y" } },
    ];
    expect(planToolCalls([call("c"), call("b"), call("a")], tools)).toEqual([[2], [1], [0]]);
  });
  test("a call to an unknown tool touches no State", () => {
    expect(planToolCalls([call("missing"), call("reader_tool")], [reader("docs")])).toEqual([[0, 1]]);
  });
});
