import {
  defineComponent,
  MemoryLogger,
  Pipeline,
  PipelineComponentsBlockedError,
  PipelineMaxComponentRuns,
  PipelineRuntimeError,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { registerConversion } from "../src/sockets/conversions.js";
import { Double, Echo, Join, Sum, Threshold } from "./support/pipeline-components.js";

/** Scheduling semantics of the reference: triggers, defaults, loops, greedy/lazy sockets, limits. */

const log: string[] = [];

const Logged = defineComponent({
  type: "ptest.semantics.Logged",
  inputs: { value: z.number().optional(), extra: z.number().optional() },
  outputs: { value: z.number() },
  run: ({ value, extra }, { componentName }) => {
    log.push(componentName ?? "?");
    return { value: (value ?? 0) + (extra ?? 0) + 1 };
  },
});

const Counter = defineComponent({
  type: "ptest.semantics.Counter",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value + 1 }),
});

const WithDefault = defineComponent({
  type: "ptest.semantics.WithDefault",
  inputs: { value: z.number(), offset: z.number().default(100) },
  outputs: { result: z.number() },
  run: ({ value, offset }) => ({ result: value + offset }),
});

const Stringify = defineComponent({
  type: "ptest.semantics.Stringify",
  inputs: { value: z.number() },
  outputs: { text: z.string(), number: z.number() },
  run: ({ value }) => ({ text: `#${value}`, number: value }),
});

const NumberOnly = defineComponent({
  type: "ptest.semantics.NumberOnly",
  inputs: { value: z.number() },
  outputs: { text: z.number() },
  run: ({ value }) => ({ text: value }),
});

registerConversion({
  name: "ptest.number_to_string",
  priority: 1000,
  match: (sender, receiver) =>
    sender._zod.def.type === "number" && receiver._zod.def.type === "string"
      ? (value) => {
          if (value === 13) throw new Error("13 is unlucky");
          return `n${value}`;
        }
      : undefined,
});

const pipeline = (options: { maxRunsPerComponent?: number } = {}) =>
  new Pipeline({ logger: new MemoryLogger(), ...options });

describe("readiness and defaults", () => {
  test("optional sockets receive their defaults", async () => {
    const p = pipeline().addComponent("c", new WithDefault());
    expect(await p.run({ value: 1 })).toEqual({ c: { result: 101 } });
  });

  test("a component whose optional input was not produced still runs with the default when triggered", async () => {
    const p = pipeline()
      .addComponent("check", new Threshold({ threshold: 10 }))
      .addComponent("sum", new WithDefault())
      .connect("check.above", "sum.offset");
    expect(await p.run({ check: { value: 1 }, sum: { value: 5 } })).toEqual({
      check: { below: 1 },
      sum: { result: 105 },
    });
  });

  test("a greedy variadic socket runs as soon as one value arrives", async () => {
    const p = pipeline()
      .addComponent("fast", new Double())
      .addComponent("join", new Join())
      .connect("fast", "join");
    expect(await p.run({ fast: { value: 3 } })).toEqual({ join: { value: 6 } });
  });

  test("a lazy variadic socket waits for every sender that will run", async () => {
    const p = pipeline()
      .addComponent("a", new Counter())
      .addComponent("b", new Counter())
      .addComponent("b2", new Counter())
      .addComponent("sum", new Sum())
      .connect("a", "sum")
      .connect("b", "b2")
      .connect("b2", "sum");
    expect(await p.run({ a: { value: 0 }, b: { value: 10 } }, { includeOutputsFrom: ["sum"] })).toEqual({
      sum: { total: 13 },
    });
  });

  test("deferred components run one at a time in topological order, then by name", async () => {
    // "gate" routes nothing to "blocked", so both consumers of blocked's output wait (DEFER) until
    // nothing else can run; then the first in topological order runs, ties broken by name.
    const build = (chained: boolean) => {
      const p = pipeline()
        .addComponent("gate", new Threshold({ threshold: 100 }))
        .addComponent("blocked", new Counter())
        .addComponent("z_up", new Logged())
        .addComponent("a_down", new Logged())
        .connect("gate.above", "blocked")
        .connect("blocked", "z_up.extra")
        .connect("blocked", "a_down.extra");
      if (chained) p.connect("z_up.value", "a_down.value");
      return p;
    };
    log.length = 0;
    await build(false).run({ gate: { value: 1 }, z_up: { value: 1 }, a_down: { value: 1 } });
    expect(log).toEqual(["a_down", "z_up"]);
    log.length = 0;
    const chained = await build(true).run({ gate: { value: 1 }, z_up: { value: 1 } });
    expect(log).toEqual(["z_up", "a_down"]);
    expect(chained).toEqual({ gate: { below: 1 }, a_down: { value: 3 } });
  });
});

