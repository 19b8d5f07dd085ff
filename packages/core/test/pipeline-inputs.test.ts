import { defineComponent, MemoryLogger, Pipeline, PipelineValidationError } from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  AddFixedValue,
  Double,
  Echo,
  Join,
  ListSink,
  Threshold,
  Words,
} from "./support/pipeline-components.js";

const Mutator = defineComponent({
  type: "ptest.inputs.Mutator",
  inputs: { items: z.array(z.string()), config: z.object({ tag: z.string() }).passthrough() },
  outputs: { items: z.array(z.string()) },
  run: ({ items, config }) => {
    items.push("mutated");
    (config as { tag: string }).tag = "changed";
    return { items };
  },
});

class Point {
  constructor(readonly x: number) {}
}

const PointReader = defineComponent({
  type: "ptest.inputs.PointReader",
  inputs: { point: z.instanceof(Point) },
  outputs: { same: z.boolean() },
  run: ({ point }) => ({ same: point === sharedPoint }),
});
const sharedPoint = new Point(1);

const pipeline = () => new Pipeline({ logger: new MemoryLogger() });

async function rejection(promise: Promise<unknown>): Promise<PipelineValidationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PipelineValidationError);
  return error as PipelineValidationError;
}

describe("nested and flat inputs", () => {
  test("keys that are all component names are nested; keys that are none are flat", async () => {
    const p = pipeline().addComponent("echo", new Echo({ label: "!" }));
    expect(await p.run({ echo: { text: "a" } })).toEqual({ echo: { text: "a!" } });
    expect(await p.run({ text: "b" })).toEqual({ echo: { text: "b!" } });
  });

  test("a mix of component and non-component keys is rejected with an explanation of both forms", async () => {
    const p = pipeline().addComponent("echo", new Echo()).addComponent("double", new Double());
    const error = await rejection(p.run({ echo: { text: "a" }, value: 2 }));
    expect(error.message).toContain('"echo" is a component name, but "value" is not');
    expect(error.message).toContain('inputsFormat: "nested" | "flat"');
  });

  test("evidently nested inputs (some keys name components, every value is an object) report every problem at once", async () => {
    const p = pipeline().addComponent("add_two", new AddFixedValue({ add: 2 }));
    const error = await rejection(p.run({ wrong_comp_name: {}, add_two: { value: "one", wrong_input: 2 } }));
    expect(error).toBeInstanceOf(PipelineValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ["wrong_comp_name"],
      ["add_two", "wrong_input"],
      ["add_two", "value"],
    ]);
    expect(error.message).toContain('unknown component "wrong_comp_name"');
    expect(error.message).toContain('has no input socket "wrong_input"');
    expect(error.message).not.toContain("cannot tell whether");
  });

  test("inputsFormat forces a form", async () => {
    // A socket named like a component: flat would be misread as nested without the option.
    const Text = defineComponent({
      type: "ptest.inputs.Text",
      inputs: { echo: z.string() },
      outputs: { echo: z.string() },
      run: ({ echo }) => ({ echo }),
    });
    const p = pipeline().addComponent("echo", new Text());
    expect(await p.run({ echo: "hi" }, { inputsFormat: "flat" })).toEqual({ echo: { echo: "hi" } });
    const error = await rejection(p.run({ echo: "hi" }, { inputsFormat: "nested" }));
    expect(error.issues[0]?.path).toEqual(["echo"]);
  });

  test("a flat key goes to every unconnected socket of that name, not to connected ones", async () => {
    const p = pipeline()
      .addComponent("first", new Echo({ label: "1" }))
      .addComponent("second", new Echo({ label: "2" }))
      .connect("first", "second");
    expect(await p.run({ text: "x" })).toEqual({ second: { text: "x12" } });
  });

  test("a misspelled component in nested inputs is read as nested and the closest name is suggested", async () => {
    const p = pipeline().addComponent("num", new Double()).addComponent("echo", new Echo());
    const error = await rejection(p.run({ nmu: { value: 3 } }));
    expect(error.issues[0]).toMatchObject({ path: ["nmu"] });
    expect(error.message).toContain('unknown component "nmu". Did you mean "num"?');
    expect(error.message).not.toContain("Use the nested form");
  });

  test("misspelled sockets and flat keys get the closest names", async () => {
    const p = pipeline().addComponent("num", new AddFixedValue());
    const nested = await rejection(p.run({ num: { valeu: 3 } }));
    expect(nested.message).toContain('has no input socket "valeu". Did you mean "value"?');
    const flat = await rejection(p.run({ valeu: 3 }));
    expect(flat.message).toContain(
      'no component has an unconnected input socket "valeu". Did you mean "value"?',
    );
  });

  test("a flat key that matches no socket is an error", async () => {
    const p = pipeline().addComponent("echo", new Echo());
    const error = await rejection(p.run({ text: "a", nope: 1 }));
    expect(error.issues).toEqual([{ path: ["nope"], message: expect.stringContaining('"nope"') }]);
  });
});

