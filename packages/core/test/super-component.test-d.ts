import { defineComponent, Pipeline, SuperComponent } from "@junction/core";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";

const Add = defineComponent({
  type: "test.scd.Add",
  inputs: { value: z.number(), add: z.number().optional() },
  outputs: { result: z.number() },
  run: ({ value, add }) => ({ result: value + (add ?? 1) }),
});
const Format = defineComponent({
  type: "test.scd.Format",
  inputs: { value: z.number(), prefix: z.string().default(">") },
  outputs: { text: z.string() },
  run: ({ value, prefix }) => ({ text: `${prefix}${value}` }),
});

describe("SuperComponent types", () => {
  const inner = Pipeline.builder()
    .add("adder", new Add())
    .add("format", new Format())
    .connect("adder.result", "format.value")
    .build();

  it("keeps the inner socket types across the boundary", () => {
    const wrapped = new SuperComponent({
      pipeline: inner,
      inputMapping: { x: ["adder.value"], step: "adder.add" },
      outputMapping: { "format.text": "label", "adder.result": "sum" },
    });
    expectTypeOf(wrapped.run).parameter(0).toEqualTypeOf<{ x: number; step?: number | undefined }>();
    expectTypeOf<Awaited<ReturnType<typeof wrapped.run>>>().toEqualTypeOf<{ label?: string; sum?: number }>();

    const Shout = defineComponent({
      type: "test.scd.Shout",
      inputs: { text: z.string() },
      outputs: { text: z.string() },
      run: ({ text }) => ({ text: text.toUpperCase() }),
    });
    Pipeline.builder()
      .add("sc", wrapped)
      .add("shout", new Shout())
      .add("adder", new Add())
      .connect("sc.label", "shout.text")
      .connect("sc.sum", "adder.value")
      // @ts-expect-error a string output cannot feed a number input
      .connect("sc.label", "adder.value");
  });

  it("makes an input optional only when every mapped socket is", () => {
    const both = Pipeline.builder().add("a", new Add()).add("f", new Format()).build();
    const wrapped = new SuperComponent({
      pipeline: both,
      inputMapping: { value: ["a.value", "f.value"], add: ["a.add"], prefix: ["f.prefix"] },
      outputMapping: { "f.text": "text" },
    });
    expectTypeOf(wrapped.run)
      .parameter(0)
      .toEqualTypeOf<{ value: number; add?: number | undefined; prefix?: string | undefined }>();
  });

  it("is loosely typed for a pipeline built without the builder", () => {
    const wrapped = new SuperComponent({ pipeline: new Pipeline() });
    expectTypeOf(wrapped.run).parameter(0).toEqualTypeOf<Record<string, unknown>>();
  });
});
