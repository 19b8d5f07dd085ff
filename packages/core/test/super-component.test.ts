import {
  ComponentError,
  defineComponent,
  InMemoryTracer,
  MemoryLogger,
  Pipeline,
  type PipelineEvent,
  SuperComponent,
} from "@junction/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Add = defineComponent({
  type: "test.sc.Add",
  params: z.object({ add: z.number().default(1) }),
  inputs: { value: z.number(), add: z.number().optional() },
  outputs: { result: z.number() },
  run: ({ value, add }, { params }) => ({ result: value + (add ?? params.add) }),
});

const Double = defineComponent({
  type: "test.sc.Double",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value * 2 }),
});

const Echo = defineComponent({
  type: "test.sc.Echo",
  inputs: { text: z.string().default("hi") },
  outputs: { text: z.string() },
  run: async ({ text }, { emit }) => {
    await emit(`chunk:${text}`);
    return { text };
  },
});

function addThenDouble(add = 2): Pipeline {
  return new Pipeline()
    .addComponent("adder", new Add({ add }))
    .addComponent("double", new Double())
    .connect("adder.result", "double.value");
}

describe("SuperComponent", () => {
  it("maps open inputs and leaf outputs by name by default", async () => {
    const wrapped = new SuperComponent({ pipeline: addThenDouble() });
    expect(Object.keys(wrapped.inputSockets).sort()).toEqual(["add", "value"]);
    expect(Object.keys(wrapped.outputSockets)).toEqual(["value"]);
    expect(wrapped.inputSockets.value!.mandatory).toBe(true);
    expect(wrapped.inputSockets.add!.mandatory).toBe(false);
    expect(await wrapped.run({ value: 1 })).toEqual({ value: 6 });
  });

  it("checks a wrapped input once: a socket schema's transform is applied once, not again inside", async () => {
    const Shout = defineComponent({
      type: "ptest.super.Shout",
      inputs: { text: z.string().transform((text) => `${text}!`) },
      outputs: { text: z.string() },
      run: ({ text }) => ({ text }),
    });
    const inline = new Pipeline().addComponent("shout", new Shout());
    const wrapped = new SuperComponent({ pipeline: new Pipeline().addComponent("shout", new Shout()) });
    const outer = new Pipeline().addComponent("wrapped", wrapped);
    expect(await inline.run({ shout: { text: "hi" } })).toEqual({ shout: { text: "hi!" } });
    expect(await outer.run({ wrapped: { text: "hi" } })).toEqual({ wrapped: { text: "hi!" } });
    expect(await wrapped.run({ text: "hi" })).toEqual({ text: "hi!" });
  });

  it("runs inside a pipeline like any component, with explicit mappings", async () => {
    const wrapped = new SuperComponent({
      pipeline: addThenDouble(),
      inputMapping: { x: ["adder.value"] },
      outputMapping: { "double.value": "y", "adder.result": "sum" },
    });
    const outer = new Pipeline()
      .addComponent("inner", wrapped)
      .addComponent("after", new Add({ add: 100 }))
      .connect("inner.y", "after.value");
    const out = await outer.run({ inner: { x: 1 } });
    // "sum" is the output of a component connected inside: it is still returned.
    expect(out).toEqual({ inner: { sum: 3 }, after: { result: 106 } });
  });

  it("gives an input mapped to several sockets their common type, optional only when all are", () => {
    const inner = new Pipeline().addComponent("a", new Add()).addComponent("b", new Add());
    const wrapped = new SuperComponent({
      pipeline: inner,
      inputMapping: { value: ["a.value", "b.value"], add: ["a.add", "b.add"] },
      outputMapping: { "a.result": "a", "b.result": "b" },
    });
    expect(wrapped.inputSockets.value!.mandatory).toBe(true);
    expect(wrapped.inputSockets.add!.mandatory).toBe(false);
    expect(
      () =>
        new SuperComponent({
          pipeline: new Pipeline().addComponent("a", new Add()).addComponent("e", new Echo()),
          inputMapping: { both: ["a.value", "e.text"] },
          outputMapping: { "a.result": "result" },
        }),
    ).toThrow(/no common type: "a.value" \(number\), "e.text" \(string\)/);
  });

  it("lets the inner defaults apply when an optional input is not given", async () => {
    const inner = new Pipeline().addComponent("e", new Echo());
    const wrapped = new SuperComponent({ pipeline: inner });
    expect(wrapped.inputSockets.text!.mandatory).toBe(false);
    expect(await wrapped.run({})).toEqual({ text: "hi" });
  });

  it("reports every mapping problem at construction, naming the sockets", () => {
    const inner = addThenDouble();
    let error: unknown;
    try {
      new SuperComponent({
        pipeline: inner,
        inputMapping: { x: ["nope.value"], y: ["double.value"], z: [] },
        outputMapping: { "double.missing": "out" },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ComponentError);
    const message = (error as Error).message;
    expect(message).toContain('"nope.value" names no component');
    expect(message).toContain('"double.value" is connected inside the pipeline');
    expect(message).toContain("non-empty list");
    expect(message).toContain('"double" has no output socket "missing"');
    expect(message).toContain('mandatory inner input "adder.value" is not mapped');
  });

  it("refuses two leaf outputs with the same name by default, naming both", () => {
    const inner = new Pipeline().addComponent("a", new Add()).addComponent("b", new Add());
    expect(
      () => new SuperComponent({ pipeline: inner, inputMapping: { value: ["a.value", "b.value"] } }),
    ).toThrow(/"a.result" and "b.result" both map to output "result"/);
  });

  it("nests spans under the outer component's span and shares the logger", async () => {
    const tracer = new InMemoryTracer();
    const outer = new Pipeline().addComponent("sc", new SuperComponent({ pipeline: addThenDouble() }));
    await outer.run({ sc: { value: 1 } }, { tracer });
    const scSpan = tracer
      .find("junction.component.run")
      .find((span) => span.tags["junction.component.name"] === "sc")!;
    const innerRun = tracer.find("junction.pipeline.run").find((span) => span.parent === scSpan);
    expect(innerRun).toBeDefined();
    const inner = tracer.find("junction.component.run").filter((span) => span.parent === innerRun);
    expect(inner.map((span) => span.tags["junction.component.name"])).toEqual(["adder", "double"]);
  });

  it("streams inner events with outer/inner paths", async () => {
    const inner = new Pipeline().addComponent("echo", new Echo());
    const middle = new Pipeline().addComponent("box", new SuperComponent({ pipeline: inner }));
    const outer = new Pipeline().addComponent("outer", new SuperComponent({ pipeline: middle }));
    const events: PipelineEvent[] = [];
    for await (const event of outer.stream({ outer: { text: "yo" } })) events.push(event);
    expect(
      events.map((event) => `${event.type}:${"componentName" in event ? event.componentName : ""}`),
    ).toEqual([
      "component_start:outer",
      "component_start:outer/box",
      "component_start:outer/box/echo",
      "chunk:outer/box/echo",
      "component_end:outer/box/echo",
      "component_end:outer/box",
      "component_end:outer",
      "run_end:",
    ]);
    expect(events[3]).toMatchObject({ type: "chunk", chunk: "chunk:yo" });
    expect(events.at(-1)).toMatchObject({ outputs: { outer: { text: "yo" } } });
  });

  it("hands inner chunks to onEmit when run directly", async () => {
    const wrapped = new SuperComponent({ pipeline: new Pipeline().addComponent("echo", new Echo()) });
    const seen: unknown[] = [];
    await wrapped.run({ text: "a" }, { onEmit: (chunk) => void seen.push(chunk) });
    expect(seen).toEqual(["chunk:a"]);
  });

  it("passes the signal inside: aborting the outer run stops the inner component", async () => {
    let innerSignal: AbortSignal | undefined;
    const Wait = defineComponent({
      type: "test.sc.Wait",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: ({ value }, { signal }) =>
        new Promise<{ value: number }>((resolve, reject) => {
          innerSignal = signal;
          signal?.addEventListener("abort", () => reject(signal.reason));
          if (value < 0) resolve({ value });
        }),
    });
    const outer = new Pipeline().addComponent(
      "sc",
      new SuperComponent({ pipeline: new Pipeline().addComponent("wait", new Wait()) }),
    );
    const controller = new AbortController();
    const run = outer.run({ sc: { value: 1 } }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("stop"));
    await expect(run).rejects.toThrow("stop");
    expect(innerSignal?.aborted).toBe(true);
  });

  it("warms up and closes the inner components", async () => {
    const calls: string[] = [];
    const Life = defineComponent({
      type: "test.sc.Life",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: ({ value }) => ({ value }),
      warmUp: () => void calls.push("warm"),
      close: () => void calls.push("close"),
    });
    const wrapped = new SuperComponent({ pipeline: new Pipeline().addComponent("life", new Life()) });
    await wrapped.warmUp();
    await wrapped.run({ value: 1 });
    await wrapped.close();
    expect(calls).toEqual(["warm", "close"]);
  });

  it("refuses a pipeline that contains itself", async () => {
    const inner = new Pipeline().addComponent("adder", new Add());
    const wrapped = new SuperComponent({ pipeline: inner });
    inner.addComponent("self", wrapped);
    await expect(wrapped.warmUp()).rejects.toThrow(/contains itself/);
    expect(() => inner.toJSON()).toThrow(/contains itself/);
  });

  it("reports inner failures naming the outer and the inner component", async () => {
    const Boom = defineComponent({
      type: "test.sc.Boom",
      inputs: { value: z.number() },
      outputs: {},
      run: () => {
        throw new Error("kaput");
      },
    });
    const logger = new MemoryLogger();
    const outer = new Pipeline({ logger }).addComponent(
      "sc",
      new SuperComponent({ pipeline: new Pipeline().addComponent("boom", new Boom()) }),
    );
    await expect(outer.run({ sc: { value: 1 } })).rejects.toThrow(/"sc".*"boom".*kaput/s);
  });
});
