import {
  canonicalJSON,
  defineComponent,
  FileRunStore,
  MemoryRunStore,
  maxValueDepth,
  Pipeline,
  PipelineRuntimeError,
  PipelineValidationError,
  RunResumeError,
  type RunSnapshot,
  SerializationError,
  toDurableJSON,
  toSnapshotJSON,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { useTempDirs } from "../../../test/support/temp-dirs.js";
import {
  depthOf,
  measureComponents,
  nested,
  rejection,
  type Tree,
  treeSchema,
} from "./support/deep-values.js";
import { interruptOf } from "./support/interrupts.js";

/**
 * Hostile values given to a run from code (not through serve, which refuses bodies nested deeper than
 * 64 levels): deep nesting, cycles, `__proto__` keys, huge flat objects. Every one ends in a Junction
 * error that names the socket and the limit, or works — never a RangeError from a recursive walker.
 */

const tempDir = useTempDirs("hostile");

const { Measure, MeasureTree } = measureComponents("hostile");

const Make = defineComponent({
  type: "hostile.Make",
  inputs: { depth: z.number() },
  outputs: { data: z.unknown() },
  run: ({ depth }) => ({ data: nested(depth) }),
});

/** Interrupts on its first run; on resume reports how deep the data it held is. */
const Hold = defineComponent({
  type: "hostile.Hold",
  inputs: { data: z.unknown() },
  outputs: { depth: z.number(), leaf: z.unknown() },
  run: ({ data }, context) => {
    if (context.resume === undefined) context.interrupt({ payload: { question: "go on?" } });
    let leaf = data;
    while (typeof leaf === "object" && leaf !== null)
      leaf = Array.isArray(leaf) ? leaf[0] : (leaf as { a: unknown }).a;
    return { depth: depthOf(data), leaf };
  },
});

describe("deeply nested run inputs", () => {
  test.each(["object", "array"] as const)(
    "a 10,000-deep %s into a z.unknown() socket is refused at the start, naming the socket and the limit",
    async (kind) => {
      const p = new Pipeline().addComponent("measure", new Measure());
      const error = await rejection(p.run({ measure: { data: nested(10_000, kind) } }));
      expect(error).toBeInstanceOf(PipelineValidationError);
      expect(error.issues.map((issue) => issue.path)).toEqual([["measure", "data"]]);
      expect(error.message).toMatch(
        /"measure\.data" \(hostile\.Measure\) nests objects and arrays deeper than 1,000 levels/,
      );
      expect(error.message).toMatch(/maxValueDepth/);
    },
  );

  test("stream() refuses the same input the same way, before any event", async () => {
    const p = new Pipeline().addComponent("measure", new Measure());
    const events: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of p.stream({ measure: { data: nested(10_000) } })) events.push(event.type);
      })(),
    );
    expect(error).toBeInstanceOf(PipelineValidationError);
    expect(events).toEqual([]);
  });

  test("a 10,000-deep value into a recursive typed socket is refused before zod walks it", async () => {
    const p = new Pipeline().addComponent("tree", new MeasureTree());
    const error = await rejection(p.run({ data: nested(10_000) }));
    expect(error).toBeInstanceOf(PipelineValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual([["tree", "data"]]);
  });

  test("exactly maxValueDepth levels are accepted (also by a recursive schema); one more is refused", async () => {
    expect(maxValueDepth).toBe(1_000);
    const p = new Pipeline().addComponent("measure", new Measure()).addComponent("tree", new MeasureTree());
    expect(await p.run({ data: nested(maxValueDepth) })).toEqual({
      measure: { depth: maxValueDepth },
      tree: { depth: maxValueDepth },
    });
    const error = await rejection(p.run({ data: nested(maxValueDepth + 1) }));
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ["measure", "data"],
      ["tree", "data"],
    ]);
  });

  test("a schema that runs out of stack while validating is reported as an issue of its socket", async () => {
    const Exhausting = defineComponent({
      type: "hostile.Exhausting",
      inputs: {
        data: z.unknown().refine(() => {
          throw new RangeError("Maximum call stack size exceeded");
        }),
      },
      outputs: {},
      run: () => ({}),
    });
    const p = new Pipeline().addComponent("exhausting", new Exhausting());
    const error = await rejection(p.run({ exhausting: { data: { a: 1 } } }));
    expect(error).toBeInstanceOf(PipelineValidationError);
    expect(error.issues).toEqual([
      {
        path: ["exhausting", "data"],
        message: expect.stringMatching(/could not validate this value: validation ran out of stack/),
      },
    ]);
  });

  test("a component that sends a 10,000-deep value stops the run naming the receiving socket and the sender", async () => {
    const p = new Pipeline()
      .addComponent("make", new Make())
      .addComponent("measure", new Measure())
      .connect("make.data", "measure.data");
    expect(await p.run({ make: { depth: 900 } })).toEqual({ measure: { depth: 900 } });
    const error = await rejection(p.run({ make: { depth: 10_000 } }));
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect(error).toMatchObject({
      code: "PIPELINE_VALUE_TOO_DEEP",
      componentName: "measure",
      socket: "measure.data",
    });
    expect(error.message).toMatch(
      /the value sent to "measure\.data" \(from "make"\) nests .* deeper than 1,000 levels/,
    );
  });
  test('validate: "all" reports a 10,000-deep output its recursive schema cannot walk as an issue of the output', async () => {
    const MakeTree = defineComponent({
      type: "hostile.MakeTree",
      inputs: { depth: z.number() },
      outputs: { data: treeSchema },
      run: ({ depth }) => ({ data: nested(depth) as Tree }),
    });
    const p = new Pipeline().addComponent("make", new MakeTree());
    expect(await p.run({ make: { depth: 10 } }, { validate: "all" })).toEqual({ make: { data: nested(10) } });
    const error = await rejection(p.run({ make: { depth: 10_000 } }, { validate: "all" }));
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect(error.issues).toEqual([
      { path: ["make", "data"], message: expect.stringMatching(/validation ran out of stack/) },
    ]);
  });
});