describe("loops", () => {
  test("a loop through a greedy joiner iterates until the router stops feeding back", async () => {
    const p = pipeline()
      .addComponent("join", new Join())
      .addComponent("count", new Counter())
      .addComponent("check", new Threshold({ threshold: 4 }))
      .connect("join", "count")
      .connect("count", "check")
      .connect("check.below", "join");
    expect(await p.run({ join: { value: 0 } }, { includeOutputsFrom: ["count"] })).toEqual({
      count: { value: 4 },
      check: { above: 4 },
    });
  });

  test("maxRunsPerComponent allows exactly N runs; the next attempt raises", async () => {
    let runs = 0;
    const Forever = defineComponent({
      type: "ptest.semantics.Forever",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: ({ value }) => {
        runs += 1;
        return { value };
      },
    });
    const p = pipeline({ maxRunsPerComponent: 3 })
      .addComponent("join", new Join())
      .addComponent("loop", new Forever())
      .connect("join", "loop")
      .connect("loop", "join");
    const error = await p.run({ join: { value: 1 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineMaxComponentRuns);
    expect((error as PipelineMaxComponentRuns).componentName).toBe("join");
    expect((error as Error).message).toContain("maxRunsPerComponent is 3");
    expect(runs).toBe(3);
  });

  test("a cycle without an entry point cannot start", async () => {
    const p = pipeline()
      .addComponent("a", new Counter())
      .addComponent("b", new Counter())
      .connect("a", "b")
      .connect("b", "a");
    const error = await p.run({}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineComponentsBlockedError);
    expect((error as Error).message).toContain(
      '"a" (ptest.semantics.Counter): mandatory input "value" is waiting: "b" never ran',
    );
  });

  test("with includeOutputsFrom, the latest run of a component wins", async () => {
    const p = pipeline()
      .addComponent("join", new Join())
      .addComponent("double", new Double())
      .addComponent("check", new Threshold({ threshold: 10 }))
      .connect("join", "double")
      .connect("double", "check")
      .connect("check.below", "join");
    expect(await p.run({ join: { value: 1 } }, { includeOutputsFrom: ["double", "join"] })).toEqual({
      join: { value: 8 },
      double: { value: 16 },
      check: { above: 16 },
    });
  });
});

describe("un-taken branches", () => {
  test("the run ends normally; components that never ran are reported through the logger, not the outputs", async () => {
    const logger = new MemoryLogger();
    const p = new Pipeline({ logger })
      .addComponent("check", new Threshold({ threshold: 5 }))
      .addComponent("big", new Double())
      .addComponent("small", new Echo())
      .addComponent("after_small", new Echo())
      .connect("check.above", "big")
      .connect("check.below", "small.text")
      .connect("small", "after_small");
    // "small" takes text; Threshold.below is a number, so connect through the registered test conversion.
    expect(await p.run({ check: { value: 7 } })).toEqual({ big: { value: 14 } });
    // The run returned outputs, so an un-taken branch is normal: reported at info level, not warned.
    expect(logger.messages("warn")).toEqual([]);
    const [warning] = logger.records.filter((record) => record.level === "info");
    expect(warning?.message).toContain(
      '"small": mandatory input "text" is waiting: "check" ran but produced no value',
    );
    expect(warning?.message).toContain('"after_small": mandatory input "text" is waiting: "small" never ran');
    expect(warning?.fields.neverRan).toHaveLength(2);
  });

  test("a run that ends with no outputs at all warns, naming what never ran", async () => {
    const Pair = defineComponent({
      type: "ptest.semantics.Pair",
      inputs: { a: z.number(), b: z.number() },
      outputs: { sum: z.number() },
      run: ({ a, b }) => ({ sum: a + b }),
    });
    const logger = new MemoryLogger();
    const p = new Pipeline({ logger })
      .addComponent("check", new Threshold({ threshold: 5 }))
      .addComponent("big", new Double())
      .addComponent("small", new Double())
      .addComponent("pair", new Pair())
      .connect("check.above", "big.value")
      .connect("check.below", "small.value")
      .connect("big.value", "pair.a")
      .connect("small.value", "pair.b");
    expect(await p.run({ check: { value: 7 } })).toEqual({});
    const [warning] = logger.messages("warn");
    expect(warning).toContain('"small": mandatory input "value" is waiting');
    expect(warning).toContain('"pair"');
  });
});

describe("outputs and conversions", () => {
  test("connections that need a conversion convert each value; strict pairs are preferred", async () => {
    const p = pipeline()
      .addComponent("s", new Stringify())
      .addComponent("n", new NumberOnly())
      .addComponent("echo", new Echo())
      .connect("n", "echo")
      .connect("s", "n");
    expect(p.connections()).toEqual([
      { sender: "n.text", receiver: "echo.text" },
      { sender: "s.number", receiver: "n.value" },
    ]);
    expect(await p.run({ s: { value: 4 } })).toEqual({ s: { text: "#4" }, echo: { text: "n4" } });
  });

  test("a failing conversion fails the run with PipelineRuntimeError naming both ends", async () => {
    const p = pipeline()
      .addComponent("n", new NumberOnly())
      .addComponent("echo", new Echo())
      .connect("n", "echo");
    const error = await p.run({ n: { value: 13 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect((error as Error).message).toContain('"n.text" for "echo.text"');
    expect((error as Error).message).toContain("13 is unlucky");
  });

  test("a component that returns something other than an object fails the run", async () => {
    const Bad = defineComponent({
      type: "ptest.semantics.Bad",
      inputs: {},
      outputs: { value: z.number() },
      run: () => [1] as never,
    });
    const error = await pipeline()
      .addComponent("bad", new Bad())
      .run({})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect((error as PipelineRuntimeError).componentName).toBe("bad");
    expect((error as Error).message).toContain("returned an array instead of an object");
  });

  test("undeclared output keys are warned about and not sent on", async () => {
    const logger = new MemoryLogger();
    const Extra = defineComponent({
      type: "ptest.semantics.Extra",
      inputs: {},
      outputs: { value: z.number() },
      run: () => ({ value: 1, surprise: true }) as never,
    });
    const p = new Pipeline({ logger }).addComponent("extra", new Extra()).addComponent("d", new Double());
    p.connect("extra", "d");
    expect(await p.run({})).toEqual({ extra: { surprise: true }, d: { value: 2 } });
    expect(logger.messages("warn")[0]).toContain('returned undeclared outputs "surprise"');
  });

  test('validate: "all" checks component outputs against their schemas', async () => {
    const Liar = defineComponent({
      type: "ptest.semantics.Liar",
      inputs: {},
      outputs: { value: z.number() },
      run: () => ({ value: "not a number" }) as never,
    });
    const p = pipeline().addComponent("liar", new Liar());
    expect(await p.run({})).toEqual({ liar: { value: "not a number" } });
    const error = await p.run({}, { validate: "all" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect((error as PipelineRuntimeError).issues[0]?.path).toEqual(["liar", "value"]);
  });

  test("an output that is undefined counts as not produced (it triggers nothing)", async () => {
    const Maybe = defineComponent({
      type: "ptest.semantics.Maybe",
      inputs: {},
      outputs: { value: z.number().optional() },
      run: () => ({ value: undefined }),
    });
    const p = pipeline()
      .addComponent("maybe", new Maybe())
      .addComponent("logged", new Logged())
      .connect("maybe", "logged.value");
    log.length = 0;
    expect(await p.run({})).toEqual({});
    expect(log).toEqual([]);
  });
});
