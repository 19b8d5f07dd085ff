import {
  ComponentError,
  defineComponent,
  exceedsDepth,
  findValueProblem,
  maxValueDepth,
  Pipeline,
  PipelineRuntimeError,
  PipelineValidationError,
  sparseCheckLength,
  variadic,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { measureComponents, nested, rejection, type Tree, treeSchema } from "./support/deep-values.js";

/**
 * The value limits outside a pipeline's own walkers: a component run directly (`component.run(inputs)`)
 * refuses what a pipeline run refuses, and a huge sparse array (`a.length = 1e9`) is refused at once
 * instead of being walked index by index.
 */

/** An array of length 1,000,000,000 with one entry set (at `index`). */
function sparse(index = 5): unknown[] {
  const array: unknown[] = [];
  array.length = 1_000_000_000;
  array[index] = "x";
  return array;
}

const { Measure, MeasureTree } = measureComponents("limits");

const Count = defineComponent({
  type: "limits.Count",
  inputs: { items: variadic(z.unknown()) },
  outputs: { count: z.number() },
  run: ({ items }) => ({ count: items.length }),
});

const MakeSparse = defineComponent({
  type: "limits.MakeSparse",
  inputs: { go: z.boolean() },
  outputs: { data: z.unknown() },
  run: () => ({ data: sparse() }),
});

describe("a component run directly", () => {
  test("the depth check reads data only: a getter in the input is never called by it", async () => {
    let called = 0;
    const Keep = defineComponent({
      type: "limits.Keep",
      inputs: { data: z.unknown() },
      outputs: { kept: z.boolean() },
      run: ({ data }) => ({ kept: typeof data === "object" && data !== null }),
    });
    const input = {
      get expensive() {
        called += 1;
        return nested(maxValueDepth + 5);
      },
      plain: { a: 1 },
    };
    expect(await new Keep().run({ data: input })).toEqual({ kept: true });
    expect(called).toBe(0);
  });

  test.each(["object", "array"] as const)(
    "refuses a 10,000-deep %s for a z.unknown() socket, naming the socket and the limit",
    async (kind) => {
      const error = await rejection(new Measure().run({ data: nested(10_000, kind) }));
      expect(error).toBeInstanceOf(ComponentError);
      expect(error.issues.map((issue) => issue.path)).toEqual([["data"]]);
      expect(error.message).toMatch(/limits\.Measure\.run: invalid inputs/);
      expect(error.message).toMatch(/nests objects and arrays deeper than 1,000 levels/);
      expect(error.message).toMatch(/maxValueDepth/);
    },
  );

  test("refuses a 10,000-deep value for a recursive schema before zod walks it (no stack overflow)", async () => {
    const error = await rejection(new MeasureTree().run({ data: nested(10_000) as Tree }));
    expect(error).toBeInstanceOf(ComponentError);
    expect(error.issues.map((issue) => issue.path)).toEqual([["data"]]);
  });

  test("accepts exactly maxValueDepth levels (also through a recursive schema) and refuses one more", async () => {
    expect(await new Measure().run({ data: nested(maxValueDepth) })).toEqual({ depth: maxValueDepth });
    expect(await new MeasureTree().run({ data: nested(maxValueDepth) as Tree })).toEqual({
      depth: maxValueDepth,
    });
    const error = await rejection(new Measure().run({ data: nested(maxValueDepth + 1) }));
    expect(error.message).toMatch(/deeper than 1,000 levels/);
  });

  test("reports a schema that runs out of stack while validating as a problem of the socket", async () => {
    const Exhausting = defineComponent({
      type: "limits.Exhausting",
      inputs: {
        data: z.unknown().refine(() => {
          throw new RangeError("Maximum call stack size exceeded");
        }),
      },
      outputs: {},
      run: () => ({}),
    });
    const error = await rejection(new Exhausting().run({ data: { a: 1 } }));
    expect(error).toBeInstanceOf(ComponentError);
    expect(error.issues).toEqual([
      { path: ["data"], message: expect.stringMatching(/validation ran out of stack/) },
    ]);
  });

  test("passes a cyclic value through a recursive schema (as a pipeline run does)", async () => {
    const TreeCycle = defineComponent({
      type: "limits.TreeCycle",
      inputs: { data: treeSchema },
      outputs: { cyclic: z.boolean() },
      run: ({ data }) => ({ cyclic: data.a === data }),
    });
    const cyclic: Tree = {};
    cyclic.a = cyclic;
    expect(await new TreeCycle().run({ data: cyclic })).toEqual({ cyclic: true });
  });

  test("refuses a too-deep item of a variadic socket, naming the socket", async () => {
    const error = await rejection(new Count().run({ items: [1, nested(maxValueDepth + 1)] }));
    expect(error.issues.map((issue) => issue.path)).toEqual([["items"]]);
    expect(error.message).toMatch(/an item nests objects and arrays deeper than 1,000 levels/);
    expect(await new Count().run({ items: [1, nested(maxValueDepth)] })).toEqual({ count: 2 });
  });

  test("refuses a huge sparse array at once, naming the socket, its length and the first hole", async () => {
    const started = performance.now();
    const error = await rejection(new Measure().run({ data: sparse() }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.issues.map((issue) => issue.path)).toEqual([["data"]]);
    expect(error.message).toMatch(/sparse array \(length 1,000,000,000, no entry at index 0\)/);
    expect(error.message).toMatch(/object keyed by index/);
  });
});

describe("huge sparse arrays in a pipeline run", () => {
  test("a sparse run input is refused at the start, naming the socket", async () => {
    const p = new Pipeline().addComponent("measure", new Measure());
    const started = performance.now();
    const error = await rejection(p.run({ measure: { data: { list: sparse(0) } } }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(PipelineValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual([["measure", "data"]]);
    expect(error.message).toMatch(/"measure\.data" \(limits\.Measure\) holds a sparse array/);
    expect(error.message).toMatch(/no entry at index 1\b/);
  });

  test("a component that sends one stops the run naming the receiving socket and the sender", async () => {
    const p = new Pipeline()
      .addComponent("make", new MakeSparse())
      .addComponent("measure", new Measure())
      .connect("make.data", "measure.data");
    const error = await rejection(p.run({ make: { go: true } }));
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect(error).toMatchObject({ code: "PIPELINE_SPARSE_ARRAY", socket: "measure.data" });
    expect(error.message).toMatch(/"measure\.data" \(from "make"\) holds a sparse array/);
  });

  test("a dense array longer than the hole check and a short array with holes still go through", async () => {
    const dense = Array.from({ length: sparseCheckLength + 1 }, (_, index) => index);
    const short: unknown[] = [];
    short.length = 10;
    const p = new Pipeline().addComponent("measure", new Measure());
    expect(await p.run({ measure: { data: [dense, short] } })).toEqual({ measure: { depth: 2 } });
    expect(await new Count().run({ items: [dense, short] })).toEqual({ count: 2 });
  });
});

describe("exceedsDepth and findValueProblem", () => {
  test("measure small and large values alike, at the limit and one past it", () => {
    for (const limit of [3, 8, 9, maxValueDepth]) {
      for (const kind of ["object", "array"] as const) {
        expect(exceedsDepth(nested(limit, kind), limit)).toBe(false);
        expect(exceedsDepth(nested(limit + 1, kind), limit)).toBe(true);
      }
    }
    expect(exceedsDepth(new Map([["a", nested(4)]]), 4)).toBe(true);
    expect(exceedsDepth(new Set([nested(3)]), 4)).toBe(false);
    // Small values take a fast path: a Map inside one is still measured, a class instance is not entered.
    expect(exceedsDepth({ small: new Map([["a", nested(3)]]) }, 4)).toBe(true);
    class Holder {
      readonly held = nested(20);
    }
    expect(exceedsDepth({ small: [new Holder()] }, 3)).toBe(false);
  });

  test("count a wide value, and a cycle, correctly", () => {
    const wide = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`k${index}`, nested(5)]));
    expect(exceedsDepth(wide, 6)).toBe(false);
    expect(exceedsDepth(wide, 5)).toBe(true);
    const cyclic: Record<string, unknown> = { b: 1 };
    cyclic.self = cyclic;
    expect(exceedsDepth(cyclic, 2)).toBe(false);
  });

  test("findValueProblem names a sparse array nested in a value", () => {
    expect(findValueProblem({ a: [1, 2, { list: sparse(3) }] })).toEqual({
      kind: "sparse_array",
      length: 1_000_000_000,
      hole: 0,
    });
    expect(findValueProblem(nested(maxValueDepth + 1))).toEqual({ kind: "too_deep", limit: maxValueDepth });
    expect(findValueProblem({ a: [1, "x"] })).toBeUndefined();
  });
});
