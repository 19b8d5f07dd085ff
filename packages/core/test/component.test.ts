import {
  ComponentError,
  defineComponent,
  greedyVariadic,
  InMemoryTracer,
  MemoryLogger,
  noopTracer,
  type RunContext,
  variadic,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

describe("params", () => {
  const Generator = defineComponent({
    type: "component_test.Generator",
    params: z.object({
      model: z.string(),
      temperature: z.number().min(0).default(1),
      options: z.object({ retries: z.int() }).optional(),
    }),
    inputs: {},
    outputs: {},
    run: () => ({}),
  });

  test("are validated and completed with their defaults", () => {
    expect(new Generator({ model: "m" }).params).toEqual({ model: "m", temperature: 1 });
  });

  test("invalid params throw one ComponentError that lists every bad field with its path", () => {
    let caught: unknown;
    try {
      new Generator({ temperature: -1, options: { retries: 1.5 } } as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ComponentError);
    const error = caught as ComponentError;
    expect(error.code).toBe("COMPONENT_ERROR");
    expect(error.componentType).toBe("component_test.Generator");
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ["params", "model"],
      ["params", "temperature"],
      ["params", "options", "retries"],
    ]);
    expect(error.message).toContain("3 problems");
    expect(error.message).toContain("params.options.retries");
  });

  test("a component without params takes no argument", () => {
    const Plain = defineComponent({ type: "component_test.Plain", inputs: {}, outputs: {}, run: () => ({}) });
    expect(new Plain().params).toEqual({});
  });
});

describe("socket descriptions", () => {
  const Sockets = defineComponent({
    type: "component_test.Sockets",
    inputs: {
      value: z.number(),
      label: z.string().optional(),
      factor: z.number().default(2),
      tags: z.array(z.string()).default([]),
      parts: variadic(z.string()),
      extras: variadic(z.string().default("x")),
      maybe: variadic(z.string().optional()),
      first: greedyVariadic(z.boolean()),
    },
    outputs: { result: z.number() },
    run: ({ value }) => ({ result: value }),
  });
  const component = new Sockets();
  const sockets = component.inputSockets;

  test("mandatory unless optional or defaulted", () => {
    const mandatory = Object.values(sockets)
      .filter((socket) => socket.mandatory)
      .map((socket) => socket.name);
    expect(mandatory).toEqual(["value", "parts", "first"]);
  });

  test("defaults, including variadic element defaults", () => {
    expect(sockets.factor.hasDefault).toBe(true);
    expect(sockets.factor.defaultValue()).toBe(2);
    expect(sockets.label.hasDefault).toBe(false);
    expect(sockets.label.defaultValue()).toBeUndefined();
    expect(sockets.extras.defaultValue()).toEqual(["x"]);
    expect(sockets.maybe.defaultValue()).toEqual([]);
  });

  test("a default value is a fresh copy each time", () => {
    const first = sockets.tags.defaultValue() as string[];
    first.push("mutated");
    expect(sockets.tags.defaultValue()).toEqual([]);
  });

  test("variadic kinds and element schemas", () => {
    expect(sockets.value.variadic).toBe("none");
    expect(sockets.parts.variadic).toBe("lazy");
    expect(sockets.first.variadic).toBe("greedy");
    expect(sockets.parts.schema._zod.def.type).toBe("string");
    expect(component.outputSockets.result.name).toBe("result");
    expect(component.outputSockets.result.schema._zod.def.type).toBe("number");
  });
});

