import {
  defineComponent,
  MemoryLogger,
  Pipeline,
  type PipelineEvent,
  PipelineRuntimeError,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AddFixedValue, Double, delay, Threshold } from "./support/pipeline-components.js";

const Talker = defineComponent({
  type: "ptest.stream.Talker",
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: async ({ text }, { emit }) => {
    for (const word of text.split(" ")) await emit({ delta: word });
    return { text: text.toUpperCase() };
  },
});

let running = 0;
let sawAbort = false;
const Slow = defineComponent({
  type: "ptest.stream.Slow",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: async ({ value }, { signal }) => {
    running += 1;
    try {
      await delay(10_000, signal);
    } catch (error) {
      sawAbort = signal?.aborted === true;
      throw error;
    } finally {
      running -= 1;
    }
    return { value };
  },
});

async function collect(events: AsyncIterable<PipelineEvent>): Promise<PipelineEvent[]> {
  const all: PipelineEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("Pipeline.stream", () => {
  test("yields start, chunk and end events, then run_end with the outputs", async () => {
    const p = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("talk", new Talker())
      .addComponent("double", new Double());
    const events = await collect(
      p.stream({ talk: { text: "hi there" }, double: { value: 2 } }, { concurrency: 1 }),
    );
    expect(events).toEqual([
      {
        type: "component_start",
        componentName: "double",
        componentType: "ptest.Double",
        visit: 1,
        inputs: { value: 2 },
      },
      {
        type: "component_end",
        componentName: "double",
        componentType: "ptest.Double",
        visit: 1,
        outputs: { value: 4 },
      },
      {
        type: "component_start",
        componentName: "talk",
        componentType: "ptest.stream.Talker",
        visit: 1,
        inputs: { text: "hi there" },
      },
      { type: "chunk", componentName: "talk", chunk: { delta: "hi" } },
      { type: "chunk", componentName: "talk", chunk: { delta: "there" } },
      {
        type: "component_end",
        componentName: "talk",
        componentType: "ptest.stream.Talker",
        visit: 1,
        outputs: { text: "HI THERE" },
      },
      {
        type: "run_end",
        status: "completed",
        outputs: { double: { value: 4 }, talk: { text: "HI THERE" } },
        neverRan: [],
      },
    ]);
  });

  test("the final event lists the components that never ran, with reasons", async () => {
    const p = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("check", new Threshold({ threshold: 5 }))
      .addComponent("big", new Double())
      .connect("check.above", "big");
    const events = await collect(p.stream({ value: 1 }));
    expect(events.at(-1)).toEqual({
      type: "run_end",
      status: "completed",
      outputs: { check: { below: 1 } },
      neverRan: [
        {
          componentName: "big",
          reason:
            'mandatory input "value" is waiting: "check" ran but produced no value for it (a branch that was not taken).',
        },
      ],
    });
  });

  test("run hands the same never-ran list to onNeverRan, without streaming", async () => {
    const p = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("check", new Threshold({ threshold: 5 }))
      .addComponent("big", new Double())
      .connect("check.above", "big");
    const reports: unknown[] = [];
    const outputs = await p.run({ value: 1 }, { onNeverRan: (neverRan) => reports.push(neverRan) });
    expect(outputs).toEqual({ check: { below: 1 } });
    const streamed = (await collect(p.stream({ value: 1 }))).at(-1);
    expect(reports).toEqual([(streamed as { neverRan: unknown }).neverRan]);
    expect(reports[0]).toMatchObject([{ componentName: "big" }]);
  });

  test("counts visits of components in loops", async () => {
    const Join = defineComponent({
      type: "ptest.stream.Join",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: ({ value }) => ({ value }),
    });
    const p = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("add", new AddFixedValue())
      .addComponent("check", new Threshold({ threshold: 3 }))
      .addComponent("join", new Join())
      .connect("add", "check")
      .connect("check.below", "join")
      .connect("join", "add.add");
    const ends = (await collect(p.stream({ add: { value: 1 } })))
      .filter((event) => event.type === "component_end" && event.componentName === "add")
      .map((event) => (event.type === "component_end" ? [event.visit, event.outputs] : []));
    expect(ends).toEqual([
      [1, { result: 2 }],
      [2, { result: 3 }],
    ]);
  });

  test("leaving the loop early cancels the run and nothing keeps running", async () => {
    running = 0;
    sawAbort = false;
    const p = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("fast", new Double())
      .addComponent("slow", new Slow())
      .connect("fast", "slow");
    const seen: string[] = [];
    for await (const event of p.stream({ fast: { value: 1 } })) {
      seen.push(event.type);
      if (event.type === "component_start" && event.componentName === "slow") break;
    }
    expect(seen).toEqual(["component_start", "component_end", "component_start"]);
    expect(sawAbort).toBe(true);
    expect(running).toBe(0);
  });

  test("a failing run makes the iteration throw", async () => {
    const Fails = defineComponent({
      type: "ptest.stream.Fails",
      inputs: {},
      outputs: {},
      run: () => {
        throw new Error("nope");
      },
    });
    const p = new Pipeline({ logger: new MemoryLogger() }).addComponent("fails", new Fails());
    await expect(collect(p.stream({}))).rejects.toBeInstanceOf(PipelineRuntimeError);
  });

  test("the caller's signal cancels a stream", async () => {
    running = 0;
    const controller = new AbortController();
    const p = new Pipeline({ logger: new MemoryLogger() }).addComponent("slow", new Slow());
    const reason = new Error("stop streaming");
    const events = collect(p.stream({ value: 1 }, { signal: controller.signal }));
    await delay(10);
    controller.abort(reason);
    await expect(events).rejects.toBe(reason);
    expect(running).toBe(0);
  });
});