describe("cyclic and odd-shaped run inputs", () => {
  test("a cyclic input keeps working: the component gets a copy with the same cycle, the caller's object is untouched", async () => {
    const Mutate = defineComponent({
      type: "hostile.Mutate",
      inputs: { data: z.unknown() },
      outputs: { same: z.boolean(), copied: z.boolean() },
      run: ({ data }) => {
        const record = data as { self: unknown; tag?: string };
        record.tag = "changed";
        return { same: record.self === record, copied: record !== cyclic };
      },
    });
    const cyclic: { self?: unknown; tag?: string } = {};
    cyclic.self = cyclic;
    const p = new Pipeline().addComponent("mutate", new Mutate());
    expect(await p.run({ mutate: { data: cyclic } })).toEqual({ mutate: { same: true, copied: true } });
    expect(cyclic.tag).toBeUndefined();
  });

  test("a cyclic input into a recursive typed socket is validated without a stack overflow", async () => {
    const TreeCycle = defineComponent({
      type: "hostile.TreeCycle",
      inputs: { data: treeSchema },
      outputs: { cyclic: z.boolean() },
      run: ({ data }) => ({ cyclic: data.a === data }),
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.a = cyclic;
    const p = new Pipeline().addComponent("tree", new TreeCycle());
    expect(await p.run({ tree: { data: cyclic } })).toEqual({ tree: { cyclic: true } });
  });

  test("a __proto__ key in an input (as JSON.parse makes it) stays data and changes no prototype", async () => {
    const Keys = defineComponent({
      type: "hostile.Keys",
      inputs: { data: z.unknown() },
      outputs: { keys: z.array(z.string()), polluted: z.unknown(), plain: z.boolean() },
      run: ({ data }) => ({
        keys: Object.keys(data as object),
        polluted: (data as { polluted?: unknown }).polluted,
        plain: Object.getPrototypeOf(data) === Object.prototype,
      }),
    });
    const p = new Pipeline().addComponent("keys", new Keys());
    const data = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as unknown;
    expect(await p.run({ keys: { data } })).toEqual({
      keys: { keys: ["__proto__", "x"], polluted: undefined, plain: true },
    });
  });

  test("a 100,000-key flat object goes through in linear time", async () => {
    const Count = defineComponent({
      type: "hostile.Count",
      inputs: { data: z.record(z.string(), z.number()) },
      outputs: { keys: z.number() },
      run: ({ data }) => ({ keys: Object.keys(data).length }),
    });
    const p = new Pipeline().addComponent("count", new Count());
    const wide = (size: number) =>
      Object.fromEntries(Array.from({ length: size }, (_, index) => [`k${index}`, index]));
    const time = async (size: number) => {
      const data = wide(size);
      const started = performance.now();
      expect(await p.run({ count: { data } })).toEqual({ count: { keys: size } });
      return performance.now() - started;
    };
    await time(1_000); // warm up
    // Linear work takes well under a second; quadratic work (10^10 steps) would take minutes.
    expect(await time(100_000)).toBeLessThan(5_000);
  });
});

describe("snapshots holding deep values", () => {
  const depth = maxValueDepth; // the deepest a run accepts, far beyond the 64 levels serve accepts

  test.each([
    ["MemoryRunStore", async () => new MemoryRunStore()],
    ["FileRunStore", async () => new FileRunStore(await tempDir())],
  ])(
    "an interrupted run keeps a %i-deep input in its snapshot and resumes with it (%s)",
    async (_name, make) => {
      const store = await make();
      const p = new Pipeline().addComponent("hold", new Hold());
      const error = await interruptOf(p.run({ hold: { data: nested(depth) } }, { store, runId: "deep-1" }));
      expect(error.interrupts.map((interrupt) => interrupt.id)).toEqual(["hold#1"]);
      const saved = await store.load("deep-1");
      expect(saved?.status).toBe("interrupted");
      expect(await p.resume("deep-1", { "hold#1": { action: "respond", value: "yes" } }, { store })).toEqual({
        hold: { depth, leaf: "leaf" },
      });
    },
  );

  test("a snapshot passed around as JSON text with a deep value resumes (no store)", async () => {
    const p = new Pipeline().addComponent("hold", new Hold());
    const error = await interruptOf(p.run({ hold: { data: nested(depth, "array") } }));
    const snapshot = JSON.parse(JSON.stringify(error.snapshot)) as RunSnapshot;
    expect(await p.resume(snapshot, { "hold#1": { action: "respond", value: 1 } })).toEqual({
      hold: { depth, leaf: "leaf" },
    });
  });

  test('a durability "steps" run journals deep component outputs and completes', async () => {
    const store = new FileRunStore(await tempDir());
    const p = new Pipeline()
      .addComponent("make", new Make())
      .addComponent("measure", new Measure())
      .connect("make.data", "measure.data");
    expect(await p.run({ make: { depth } }, { store, runId: "deep-steps", durability: "steps" })).toEqual({
      measure: { depth },
    });
    const deltas = (await store.deltas("deep-steps", 1)) as { step: string; value: { data?: unknown } }[];
    expect(depthOf(deltas.find((delta) => delta.step === "make#1")?.value.data)).toBe(depth);
  });

  test("a resume decision nested 10,000 deep is refused with its interrupt id, not a stack overflow", async () => {
    const store = new MemoryRunStore();
    const p = new Pipeline().addComponent("hold", new Hold());
    await interruptOf(p.run({ hold: { data: 1 } }, { store, runId: "deep-decision" }));
    const error = await rejection(
      p.resume("deep-decision", { "hold#1": { action: "respond", value: nested(10_000) } }, { store }),
    );
    expect(error).toBeInstanceOf(RunResumeError);
    expect(error.code).toBe("RESUME_INVALID_DECISION");
    expect(error.message).toMatch(/hold#1: the decision nests objects and arrays deeper than 1,000 levels/);
  });
});

describe("the walkers behind snapshots and journals", () => {
  test("toSnapshotJSON names a cycle and a too-deep value with their path, and bounds shared-reference bombs", () => {
    const cyclic: Record<string, unknown> = { ok: 1 };
    cyclic.self = cyclic;
    const issues: { path: readonly (string | number)[]; message: string }[] = [];
    expect(toSnapshotJSON({ cyclic }, ["hold", "data"], issues)).toBeUndefined();
    expect(issues).toEqual([
      { path: ["hold", "data", "cyclic", "self"], message: expect.stringMatching(/cycle/) },
    ]);

    issues.length = 0;
    expect(toSnapshotJSON(nested(10_000), ["x"], issues)).toBeUndefined();
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toMatch(/nested deeper than 1,032 levels/);

    // 2^60 paths through 60 shared objects: refused once the count passes a snapshot's size limit.
    let bomb: unknown = "leaf";
    for (let level = 0; level < 60; level++) bomb = { left: bomb, right: bomb };
    issues.length = 0;
    const started = performance.now();
    expect(toSnapshotJSON(bomb, ["bomb"], issues)).toBeUndefined();
    expect(issues[0]?.message).toMatch(/more than 1000000 values/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  test("toDurableJSON refuses a cycle and a too-deep step result with a SerializationError", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.next = { back: cyclic };
    expect(() => toDurableJSON({ out: cyclic })).toThrow(SerializationError);
    expect(() => toDurableJSON({ out: cyclic })).toThrow(/holds itself at \$\.out\.next\.back \(a cycle\)/);
    expect(() => toDurableJSON(nested(10_000, "array"))).toThrow(/deeper than 1,032 levels/);
    expect(toDurableJSON(nested(900))).toEqual(nested(900));
  });

  test("canonicalJSON refuses nesting beyond a snapshot's depth with a TypeError naming the limit", () => {
    expect(() => canonicalJSON(nested(10_000))).toThrow(TypeError);
    expect(() => canonicalJSON(nested(10_000))).toThrow(/deeper than 1,064 levels/);
    expect(canonicalJSON(nested(3))).toBe('{"a":{"a":{"a":"leaf"}}}');
  });
});