describe("definition errors are clear and immediate", () => {
  const define = (overrides: Record<string, unknown>) => () =>
    defineComponent({
      type: "component_test.Bad",
      inputs: {},
      outputs: {},
      run: () => ({}),
      ...overrides,
    } as never);

  test("an output declared variadic", () => {
    expect(define({ outputs: { out: variadic(z.string()) } })).toThrow(ComponentError);
    expect(define({ outputs: { out: variadic(z.string()) } })).toThrow(
      /output socket "out" is declared variadic/,
    );
  });

  test("a variadic of a variadic", () => {
    expect(() => variadic(variadic(z.string()) as never)).toThrow(/element schema is itself variadic/);
    expect(() => greedyVariadic(greedyVariadic(z.string()) as never)).toThrow(ComponentError);
  });

  test("a variadic of something that is not a schema", () => {
    expect(() => variadic("text" as never)).toThrow(
      /expected a zod schema for one element, got string "text"/,
    );
  });

  test("an input or output that is not a schema", () => {
    expect(define({ inputs: { a: "string" } })).toThrow(
      /input socket "a" must be declared with a zod schema/,
    );
    expect(define({ outputs: { b: 3 } })).toThrow(/output socket "b" must be declared with a zod schema/);
  });

  test("a missing type or run", () => {
    expect(define({ type: " " })).toThrow(/`type` must be a non-empty string/);
    expect(define({ type: "component_test.NoRun", run: undefined })).toThrow(/`run` must be a function/);
  });

  test("dynamic sockets are checked when an instance is made", () => {
    const Dynamic = defineComponent({
      type: "component_test.BadDynamic",
      params: z.object({ variadicOutput: z.boolean() }),
      inputs: {},
      outputs: (params) =>
        params.variadicOutput ? { out: variadic(z.string()) as never } : { out: z.string() },
      run: () => ({}),
    });
    expect(() => new Dynamic({ variadicOutput: false })).not.toThrow();
    expect(() => new Dynamic({ variadicOutput: true })).toThrow(/output socket "out" is declared variadic/);
  });
});

describe("sockets decided by the params", () => {
  const Joiner = defineComponent({
    type: "component_test.Joiner",
    params: z.object({ names: z.array(z.string()), separator: z.string().default(" ") }),
    inputs: (params) => Object.fromEntries(params.names.map((name) => [name, z.string()])),
    outputs: { joined: z.string() },
    run: (inputs, { params }) => ({ joined: Object.values(inputs).join(params.separator) }),
  });

  test("each instance has its own sockets", async () => {
    const two = new Joiner({ names: ["a", "b"] });
    const one = new Joiner({ names: ["only"] });
    expect(Object.keys(two.inputSockets)).toEqual(["a", "b"]);
    expect(Object.keys(one.inputSockets)).toEqual(["only"]);
    expect(await two.run({ a: "x", b: "y" })).toEqual({ joined: "x y" });
    await expect(one.run({ a: "x" })).rejects.toThrow(/unknown input socket "a"/);
  });
});

describe("lifecycle", () => {
  function tracked() {
    const calls: string[] = [];
    const Tracked = defineComponent({
      type: `component_test.Tracked${Math.random().toString(36).slice(2)}`,
      inputs: {},
      outputs: { ok: z.boolean() },
      warmUp: async () => {
        calls.push("warmUp");
      },
      close: () => {
        calls.push("close");
      },
      run: () => {
        calls.push("run");
        return { ok: true };
      },
    });
    return { component: new Tracked(), calls };
  }

  test("warmUp runs once, before the first run, even when called concurrently", async () => {
    const { component, calls } = tracked();
    await Promise.all([component.warmUp(), component.warmUp()]);
    await component.run({});
    await component.run({});
    expect(calls).toEqual(["warmUp", "run", "run"]);
  });

  test("a run warms up on its own", async () => {
    const { component, calls } = tracked();
    await component.run({});
    expect(calls).toEqual(["warmUp", "run"]);
  });

  test("close releases and allows a later warm-up", async () => {
    const { component, calls } = tracked();
    await component.run({});
    await component.close();
    await component.run({});
    expect(calls).toEqual(["warmUp", "run", "close", "warmUp", "run"]);
  });

  test("a failed warm-up is retried by the next run", async () => {
    let attempts = 0;
    const Flaky = defineComponent({
      type: "component_test.Flaky",
      inputs: {},
      outputs: {},
      warmUp: () => {
        attempts += 1;
        if (attempts === 1) throw new Error("not yet");
      },
      run: () => ({}),
    });
    const component = new Flaky();
    await expect(component.run({})).rejects.toThrow("not yet");
    await expect(component.run({})).resolves.toEqual({});
    expect(attempts).toBe(2);
  });
});

