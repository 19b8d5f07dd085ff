import {
  callComponent,
  componentCaller,
  defineComponent,
  invokeComponent,
  isPromiseLike,
  type RunContext,
} from "@junction/core";
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

describe("componentCaller", () => {
  const seen: RunContext[] = [];
  const Recorder = defineComponent({
    type: "test.Recorder",
    inputs: { value: z.number() },
    outputs: { doubled: z.number() },
    run: async ({ value }, context) => {
      seen.push(context as RunContext);
      await context.emit({ value });
      return { doubled: value * 2 };
    },
  });

  test("every call gets the same options: signal, logger, emit target and name", async () => {
    seen.length = 0;
    const controller = new AbortController();
    const emitted: unknown[] = [];
    const call = componentCaller(new Recorder(), {
      signal: controller.signal,
      componentName: "recorder",
      onEmit: (payload) => {
        emitted.push(payload);
      },
    });
    await expect(call({ value: 1 })).resolves.toEqual({ doubled: 2 });
    await expect(call({ value: 2 })).resolves.toEqual({ doubled: 4 });
    expect(emitted).toEqual([{ value: 1 }, { value: 2 }]);
    expect(seen.map((context) => [context.signal, context.componentName])).toEqual([
      [controller.signal, "recorder"],
      [controller.signal, "recorder"],
    ]);
    // One run context for the caller's calls (built once), with the component's own params.
    expect(seen[0]).toBe(seen[1]);
  });

  test("answers without a promise when the run does, waits for a warm-up once, throws a synchronous failure", async () => {
    const double = componentCaller(new Double());
    expect(double({ value: 3 })).toEqual({ doubled: 6 });
    const before = warmUps;
    const warmed = componentCaller(new Warmed());
    const first = warmed({ value: 5 });
    expect(isPromiseLike(first)).toBe(true);
    await expect(first).resolves.toEqual({ doubled: 10 });
    expect(warmed({ value: 6 })).toEqual({ doubled: 12 });
    expect(warmUps).toBe(before + 1);
    expect(() => componentCaller(new Failing())({ value: 1 })).toThrow("no doubling today");
  });

  test("a separate caller gets its own run context", async () => {
    seen.length = 0;
    const recorder = new Recorder();
    await componentCaller(recorder)({ value: 1 });
    await componentCaller(recorder)({ value: 1 });
    expect(seen[0]).not.toBe(seen[1]);
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
