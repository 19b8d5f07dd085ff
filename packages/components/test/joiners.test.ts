import {
  BranchJoiner,
  ConditionalRouter,
  ListJoiner,
  OutputAdapter,
  PromptBuilder,
  StringJoiner,
} from "@junction/components";
import { ComponentError, MemoryLogger, Pipeline } from "@junction/core";
import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { roundTrip } from "./support/round-trip.js";

/** Ported from the reference's test/components/joiners/test_{branch,list,string}_joiner.py, plus pipelines. */

function pipeline(): Pipeline {
  return new Pipeline({ logger: new MemoryLogger() });
}

describe("BranchJoiner", () => {
  test("a greedy variadic input and an output of the configured type", () => {
    const joiner = new BranchJoiner({ type: z.number() });
    expect(joiner.inputSockets.value?.variadic).toBe("greedy");
    expect(joiner.inputSockets.value?.schema._zod.def.type).toBe("number");
    expect(joiner.outputSockets.value?.schema._zod.def.type).toBe("number");
  });

  test("forwards the one value it receives", async () => {
    const joiner = new BranchJoiner({ type: z.array(z.string()) });
    expect(await joiner.run({ value: [["a", "b"]] })).toEqual({ value: ["a", "b"] });
  });

  test("more than one value is an error that points to ListJoiner", async () => {
    const joiner = new BranchJoiner({ type: z.number() });
    await expect(joiner.run({ value: [1, 2] })).rejects.toThrow(
      /expected exactly one value on "value", got 2.*ListJoiner/,
    );
  });

  test("values are checked against the type", async () => {
    await expect(new BranchJoiner({ type: z.number() }).run({ value: ["x"] as never })).rejects.toThrow(
      ComponentError,
    );
  });

  test("the type is written as JSON Schema and read back, named types included", async () => {
    const { initParameters, copy } = roundTrip(new BranchJoiner({ type: z.array(chatMessageSchema) }));
    expect(initParameters.type).toMatchObject({ type: "array", items: { "x-junction-type": "ChatMessage" } });
    const messages = [ChatMessage.fromUser("hi")];
    expect((await copy.run({ value: [messages] })).value).toEqual(messages);
  });

  test("the entry point of a loop: runs once per arrival", async () => {
    const loop = pipeline()
      .addComponent("joiner", new BranchJoiner({ type: z.number() }))
      .addComponent("increment", new OutputAdapter({ expression: "value + 1", outputType: z.number() }))
      .addComponent(
        "check",
        new ConditionalRouter({
          routes: [
            { condition: "value < 3", output: "value", outputName: "again", outputType: z.number() },
            { condition: "true", output: "value", outputName: "done", outputType: z.number() },
          ],
        }),
      );
    loop.connect("joiner.value", "increment.value");
    loop.connect("increment.output", "check.value");
    loop.connect("check.again", "joiner.value");
    expect(await loop.run({ joiner: { value: 0 } })).toEqual({ check: { done: 3 } });
  });
});

describe("ListJoiner", () => {
  test("concatenates the lists in the order received", async () => {
    const joiner = new ListJoiner();
    expect(await joiner.run({ values: [["a"], ["b", "c"], []] })).toEqual({ values: ["a", "b", "c"] });
  });

  test("with a listType, the sockets carry it and values are checked", async () => {
    const joiner = new ListJoiner({ listType: z.array(z.string()) });
    expect(joiner.inputSockets.values?.variadic).toBe("lazy");
    expect(joiner.outputSockets.values?.schema._zod.def.type).toBe("array");
    await expect(joiner.run({ values: [[1]] as never })).rejects.toThrow(ComponentError);
  });

  test("round-trips with and without a listType", async () => {
    const typed = roundTrip(new ListJoiner({ listType: z.array(chatMessageSchema) }));
    expect(typed.initParameters.listType).toMatchObject({
      type: "array",
      items: { "x-junction-type": "ChatMessage" },
    });
    const messages = [ChatMessage.fromUser("a"), ChatMessage.fromUser("b")];
    expect((await typed.copy.run({ values: [[messages[0]], [messages[1]]] })).values).toEqual(messages);
    expect(roundTrip(new ListJoiner()).initParameters).toEqual({});
  });

  test("in a pipeline the order is the engine's and does not depend on concurrency", async () => {
    const build = () => {
      const p = pipeline()
        .addComponent(
          "first",
          new OutputAdapter({ expression: "[x, x + 1]", outputType: z.array(z.number()) }),
        )
        .addComponent(
          "second",
          new OutputAdapter({ expression: "[x * 10]", outputType: z.array(z.number()) }),
        )
        .addComponent(
          "third",
          new OutputAdapter({ expression: "[x * 100, x * 100]", outputType: z.array(z.number()) }),
        )
        .addComponent("joiner", new ListJoiner({ listType: z.array(z.number()) }));
      for (const sender of ["first", "second", "third"]) p.connect(`${sender}.output`, "joiner.values");
      return p;
    };
    const inputs = { first: { x: 1 }, second: { x: 1 }, third: { x: 1 } };
    const sequential = await build().run(inputs, { concurrency: 1 });
    const concurrent = await build().run(inputs);
    expect(concurrent).toEqual(sequential);
    const values = sequential.joiner?.values as number[];
    expect([...values].sort((a, b) => a - b)).toEqual([1, 2, 10, 100, 100]);
    // each sender's list stays whole and in its own order
    expect(values.indexOf(2)).toBe(values.indexOf(1) + 1);
  });
});

describe("StringJoiner", () => {
  test("collects strings into a list", async () => {
    expect(await new StringJoiner().run({ strings: ["a", "b"] })).toEqual({ strings: ["a", "b"] });
    expect(roundTrip(new StringJoiner()).initParameters).toEqual({});
  });

  test("joins the prompts of two builders in a pipeline", async () => {
    const p = pipeline()
      .addComponent("builder_1", new PromptBuilder({ template: "Builder 1: {{ query }}" }))
      .addComponent("builder_2", new PromptBuilder({ template: "Builder 2: {{ query }}" }))
      .addComponent("joiner", new StringJoiner());
    p.connect("builder_1.prompt", "joiner.strings");
    p.connect("builder_2.prompt", "joiner.strings");
    const result = await p.run({
      builder_1: { query: "What is life?" },
      builder_2: { query: "What is NLP?" },
    });
    expect([...((result.joiner?.strings ?? []) as string[])].sort()).toEqual([
      "Builder 1: What is life?",
      "Builder 2: What is NLP?",
    ]);
  });
});
