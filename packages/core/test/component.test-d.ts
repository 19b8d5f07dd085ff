import { defineComponent, greedyVariadic, type InferResult, variadic } from "@junction/core";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

test("run's inputs are inferred from the input schemas", () => {
  defineComponent({
    type: "typetest.Inputs",
    inputs: {
      value: z.number(),
      label: z.string().optional(),
      factor: z.number().default(2),
      parts: variadic(z.string()),
      first: greedyVariadic(z.boolean()),
    },
    outputs: { result: z.number() },
    run: (inputs) => {
      expectTypeOf(inputs).toEqualTypeOf<{
        value: number;
        label: string | undefined;
        factor: number;
        parts: string[];
        first: boolean[];
      }>();
      return { result: inputs.value };
    },
  });
});

test("run's return is checked against the outputs", () => {
  defineComponent({
    type: "typetest.Outputs",
    inputs: {},
    outputs: { result: z.number(), other: z.string() },
    run: () => ({}),
  });
  defineComponent({
    type: "typetest.OutputsWrongType",
    inputs: {},
    outputs: { result: z.number() },
    // @ts-expect-error result must be a number
    run: () => ({ result: "no" }),
  });
  defineComponent({
    type: "typetest.OutputsUnknownKey",
    inputs: {},
    outputs: { result: z.number() },
    // @ts-expect-error unknown output key
    run: () => ({ result: 1, extra: true }),
  });
});

test("params are validated types and the constructor argument is optional only when it may be", () => {
  const Adder = defineComponent({
    type: "typetest.Adder",
    params: z.object({ add: z.number().default(1) }),
    inputs: { value: z.number(), add: z.number().optional() },
    outputs: { result: z.number() },
    run: ({ value, add }, { params }) => {
      expectTypeOf(params).toEqualTypeOf<{ add: number }>();
      return { result: value + (add ?? params.add) };
    },
  });
  new Adder();
  new Adder({ add: 3 });
  // @ts-expect-error add must be a number
  new Adder({ add: "x" });

  const Needs = defineComponent({
    type: "typetest.Needs",
    params: z.object({ model: z.string() }),
    inputs: {},
    outputs: {},
    run: () => ({}),
  });
  // @ts-expect-error model is required
  new Needs();
  new Needs({ model: "m" });
});

test("a direct run requires mandatory inputs and accepts optional ones", async () => {
  const Adder = defineComponent({
    type: "typetest.Adder2",
    inputs: { value: z.number(), add: z.number().default(1), parts: variadic(z.string()) },
    outputs: { result: z.number() },
    run: ({ value, add }) => ({ result: value + add }),
  });
  const adder = new Adder();
  const out = await adder.run({ value: 1, parts: ["a"] });
  expectTypeOf(out).toEqualTypeOf<{ result?: number }>();
  // @ts-expect-error value is mandatory
  await adder.run({ parts: [] });
  // @ts-expect-error unknown socket
  await adder.run({ value: 1, parts: [], nope: 1 });
});

test("async runs and routers that return different subsets type-check", () => {
  defineComponent({
    type: "typetest.AsyncRouter",
    inputs: { value: z.number() },
    outputs: { even: z.number(), odd: z.number() },
    run: async ({ value }) => (value % 2 === 0 ? { even: value } : { odd: value }),
  });
  defineComponent({
    type: "typetest.AsyncWrong",
    inputs: { value: z.number() },
    outputs: { even: z.number() },
    // @ts-expect-error unknown output key in an async run
    run: async ({ value }) => ({ even: value, nope: 1 }),
  });
});

test("sockets decided by configuration", () => {
  const Dynamic = defineComponent({
    type: "typetest.Dynamic",
    params: z.object({ names: z.array(z.string()) }),
    inputs: (params) => Object.fromEntries(params.names.map((name) => [name, z.string()])),
    outputs: { joined: z.string() },
    run: (inputs) => {
      expectTypeOf(inputs).toEqualTypeOf<{ [x: string]: string }>();
      return { joined: Object.values(inputs).join(" ") };
    },
  });
  expectTypeOf(new Dynamic({ names: ["a"] }).params.names).toEqualTypeOf<string[]>();
});

const Doubler = defineComponent({
  type: "typetest.Doubler",
  inputs: { value: z.number() },
  outputs: { doubled: z.number() },
  run: ({ value }) => ({ doubled: value * 2 }),
});
/** The documented pattern: the class doubles as its instance type. */
type Doubler = InstanceType<typeof Doubler>;

test("a defineComponent class names its instance type with one type alias", async () => {
  async function twice(component: Doubler, value: number): Promise<number | undefined> {
    return (await component.run({ value })).doubled;
  }
  expectTypeOf(twice(new Doubler(), 2)).resolves.toEqualTypeOf<number | undefined>();
  expectTypeOf<InferResult<Doubler>>().toEqualTypeOf<{ doubled?: number }>();
  const Other = defineComponent({ type: "typetest.Other", inputs: {}, outputs: {}, run: () => ({}) });
  // @ts-expect-error an instance of another class does not fit
  await twice(new Other(), 1);
});
