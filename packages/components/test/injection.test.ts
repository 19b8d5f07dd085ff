import {
  ChatPromptBuilder,
  ConditionalRouter,
  OutputAdaptationError,
  OutputAdapter,
  PromptBuilder,
  PromptRenderError,
  RouteConditionError,
} from "@junction/components";
import { ComponentError, getDefaultLogger, MemoryLogger, setDefaultLogger } from "@junction/core";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";

/**
 * Hostile expressions, templates and inputs. Each must fail harmlessly — a clear Junction error or a
 * harmless value — and never reach JavaScript objects, prototypes, globals, the process or files.
 */

const previous = getDefaultLogger();
beforeEach(() => setDefaultLogger(new MemoryLogger()));
afterEach(() => {
  setDefaultLogger(previous);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

function adapter(expression: string) {
  return new OutputAdapter({ expression, outputType: z.any() });
}

function prompt(template: string) {
  return new PromptBuilder({ template, requiredVariables: null });
}

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = { d: value };
  return value;
}

describe("CEL expressions cannot reach JavaScript", () => {
  test.each([
    ["x.constructor", { x: {} }],
    ['x["constructor"]["constructor"]', { x: {} }],
    ["x.__proto__", { x: {} }],
    ['x["__proto__"]', { x: {} }],
    ["x.toString", { x: {} }],
    ["x.hasOwnProperty", { x: { a: 1 } }],
    ["x.prototype", { x: {} }],
    ["x.length", { x: "abc" }],
    ["x.valueOf", { x: 1 }],
  ])("%s fails with a clear error", async (expression, inputs) => {
    const error = await adapter(expression)
      .run(inputs)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputAdaptationError);
    expect((error as Error).message).toMatch(/No such key|no such overload|Unsupported/);
  });

  test.each([
    ['"a".constructor', "Cannot index type 'string'"],
    ["[1].constructor", "List index must be int"],
    ["__proto__", "Reserved identifier: __proto__"],
    ["prototype.x", "Reserved identifier: prototype"],
    ['process.mainModule.require("fs")', "not a valid CEL expression"],
    ['require("child_process")', "not a valid CEL expression"],
    ["eval('1')", "not a valid CEL expression"],
    ["x => x", "not a valid CEL expression"],
    ["while (true) {}", "not a valid CEL expression"],
  ])("%s is rejected when the component is built", (expression, message) => {
    expect(() => adapter(expression)).toThrow(ComponentError);
    expect(() => adapter(expression)).toThrow(message);
  });

  test("names such as globalThis or process are just input variables", async () => {
    const reach = adapter("globalThis.process");
    expect(Object.keys(reach.inputSockets)).toEqual(["globalThis"]);
    await expect(reach.run({ globalThis: {} })).rejects.toThrow(/No such key: process/);
  });

  test("functions and getters in the input are not data: never called, not visible", async () => {
    let called = false;
    const input = {
      get secret() {
        called = true;
        return "leaked";
      },
      run: () => {
        called = true;
        return "ran";
      },
      visible: 1,
    };
    expect(await adapter("x").run({ x: input })).toEqual({ output: input });
    expect(await adapter("has(x.secret) || has(x.run)").run({ x: input })).toEqual({ output: false });
    expect(await adapter("x.visible").run({ x: input })).toEqual({ output: 1 });
    expect(await adapter("f == null").run({ f: () => "ran" })).toEqual({ output: true });
    expect(called).toBe(false);
  });

  test("class instances are read through their data only", async () => {
    class Account {
      #password = "secret";
      constructor(readonly owner: string) {}
      password(): string {
        return this.#password;
      }
    }
    const account = new Account("ann");
    expect(await adapter("x.owner").run({ x: account })).toEqual({ output: "ann" });
    await expect(adapter("x.password").run({ x: account })).rejects.toThrow(/No such key: password/);
  });

  test('"__proto__" keys in input data stay data and pollute nothing', async () => {
    const input = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') as Record<string, unknown>;
    expect(await adapter('x["__proto__"].polluted').run({ x: input })).toEqual({ output: "yes" });
    const { output } = await adapter('{"copy": x, "k": x["__proto__"]}').run({ x: input });
    expect((output as Record<string, unknown>).k).toEqual({ polluted: "yes" });
    const made = (await adapter('{"__proto__": {"polluted": "yes"}, "constructor": 1, "b": 2}').run({}))
      .output;
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect((made as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a router's routes get the same protection", async () => {
    const router = new ConditionalRouter({
      routes: [
        { condition: 'x.constructor.name == "Object"', output: "x", outputName: "out", outputType: z.any() },
      ],
    });
    const error = await router.run({ x: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouteConditionError);
    expect((error as Error).message).toContain("No such key: constructor");
  });
});

describe("CEL resource limits", () => {
  test("oversized and deeply nested expressions are rejected at construction", () => {
    const long = Array.from({ length: 20_000 }, (_, index) => `x${index % 5}`).join(" + ");
    expect(() => adapter(long)).toThrow(/Exceeded maxAstNodes/);
    expect(() => adapter(`${"(".repeat(2_000)}1${")".repeat(2_000)}`)).toThrow(/Exceeded maxDepth/);
    expect(() => adapter(`[${Array.from({ length: 2_000 }, () => "1").join(",")}]`)).toThrow(ComponentError);
  });

  test("deeply nested input is read lazily: only the levels an expression reads are converted", async () => {
    // 1,000 levels is the most a run takes (maxValueDepth); CEL converts only what it reads.
    expect(await adapter("has(x.d)").run({ x: nested(999) })).toEqual({ output: true });
    expect(await adapter("x.d.d.d").run({ x: nested(10) })).toEqual({ output: nested(7) });
  });

  test("cyclic input is harmless: an expression reads a finite path", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(await adapter("x.self.self.a").run({ x: cyclic })).toEqual({ output: 1 });
    expect(await adapter("x.self").run({ x: cyclic })).toEqual({ output: cyclic });
  });

  test("the million-value limit counts what an expression converts, not the input's size", async () => {
    const big = new Array(1_100_000).fill(0);
    expect(await adapter("size(x)").run({ x: big })).toEqual({ output: 1_100_000 });
    // What is converted counts: a walk over every element converts them all.
    const walk = new OutputAdapter({
      expression: "size(x + x)",
      outputType: z.any(),
      limits: { maxSteps: 10_000_000 },
    });
    const error = await walk.run({ x: big }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputAdaptationError);
    expect((error as Error).message).toContain("more than 1000000 values");
  }, 30_000);

  test("long strings are fine: size is linear and nothing is re-parsed", async () => {
    const text = "a".repeat(5_000_000);
    expect(await adapter('size(x) > 10 && x.startsWith("aaa")').run({ x: text })).toEqual({ output: true });
  });

  test("an input is only copied when an expression reads it", async () => {
    const router = new ConditionalRouter({
      routes: [
        { condition: "small", output: "'small'", outputName: "out", outputType: z.string() },
        { condition: "size(big) > 0", output: "'big'", outputName: "out", outputType: z.string() },
      ],
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(await router.run({ small: true, big: cyclic })).toEqual({ out: "small" });
  });
});

describe("Liquid templates cannot reach JavaScript or files", () => {
  test("prototype walks print nothing", async () => {
    const template =
      "[{{ x.constructor }}][{{ x.__proto__ }}][{{ s.constructor.name }}][{{ x.constructor.constructor }}][{{ x['constructor'] }}][{{ l.constructor }}]";
    expect(await prompt(template).run({ template_variables: { x: {}, s: "abc", l: [1] } })).toEqual({
      prompt: "[][][][][][]",
    });
  });

  test("filters cannot walk prototypes either", async () => {
    const result = await prompt(
      '{{ xs | map: "constructor" | join: "," }}|{{ xs | where: "constructor" | size }}',
    ).run({
      template_variables: { xs: [{}, {}] },
    });
    expect(result).toEqual({ prompt: ",|0" });
  });

  test("functions in the data are never called; toLiquid hooks are ignored", async () => {
    let called = false;
    const data = {
      f: () => {
        called = true;
        return "CALLED";
      },
      toLiquid: () => {
        called = true;
        return "HOOKED";
      },
      a: 1,
    };
    expect(await prompt("[{{ o.f }}][{{ o }}]").run({ template_variables: { o: data } })).toEqual({
      prompt: '[][{"a":1}]',
    });
    expect(called).toBe(false);
  });

  test('"__proto__" keys in data are plain data', async () => {
    const data = JSON.parse('{"__proto__": {"polluted": "yes"}}') as unknown;
    expect(await prompt("[{{ o.__proto__.polluted }}]").run({ template_variables: { o: data } })).toEqual({
      prompt: "[yes]",
    });
  });

  test.each([
    '{% include "/etc/passwd" %}',
    "{% render 'secrets' %}",
    "{% layout 'base' %}{% block x %}{% endblock %}",
  ])("%s is rejected when the builder is built", (template) => {
    expect(() => prompt(template)).toThrow(
      /tag is disabled: prompt templates cannot read other templates or files/,
    );
    expect(() => new ChatPromptBuilder({ template })).toThrow(ComponentError);
  });

  test("file tags in a runtime template are rejected at run time", async () => {
    const error = await prompt("{{ x }}")
      .run({ template: '{% include "/etc/passwd" %}' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PromptRenderError);
  });

  test("unknown filters are errors, not silently skipped", () => {
    expect(() => prompt("{{ x | system }}")).toThrow(/undefined filter: system/);
  });
});

describe("Liquid resource limits", () => {
  test("a template longer than a million characters is rejected", () => {
    expect(() => prompt("x".repeat(1_000_001))).toThrow(/longer than 1000000 characters/);
  });

  test("huge ranges and string doubling hit the memory limit", async () => {
    await expect(prompt("{% for i in (1..100000000) %}x{% endfor %}").run({})).rejects.toThrow(
      /memory alloc limit exceeded/,
    );
    const doubling =
      '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}';
    await expect(prompt(doubling).run({})).rejects.toThrow(PromptRenderError);
  });

  test("a render that runs too long is stopped", async () => {
    const slow = "{% for i in (1..5000) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}";
    await expect(prompt(slow).run({})).rejects.toThrow(/template render limit exceeded/);
  });

  test("deeply nested and cyclic data fail clearly", async () => {
    // Within the run's limit (maxValueDepth, 1,000), Liquid's own limit speaks.
    await expect(prompt("{{ x }}").run({ template_variables: { x: nested(500) } })).rejects.toThrow(
      /nested deeper than 64 levels/,
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(prompt("{{ x }}").run({ template_variables: { x: cyclic } })).rejects.toThrow(
      /contains a cycle/,
    );
  });
});
