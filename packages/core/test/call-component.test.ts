import { callComponent, defineComponent, invokeComponent, isPromiseLike } from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const Double = defineComponent({
  type: "test.Double",
  inputs: { value: z.number() },
  outputs: { doubled: z.number() },
  run: ({ value }) => ({ doubled: value * 2 }),
});

const SlowDouble = defineComponent({
  type: "test.SlowDouble",
  inputs: { value: z.number() },
  outputs: { doubled: z.number() },
  run: async ({ value }) => ({ doubled: value * 2 }),
});

let warmUps = 0;
const Warmed = defineComponent({
  type: "test.Warmed",
  inputs: { value: z.number() },
  outputs: { doubled: z.number() },
  warmUp: async () => {
    warmUps += 1;
  },
  run: ({ value }) => ({ doubled: value * 2 }),
});

const Failing = defineComponent({
  type: "test.Failing",
  inputs: { value: z.number() },
  outputs: { doubled: z.number() },
  run: () => {
    throw new Error("no doubling today");
  },
});

describe("callComponent", () => {
  test("a component whose run answers at once hands back its outputs without a promise", () => {
    const outputs = callComponent(new Double(), { value: 21 });
    expect(isPromiseLike(outputs)).toBe(false);
    expect(outputs).toEqual({ doubled: 42 });
  });

  test("an async run gives its promise", async () => {
    const outputs = callComponent(new SlowDouble(), { value: 21 });
    expect(isPromiseLike(outputs)).toBe(true);
    await expect(outputs).resolves.toEqual({ doubled: 42 });
  });

  test("the first call of a component with a warm-up waits for it; later calls do not", async () => {
    const component = new Warmed();
    const before = warmUps;
    const first = callComponent(component, { value: 1 });
    expect(isPromiseLike(first)).toBe(true);
    await expect(first).resolves.toEqual({ doubled: 2 });
    expect(warmUps).toBe(before + 1);
    expect(callComponent(component, { value: 2 })).toEqual({ doubled: 4 });
    expect(warmUps).toBe(before + 1);
  });

  test("a synchronous failure is thrown; invokeComponent turns it into a rejection", async () => {
    expect(() => callComponent(new Failing(), { value: 1 })).toThrow("no doubling today");
    await expect(invokeComponent(new Failing(), { value: 1 })).rejects.toThrow("no doubling today");
  });

  test("invokeComponent always gives a promise, also for a run that answers at once", async () => {
    const outputs = invokeComponent(new Double(), { value: 4 });
    expect(outputs).toBeInstanceOf(Promise);
    await expect(outputs).resolves.toEqual({ doubled: 8 });
  });
});

describe("isPromiseLike", () => {
  test("is true for promises and other thenables, false for plain values", () => {
    expect(isPromiseLike(Promise.resolve(1))).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a promise, on purpose
    expect(isPromiseLike({ then: () => undefined })).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: a `then` that is not a function, on purpose
    for (const value of [1, "then", null, undefined, { then: 1 }, [], () => 1])
      expect(isPromiseLike(value)).toBe(false);
  });
});