describe("validation", () => {
  test("collects every problem with its path and throws once", async () => {
    const p = pipeline()
      .addComponent("add", new AddFixedValue())
      .addComponent("echo", new Echo())
      .addComponent("double", new Double());
    const error = await rejection(
      p.run({ add: { value: "one", extra: 1 }, echo: {}, double: { value: 2 } }, { inputsFormat: "nested" }),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ["add", "extra"],
      ["add", "value"],
      ["echo", "text"],
    ]);
    expect(error.message).toContain("3 problems");
    expect(error.message).toContain('missing mandatory input "text" of "echo"');
  });

  test("unknown components are reported when the nested form is forced", async () => {
    const p = pipeline().addComponent("echo", new Echo());
    const error = await rejection(
      p.run({ echo: { text: "a" }, ghost: { x: 1 } }, { inputsFormat: "nested" }),
    );
    expect(error.issues[0]).toMatchObject({
      path: ["ghost"],
      message: expect.stringContaining('unknown component "ghost"'),
    });
  });

  test("run input into a connected socket that is not a list is refused", async () => {
    const p = pipeline()
      .addComponent("a", new AddFixedValue())
      .addComponent("d", new Double())
      .connect("a", "d");
    const error = await rejection(p.run({ a: { value: 1 }, d: { value: 2 } }));
    expect(error.issues[0]?.path).toEqual(["d", "value"]);
    expect(error.message).toContain("already receives from");
  });

  test("run input into a loop's entry socket says how loops are entered", async () => {
    const p = pipeline()
      .addComponent("add", new AddFixedValue())
      .addComponent("check", new Threshold({ threshold: 5 }))
      .connect("add", "check")
      .connect("check.below", "add.value");
    const error = await rejection(p.run({ add: { value: 1 } }));
    expect(error.issues[0]?.path).toEqual(["add", "value"]);
    expect(error.message).toContain("is fed by the loop");
    expect(error.message).toContain('declare "value" as greedyVariadic(...)');
    expect(error.message).toContain("put a BranchJoiner in front of it");
    expect(error.message).toContain('"Loops" in docs/pipelines.md');
  });

  test("run input into a connected list socket joins the sender's list for this run only", async () => {
    const p = pipeline()
      .addComponent("words", new Words({ words: ["w"] }))
      .addComponent("sink", new ListSink())
      .connect("words", "sink");
    expect(await p.run({ sink: { items: ["user"] } })).toEqual({ sink: { items: ["user", "w"] } });
    expect(p.inputs().sink).toBeUndefined();
    expect(await p.run({})).toEqual({ sink: { items: ["w"] } });
  });

  test("includeOutputsFrom and concurrency are checked", async () => {
    const p = pipeline().addComponent("echo", new Echo());
    await rejection(p.run({ text: "a" }, { includeOutputsFrom: ["ghost"] }));
    await rejection(p.run({ text: "a" }, { concurrency: 0 }));
  });

  test("input values are parsed by their schema (defaults inside objects are filled)", async () => {
    const Configured = defineComponent({
      type: "ptest.inputs.Configured",
      inputs: { config: z.object({ retries: z.number().default(3) }) },
      outputs: { retries: z.number() },
      run: ({ config }) => ({ retries: config.retries }),
    });
    const p = pipeline().addComponent("c", new Configured());
    expect(await p.run({ config: {} })).toEqual({ c: { retries: 3 } });
  });
});

describe("isolation", () => {
  test("components cannot mutate the caller's values", async () => {
    const p = pipeline().addComponent("m", new Mutator());
    const items = ["a"];
    const config = { tag: "t" };
    expect(await p.run({ m: { items, config } })).toEqual({ m: { items: ["a", "mutated"] } });
    expect(items).toEqual(["a"]);
    expect(config).toEqual({ tag: "t" });
  });

  test("class instances are passed by reference", async () => {
    const p = pipeline().addComponent("reader", new PointReader());
    expect(await p.run({ point: sharedPoint })).toEqual({ reader: { same: true } });
  });

  test("a run input that persists across loop visits is fresh on every visit", async () => {
    const seen: string[][] = [];
    const Recorder = defineComponent({
      type: "ptest.inputs.Recorder",
      inputs: { value: z.number(), tags: z.array(z.string()) },
      outputs: { value: z.number() },
      run: ({ value, tags }) => {
        seen.push([...tags]);
        tags.push("dirty");
        return { value: value + 1 };
      },
    });
    const p = pipeline()
      .addComponent("join", new Join())
      .addComponent("record", new Recorder())
      .addComponent("check", new Threshold({ threshold: 3 }))
      .connect("join", "record.value")
      .connect("record", "check")
      .connect("check.below", "join");
    expect(await p.run({ join: { value: 0 }, record: { tags: ["t"] } })).toEqual({ check: { above: 3 } });
    expect(seen).toEqual([["t"], ["t"], ["t"]]);
  });
});
