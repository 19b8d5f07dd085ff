import {
  defineComponent,
  MemoryLogger,
  Pipeline,
  PipelineConnectError,
  PipelineValidationError,
  variadic,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AddFixedValue, Collect, Double, Echo, ListSink, Sum, Words } from "./support/pipeline-components.js";

/** Port of the add/remove/connect cases of the reference's test_pipeline_base.py. */

const TwoStrings = defineComponent({
  type: "ptest.build.TwoStrings",
  inputs: {},
  outputs: { first: z.string(), second: z.string() },
  run: () => ({ first: "a", second: "b" }),
});

const TwoStringInputs = defineComponent({
  type: "ptest.build.TwoStringInputs",
  inputs: { first: z.string(), other: z.string() },
  outputs: {},
  run: () => ({}),
});

const NoOutputs = defineComponent({
  type: "ptest.build.NoOutputs",
  inputs: { value: z.number() },
  outputs: {},
  run: () => ({}),
});

const OptionalList = defineComponent({
  type: "ptest.build.OptionalList",
  inputs: { items: z.array(z.string()).optional() },
  outputs: { count: z.number() },
  run: ({ items }) => ({ count: items?.length ?? 0 }),
});

const pipeline = () => new Pipeline({ logger: new MemoryLogger() });

describe("addComponent", () => {
  test.each(["_debug", "a.b", ""])("rejects the invalid name %j", (name) => {
    expect(() => pipeline().addComponent(name, new Double())).toThrow(PipelineValidationError);
  });

  test("adding the same instance under the same name again is a no-op", () => {
    const double = new Double();
    const p = pipeline().addComponent("d", double).addComponent("d", double);
    expect(p.componentNames()).toEqual(["d"]);
  });

  test("another instance under a taken name is an error", () => {
    const p = pipeline().addComponent("d", new Double());
    expect(() => p.addComponent("d", new Double())).toThrow(/a component named "d" already exists/);
  });

  test("the same instance under a second name is an error", () => {
    const double = new Double();
    const p = pipeline().addComponent("d", double);
    expect(() => p.addComponent("e", double)).toThrow(/already in the pipeline as "d"/);
  });

  test("an instance of another pipeline cannot be added", () => {
    const double = new Double();
    pipeline().addComponent("d", double);
    expect(() => pipeline().addComponent("d", double)).toThrow(/already belongs to another pipeline/);
  });

  test("a value that is not a component is rejected", () => {
    expect(() => pipeline().addComponent("x", {} as never)).toThrow(/is not a component/);
  });

  test("componentNames keeps insertion order and getComponent returns the instance", () => {
    const double = new Double();
    const p = pipeline().addComponent("z", new Echo()).addComponent("a", double);
    expect(p.componentNames()).toEqual(["z", "a"]);
    expect(p.getComponent("a")).toBe(double);
    expect(() => p.getComponent("missing")).toThrow(/no component named "missing".*"z", "a"/);
  });
});

describe("removeComponent", () => {
  test("an unknown name is an error", () => {
    expect(() => pipeline().removeComponent("nope")).toThrow(PipelineValidationError);
  });

  test("removes the component and its connections; the instance can join another pipeline", async () => {
    const double = new Double();
    const p = pipeline()
      .addComponent("add", new AddFixedValue())
      .addComponent("double", double)
      .addComponent("double2", new Double())
      .connect("add", "double")
      .connect("double", "double2");
    expect(p.removeComponent("double")).toBe(double);
    expect(p.componentNames()).toEqual(["add", "double2"]);
    expect(p.connections()).toEqual([]);
    const other = pipeline().addComponent("again", double);
    expect(await other.run({ again: { value: 2 } })).toEqual({ again: { value: 4 } });
    // The remaining components run as if never connected.
    expect(await p.run({ add: { value: 1 }, double2: { value: 5 } })).toEqual({
      add: { result: 2 },
      double2: { value: 10 },
    });
  });

  test("undoes the auto-variadic promotion of a list socket left with one sender", () => {
    const p = pipeline()
      .addComponent("a", new Words({ words: ["a"] }))
      .addComponent("b", new Words({ words: ["b"] }))
      .addComponent("sink", new ListSink())
      .connect("a", "sink")
      .connect("b", "sink");
    expect(p.inputs().sink?.items?.variadic).toBe("lazy");
    p.removeComponent("b");
    expect(p.inputs({ includeConnected: true }).sink?.items?.variadic).toBe("none");
    // A second sender must promote again, and a non-list socket still refuses one.
    p.addComponent("c", new Words({ words: ["c"] })).connect("c", "sink");
    expect(p.inputs().sink?.items?.variadic).toBe("lazy");
  });

  test("keeps a declared variadic socket variadic", () => {
    const p = pipeline()
      .addComponent("a", new Echo())
      .addComponent("b", new Echo())
      .addComponent("collect", new Collect())
      .connect("a", "collect")
      .connect("b", "collect");
    p.removeComponent("b");
    p.removeComponent("a");
    expect(p.inputs().collect?.values?.variadic).toBe("lazy");
  });
});