describe("a direct run", () => {
  const seen: Record<string, unknown>[] = [];
  const Adder = defineComponent({
    type: "component_test.Adder",
    inputs: {
      value: z.number(),
      add: z.number().default(1),
      label: z.string().optional(),
      parts: variadic(z.string()),
    },
    outputs: { result: z.number() },
    run: async (inputs) => {
      seen.push({ ...inputs });
      return { result: inputs.value + inputs.add };
    },
  });
  const adder = new Adder();

  test("fills defaults and passes every socket, optional ones as undefined", async () => {
    expect(await adder.run({ value: 1, parts: ["a"] })).toEqual({ result: 2 });
    const inputs = seen.at(-1)!;
    expect(inputs).toEqual({ value: 1, add: 1, label: undefined, parts: ["a"] });
    expect(Object.keys(inputs).sort()).toEqual(["add", "label", "parts", "value"]);
  });

  test("collects every invalid input into one ComponentError", async () => {
    const error = (await adder
      .run({ add: "two", parts: ["a", 3], nope: true } as never, { componentName: "adder" })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      )) as ComponentError;
    expect(error).toBeInstanceOf(ComponentError);
    expect(error.componentName).toBe("adder");
    expect(error.issues.map((issue) => issue.path)).toEqual([["nope"], ["value"], ["add"], ["parts", 1]]);
    expect(error.message).toContain('unknown input socket "nope"');
    expect(error.message).toContain("missing mandatory input");
    expect(error.message).toMatch(/^"adder" \(component_test.Adder\)\.run: invalid inputs/);
  });

  test("a variadic socket takes an array", async () => {
    await expect(adder.run({ value: 1, parts: "a" } as never)).rejects.toThrow(
      /variadic socket takes an array/,
    );
  });

  test("an aborted signal stops the run before it starts", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(adder.run({ value: 1, parts: [] }, { signal: controller.signal })).rejects.toThrow("stop");
  });
});

describe("the run context", () => {
  const contexts: RunContext[] = [];
  const Probe = defineComponent({
    type: "component_test.Probe",
    params: z.object({ greeting: z.string().default("hi") }),
    inputs: {},
    outputs: {},
    run: async (_inputs, context) => {
      contexts.push(context as RunContext);
      await context.emit({ chunk: context.params.greeting });
      return {};
    },
  });

  test("carries params, signal, name, tracer, logger and emit", async () => {
    const controller = new AbortController();
    const tracer = new InMemoryTracer();
    const logger = new MemoryLogger();
    const emitted: unknown[] = [];
    await new Probe({ greeting: "hello" }).run(
      {},
      {
        signal: controller.signal,
        componentName: "probe",
        tracer,
        logger,
        onEmit: (payload) => {
          emitted.push(payload);
        },
      },
    );
    const context = contexts.at(-1)!;
    expect(context.params).toEqual({ greeting: "hello" });
    expect(context.signal).toBe(controller.signal);
    expect(context.componentName).toBe("probe");
    expect(context.tracer).toBe(tracer);
    expect(context.logger).toBe(logger);
    expect(emitted).toEqual([{ chunk: "hello" }]);
  });

  test("outside a pipeline: no signal, no name, the no-op tracer, emits dropped", async () => {
    await new Probe().run({});
    const context = contexts.at(-1)!;
    expect(context.signal).toBeUndefined();
    expect("signal" in context).toBe(true);
    expect(context.componentName).toBeUndefined();
    expect(context.tracer).toBe(noopTracer);
  });
});
