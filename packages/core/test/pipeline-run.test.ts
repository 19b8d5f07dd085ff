import { MemoryLogger, Pipeline } from "@junction/core";
import { describe, expect, test } from "vitest";
import { AddFixedValue, Collect, Double, Echo, Join, Sum, Threshold } from "./support/pipeline-components.js";

function pipeline() {
  return new Pipeline({ logger: new MemoryLogger() });
}

describe("Pipeline.run", () => {
  test("runs a linear chain with nested inputs", async () => {
    const p = pipeline()
      .addComponent("adder", new AddFixedValue({ add: 2 }))
      .addComponent("double", new Double())
      .connect("adder.result", "double.value");
    expect(await p.run({ adder: { value: 1 } })).toEqual({ double: { value: 6 } });
  });

  test("accepts flat inputs and fans them out to every unconnected socket of that name", async () => {
    const p = pipeline()
      .addComponent("first", new Echo({ label: "1" }))
      .addComponent("second", new Echo({ label: "2" }));
    expect(await p.run({ text: "x" })).toEqual({ first: { text: "x1" }, second: { text: "x2" } });
  });

  test("an empty pipeline returns {}", async () => {
    expect(await pipeline().run({})).toEqual({});
  });

  test("includeOutputsFrom reports consumed outputs too", async () => {
    const p = pipeline()
      .addComponent("adder", new AddFixedValue())
      .addComponent("double", new Double())
      .connect("adder", "double");
    expect(await p.run({ adder: { value: 1 } }, { includeOutputsFrom: ["adder"] })).toEqual({
      adder: { result: 2 },
      double: { value: 4 },
    });
  });

  test("a lazy variadic socket collects one value per sender, ordered by sender name", async () => {
    const p = pipeline()
      .addComponent("b", new Echo({ label: "b" }))
      .addComponent("a", new Echo({ label: "a" }))
      .addComponent("c", new Echo({ label: "c" }))
      .addComponent("collect", new Collect())
      .connect("c", "collect")
      .connect("b", "collect")
      .connect("a", "collect");
    expect(await p.run({ text: "" })).toEqual({ collect: { joined: "a,b,c" } });
  });

  test("a loop through a greedy joiner runs until the router leaves it", async () => {
    const p = pipeline()
      .addComponent("join", new Join())
      .addComponent("add", new AddFixedValue({ add: 1 }))
      .addComponent("check", new Threshold({ threshold: 5 }))
      .connect("join", "add.value")
      .connect("add.result", "check.value")
      .connect("check.below", "join.value");
    expect(await p.run({ join: { value: 1 } })).toEqual({ check: { above: 5 } });
  });

  test("a router's un-taken branch ends the run normally and is reported", async () => {
    const logger = new MemoryLogger();
    const p = new Pipeline({ logger })
      .addComponent("check", new Threshold({ threshold: 5 }))
      .addComponent("high", new Double())
      .addComponent("low", new AddFixedValue())
      .connect("check.above", "high.value")
      .connect("check.below", "low.value");
    expect(await p.run({ check: { value: 9 } })).toEqual({ high: { value: 18 } });
    // The run produced outputs, so the un-taken branch is reported at info level, not as a warning.
    expect(logger.messages("warn")).toEqual([]);
    const reports = logger.records.filter((record) => record.level === "info");
    expect(reports).toHaveLength(1);
    expect(reports[0]!.message).toContain('"low"');
    expect(reports[0]!.message).toContain('"check" ran but produced no value');
  });

  test("sums values from parallel branches", async () => {
    const p = pipeline()
      .addComponent("x", new AddFixedValue({ add: 1 }))
      .addComponent("y", new AddFixedValue({ add: 2 }))
      .addComponent("sum", new Sum())
      .connect("x", "sum")
      .connect("y", "sum");
    expect(await p.run({ value: 10 })).toEqual({ sum: { total: 23 } });
  });
});