describe("connect", () => {
  test("connects explicit sockets and lists connections fully qualified, in connect order", () => {
    const p = pipeline()
      .addComponent("add", new AddFixedValue())
      .addComponent("double", new Double())
      .addComponent("double2", new Double())
      .connect("double.value", "double2.value")
      .connect("add.result", "double.value");
    expect(p.connections()).toEqual([
      { sender: "double.value", receiver: "double2.value" },
      { sender: "add.result", receiver: "double.value" },
    ]);
  });

  test("connecting the same pair twice is a no-op", () => {
    const p = pipeline()
      .addComponent("add", new AddFixedValue())
      .addComponent("double", new Double())
      .connect("add.result", "double.value")
      .connect("add", "double");
    expect(p.connections()).toHaveLength(1);
  });

  test.each([
    ["add", "double.value"],
    ["add.result", "double"],
    ["add", "double"],
  ])("resolves the short form %s → %s", (sender, receiver) => {
    const p = pipeline()
      .addComponent("add", new AddFixedValue())
      .addComponent("double", new Double())
      .connect(sender, receiver);
    expect(p.connections()).toEqual([{ sender: "add.result", receiver: "double.value" }]);
  });

  test("unknown components are errors that list the pipeline's components", () => {
    const p = pipeline().addComponent("add", new AddFixedValue());
    expect(() => p.connect("nope", "add")).toThrow(/sender component "nope" is not in the pipeline/);
    expect(() => p.connect("add", "nope.value")).toThrow(/receiver component "nope".*"add"/);
  });

  test("unknown sockets are errors that list the available sockets with their types", () => {
    const p = pipeline().addComponent("add", new AddFixedValue()).addComponent("double", new Double());
    expect(() => p.connect("add.nope", "double")).toThrow(
      /"add" \(ptest.AddFixedValue\) has no output socket "nope". Its output sockets: "result" \(number\)/,
    );
    expect(() => p.connect("add", "double.nope")).toThrow(
      /has no input socket "nope". Its input sockets: "value" \(number\)/,
    );
  });

  test("mismatched types are refused, naming both ends and their types", () => {
    const p = pipeline().addComponent("add", new AddFixedValue()).addComponent("echo", new Echo());
    const error = (() => {
      try {
        p.connect("add.result", "echo.text");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(PipelineConnectError);
    expect((error as Error).message).toContain(
      'cannot connect "add.result" (number) to "echo.text" (string): their types do not match',
    );
    p.addComponent("two", new TwoStrings()).addComponent("double", new Double());
    expect(() => p.connect("two", "double")).toThrow(
      /no output socket of "two" matches an input socket of "double"/,
    );
  });

  test("several possible pairs with different names are ambiguous", () => {
    const p = pipeline().addComponent("two", new TwoStrings()).addComponent("echo", new Echo());
    expect(() => p.connect("two", "echo")).toThrow(/more than one connection.*"two.first" → "echo.text"/s);
    const q = pipeline().addComponent("echo", new Echo()).addComponent("inputs", new TwoStringInputs());
    expect(() => q.connect("echo", "inputs")).toThrow(PipelineConnectError);
  });

  test("among several possible pairs, the one with equal names wins", () => {
    const p = pipeline().addComponent("two", new TwoStrings()).addComponent("inputs", new TwoStringInputs());
    p.connect("two", "inputs");
    expect(p.connections()).toEqual([{ sender: "two.first", receiver: "inputs.first" }]);
  });

  test("a second sender into a non-list socket is refused with a fix", () => {
    const p = pipeline()
      .addComponent("a", new AddFixedValue())
      .addComponent("b", new AddFixedValue())
      .addComponent("double", new Double())
      .connect("a", "double");
    expect(() => p.connect("b", "double")).toThrow(
      /socket "double.value" already has a sender \("a.result"\) and is not a list.*BranchJoiner/,
    );
  });

  test("variadic sockets take any number of senders", () => {
    const p = pipeline()
      .addComponent("a", new AddFixedValue())
      .addComponent("b", new AddFixedValue())
      .addComponent("sum", new Sum())
      .connect("a", "sum")
      .connect("b", "sum");
    expect(p.connections()).toHaveLength(2);
  });

  test("a component cannot be connected to itself", () => {
    const p = pipeline().addComponent("double", new Double());
    expect(() => p.connect("double.value", "double.value")).toThrow(/cannot connect "double" to itself/);
  });

  test("a sender without outputs is refused", () => {
    const p = pipeline().addComponent("none", new NoOutputs()).addComponent("double", new Double());
    expect(() => p.connect("none", "double")).toThrow(/has no output sockets/);
  });

  test("list sockets become variadic on a second sender (also optional lists) and concatenate", async () => {
    const p = pipeline()
      .addComponent("b", new Words({ words: ["b1", "b2"] }))
      .addComponent("a", new Words({ words: ["a1"] }))
      .addComponent("sink", new ListSink())
      .addComponent("optional", new OptionalList())
      .connect("b", "sink")
      .connect("a", "sink")
      .connect("b", "optional")
      .connect("a", "optional");
    expect(await p.run({})).toEqual({ sink: { items: ["a1", "b1", "b2"] }, optional: { count: 3 } });
  });

  test("without type validation every pair is compatible, so names must decide", () => {
    const p = new Pipeline({ connectionTypeValidation: false })
      .addComponent("add", new AddFixedValue())
      .addComponent("echo", new Echo());
    p.connect("add.result", "echo.text");
    expect(p.connections()).toHaveLength(1);
    expect(p.connectionTypeValidation).toBe(false);
  });
});

describe("inputs() and outputs()", () => {
  test("describe the unconnected (and variadic) sockets with schema, mandatory flag and default", () => {
    const p = pipeline()
      .addComponent("add", new AddFixedValue())
      .addComponent("double", new Double())
      .addComponent("sum", new Sum())
      .connect("add", "double")
      .connect("double", "sum");
    const inputs = p.inputs();
    expect(Object.keys(inputs)).toEqual(["add", "sum"]);
    expect(inputs.add?.value).toMatchObject({ mandatory: true, variadic: "none" });
    expect(inputs.add?.add).toMatchObject({ mandatory: false });
    expect(inputs.sum?.values).toMatchObject({ mandatory: false, variadic: "lazy" });
    expect(Object.keys(p.outputs())).toEqual(["sum"]);
    expect(p.outputs().sum?.total?.schema).toBeDefined();
  });

  test("report defaults", () => {
    const WithDefault = defineComponent({
      type: "ptest.build.WithDefault",
      inputs: { label: z.string().default("x"), parts: variadic(z.string().default("p")) },
      outputs: {},
      run: () => ({}),
    });
    const inputs = pipeline().addComponent("c", new WithDefault()).inputs();
    expect(inputs.c?.label?.defaultValue).toBe("x");
    expect(inputs.c?.parts?.defaultValue).toEqual(["p"]);
  });
});

describe("options", () => {
  test("are readable and validated", () => {
    const p = new Pipeline({ maxRunsPerComponent: 3, metadata: { owner: "me" } });
    expect(p.maxRunsPerComponent).toBe(3);
    expect(p.metadata).toEqual({ owner: "me" });
    expect(p.connectionTypeValidation).toBe(true);
    expect(() => new Pipeline({ maxRunsPerComponent: 0 })).toThrow(PipelineValidationError);
  });
});
