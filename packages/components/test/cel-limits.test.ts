import {
  ConditionalRouter,
  OutputAdaptationError,
  OutputAdapter,
  RouteConditionError,
} from "@junction/components";
import { ComponentError, Pipeline } from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/** Regular expressions run in linear time; expressions have a static cost limit and a step budget. */

const digits = "[0,1,2,3,4,5,6,7,8,9]";

function nestedAll(depth: number): string {
  const names = Array.from({ length: depth }, (_, index) => `v${index}`);
  let body = `${names.join(" + ")} >= 0`;
  for (const name of [...names].reverse()) body = `${digits}.all(${name}, ${body})`;
  return body;
}

function router(condition: string, limits?: { maxCost?: number; maxSteps?: number }) {
  return new ConditionalRouter({
    routes: [
      { condition, output: "'hit'", outputName: "hit", outputType: z.string() },
      { condition: "true", output: "'miss'", outputName: "miss", outputType: z.string() },
    ],
    ...(limits === undefined ? {} : { limits }),
  });
}

function adapter(expression: string, limits?: { maxCost?: number; maxSteps?: number }) {
  return new OutputAdapter({ expression, outputType: z.any(), ...(limits === undefined ? {} : { limits }) });
}

describe("matches() runs on a linear-time engine (RE2)", () => {
  test("a nested quantifier on a 30-character input answers at once instead of backtracking", async () => {
    const text = `${"a".repeat(30)}!`;
    expect(await router('text.matches("^(a+)+$")').run({ text })).toEqual({ miss: "miss" });
    expect(await adapter('text.matches("(x+x+)+y")').run({ text: "x".repeat(5_000) })).toEqual({
      output: false,
    });
    expect(await router("text.matches(pattern)").run({ text, pattern: "^(a|aa)*$" })).toEqual({
      miss: "miss",
    });
  });

  test("RE2 syntax and semantics: unanchored search, classes, flags", async () => {
    const check = adapter(
      '[a.matches("b+"), a.matches("^b+$"), a.matches("(?i)ABBC"), a.matches("\\\\d{3}")]',
    );
    expect(await check.run({ a: "abbc 123" })).toEqual({ output: [true, false, true, true] });
  });

  test("backreferences and lookaround are refused when the router is built, naming the route and the pattern", () => {
    const build = () =>
      new ConditionalRouter({
        routes: [
          { condition: 'x.matches("(a)\\\\1")', output: "x", outputName: "twice", outputType: z.string() },
          { condition: "true", output: 'x.matches("^(?=a)a")', outputName: "ahead", outputType: z.boolean() },
        ],
      });
    expect(build).toThrow(ComponentError);
    const message = (() => {
      try {
        build();
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    expect(message).toContain('route 0 ("twice"): the condition');
    expect(message).toContain('"(a)\\\\1" uses a backreference');
    expect(message).toContain('route 1 ("ahead"): the output "ahead"');
    expect(message).toContain('"^(?=a)a" uses lookaround');
  });

  test("a pattern from the input that RE2 refuses fails the run with the reason", async () => {
    const error = await router("x.matches(p)")
      .run({ x: "ab", p: "(?<=a)b" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouteConditionError);
    expect((error as Error).message).toMatch(/route 0 \("hit"\).*"\(\?<=a\)b" uses lookaround/s);
  });
});

describe("hints on a long invalid expression", () => {
  test("a condition of 300,000 `if`s is refused at once, and `if … else` on one line still gets its hint", () => {
    // The Python-conditional hint once scanned to the end of the line from every `if` (quadratic).
    expect(() => router("if ".repeat(300_000))).toThrow(/Reserved identifier: if/);
    expect(() => router("'a' if x else 'b'")).toThrow(/CEL writes a conditional as `cond \? a : b`/);
    expect(() => router("x == 1 elif y")).toThrow(/cond \? a : b/);
  });
});

describe("evaluation budget", () => {
  test("an expression whose static worst case is absurd is refused at construction, saying how to raise the limit", () => {
    expect(() => router(nestedAll(8))).toThrow(
      /route 0 \("hit"\): the condition has an estimated worst-case cost of \d+ steps, over limits\.maxCost \(1000000; default 1000000\).*raise limits\.maxCost/s,
    );
    expect(() => adapter(nestedAll(8))).toThrow(/limits\.maxCost/);
    const bound = `cel.bind(l, [${Array.from({ length: 1000 }, (_, index) => index)}], l.map(x, l.map(y, 1)))`;
    expect(() => adapter(bound)).toThrow(/limits\.maxCost/);
  });

  test("raising maxCost accepts a costly expression", async () => {
    expect(await router(nestedAll(3), { maxCost: 10_000_000 }).run({})).toEqual({ hit: "hit" });
  });

  test("an evaluation that depends on input sizes stops at maxSteps, naming the route and the limit", async () => {
    const items = Array.from({ length: 3_000 }, (_, index) => index);
    const error = await router("items.all(a, items.all(b, a + b >= 0))")
      .run({ items })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouteConditionError);
    expect((error as Error).message).toMatch(
      /the condition of route 0 \("hit"\) failed: the evaluation took more than 1000000 steps \(limits\.maxSteps.*raise limits\.maxSteps/s,
    );
    const outputError = await new ConditionalRouter({
      routes: [
        { condition: "true", output: "items.map(a, items.map(b, a))", outputName: "o", outputType: z.any() },
      ],
    })
      .run({ items })
      .catch((caught: unknown) => caught);
    expect((outputError as Error).message).toMatch(
      /the output "o" of route 0 \("o"\) failed: .*limits\.maxSteps/s,
    );
  });

  test("raising maxSteps lets a large evaluation finish", async () => {
    const items = Array.from({ length: 300 }, (_, index) => index);
    const expression = "items.all(a, items.all(b, a + b >= 0))";
    await expect(adapter(expression, { maxSteps: 1_000 }).run({ items })).rejects.toThrow(
      OutputAdaptationError,
    );
    expect(await adapter(expression, { maxSteps: 10_000_000 }).run({ items })).toEqual({ output: true });
  });

  test("a passed budget is reported even where CEL absorbs errors (|| and exists)", async () => {
    const items = Array.from({ length: 100_000 }, (_, index) => index);
    await expect(adapter("items.exists(x, x / 0 == 1) || true").run({ items })).rejects.toThrow(
      /limits\.maxSteps/,
    );
  });

  test("strings built by doubling are charged by size", async () => {
    let body = "size(s40) > 0";
    for (let index = 40; index >= 1; index -= 1)
      body = `cel.bind(s${index}, s${index - 1} + s${index - 1}, ${body})`;
    await expect(adapter(`cel.bind(s0, text, ${body})`).run({ text: "0123456789" })).rejects.toThrow(
      /limits\.maxSteps/,
    );
  });

  test("limits are params: they serialize and load back", () => {
    const pipeline = new Pipeline().addComponent("r", router("x > 1", { maxSteps: 5_000 }));
    const doc = pipeline.toJSON();
    expect(doc.components.r?.init_parameters).toMatchObject({ limits: { maxSteps: 5_000 } });
    expect(Pipeline.fromJSON(doc).toJSON()).toEqual(doc);
    expect(
      new Pipeline().addComponent("r", router("x > 1")).toJSON().components.r?.init_parameters,
    ).not.toHaveProperty("limits");
  });
});

describe("inputs are read lazily", () => {
  test("a condition's cost depends on what it reads, not on the size of the input", async () => {
    const items = Array.from({ length: 1_000_000 }, (_, index) => index);
    expect(await router("size(items) > 100000").run({ items })).toEqual({ hit: "hit" });
    const docs = Array.from({ length: 1_000_000 }, (_, id) => ({ id, content: "x" }));
    expect(await adapter("docs[999999].id").run({ docs })).toEqual({ output: 999_999 });
  }, 30_000);

  test("lists and maps read lazily behave as CEL data", async () => {
    const result = await adapter(
      "[x == [1, 2, 3], 2 in x, 'a' in m, size(m), type(m) == map, type(x) == list, x + [4], m.exists(k, k == 'b'), x.filter(v, v > 1)]",
    ).run({ x: [1, 2, 3], m: { a: 1, b: [2] } });
    expect(result).toEqual({ output: [true, true, true, 2, true, true, [1, 2, 3, 4], true, [2, 3]] });
  });

  test("values returned unchanged come out as the original objects", async () => {
    const doc = { id: 1, nested: { deep: [1, 2] } };
    const { output } = await adapter("{'first': docs[0], 'deep': docs[0].nested}").run({ docs: [doc] });
    expect((output as { first: unknown }).first).toBe(doc);
    expect((output as { deep: unknown }).deep).toBe(doc.nested);
  });
});
