import { flattenTools, Tool, ToolDefinitionError, Toolset, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

function numberTool(
  name: string,
  op: (a: number, b: number) => number,
): Tool<{ a: number; b: number }, number> {
  return tool({
    name,
    description: `${name} two numbers`,
    parameters: z.object({ a: z.number(), b: z.number() }),
    function: ({ a, b }) => op(a, b),
  });
}

const add = numberTool("add", (a, b) => a + b);
const multiply = numberTool("multiply", (a, b) => a * b);
const subtract = numberTool("subtract", (a, b) => a - b);

describe("Toolset", () => {
  test("holds several tools, iterable, with size, has and get", async () => {
    const toolset = new Toolset([add, multiply]);
    expect([...toolset].map((t) => t.name)).toEqual(["add", "multiply"]);
    expect(toolset.size).toBe(2);
    expect(toolset.has("add")).toBe(true);
    expect(toolset.has(multiply)).toBe(true);
    expect(toolset.has("divide")).toBe(false);
    expect(toolset.has(subtract)).toBe(false);
    expect(await toolset.get("multiply")?.invoke({ a: 3, b: 4 })).toBe(12);
    expect(toolset.dynamic).toBe(false);
  });

  test("add appends tools and flattens toolsets", () => {
    const toolset = new Toolset([add]).add(multiply).add(new Toolset([subtract]));
    expect(toolset.tools().map((t) => t.name)).toEqual(["add", "multiply", "subtract"]);
  });

  test("duplicate names are an error", () => {
    expect(() => new Toolset([add, numberTool("add", () => 0)])).toThrow(/duplicate tool names found: "add"/);
    expect(() => new Toolset([add]).add(add)).toThrow(ToolDefinitionError);
  });

  test("a single tool or a non-tool is rejected", () => {
    expect(() => new Toolset(add as never)).toThrow(/single Tool cannot be passed directly/);
    expect(() => new Toolset([{ name: "x" }] as never)).toThrow(/item 0 is not a Tool/);
  });

  test("spawn returns the same plain toolset", () => {
    const toolset = new Toolset([add]);
    expect(toolset.spawn()).toBe(toolset);
  });

  test("dynamic toolsets re-read their tools on every access", () => {
    const available = [add];
    const toolset = new Toolset(() => available);
    expect(toolset.dynamic).toBe(true);
    expect(toolset.tools().map((t) => t.name)).toEqual(["add"]);
    available.push(multiply);
    expect([...toolset].map((t) => t.name)).toEqual(["add", "multiply"]);
    available.push(add);
    expect(() => toolset.tools()).toThrow(/duplicate tool names/);
    expect(() => toolset.add(subtract)).toThrow(/dynamic toolset/);
  });

  test("warmUp warms every tool and can run twice", async () => {
    const calls: string[] = [];
    class CountingTool extends Tool {
      override async warmUp(): Promise<void> {
        calls.push(this.name);
      }
    }
    const warm = new CountingTool({
      name: "warm",
      description: "",
      parameters: { type: "object" },
      function: () => 1,
    });
    const toolset = new Toolset([warm, add]);
    await toolset.warmUp();
    await toolset.warmUp();
    expect(calls).toEqual(["warm", "warm"]);
  });
});

describe("flattenTools", () => {
  test("flattens tools and toolsets in order", () => {
    expect(flattenTools([add, new Toolset([multiply, subtract])]).map((t) => t.name)).toEqual([
      "add",
      "multiply",
      "subtract",
    ]);
    expect(flattenTools(new Toolset([add])).map((t) => t.name)).toEqual(["add"]);
    expect(flattenTools(undefined)).toEqual([]);
  });

  test("duplicate names across toolsets are an error", () => {
    expect(() => flattenTools([add, new Toolset([add])])).toThrow(/duplicate tool names found: "add"/);
  });
});
