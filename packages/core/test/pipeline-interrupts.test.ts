import {
  defineComponent,
  inProcessDurable,
  MemoryRunStore,
  Pipeline,
  type PipelineEvent,
  type RunSnapshot,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { interruptOf } from "./support/interrupts.js";
import { AddFixedValue, Double, Sum } from "./support/pipeline-components.js";

/** Asks a person for a number to add; restarts on resume (it did nothing before asking). */
const Ask = defineComponent({
  type: "ptest.Ask",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }, context) => {
    if (context.resume === undefined) context.interrupt({ payload: { question: `add to ${value}?` } });
    return { value: value + Number(context.resume?.response ?? 0) };
  },
});

function linear(): Pipeline {
  const p = new Pipeline();
  p.addComponent("add", new AddFixedValue({ add: 1 }));
  p.addComponent("ask", new Ask());
  p.addComponent("double", new Double());
  p.connect("add.result", "ask.value");
  p.connect("ask.value", "double.value");
  return p;
}

describe("a component interrupt in a pipeline", () => {
  test("stops the run with an id <component>#<visit>; resume continues with the response", async () => {
    const p = linear();
    const error = await interruptOf(p.run({ add: { value: 1 } }));
    expect(error.interrupts).toEqual([
      { id: "ask#1", kind: "component", path: ["ask"], payload: { question: "add to 2?" } },
    ]);
    const snapshot = JSON.parse(JSON.stringify(error.snapshot)) as RunSnapshot;
    expect(snapshot.pipeline?.visits).toEqual({ add: 1 });
    expect(await p.resume(snapshot, { "ask#1": { action: "respond", value: 10 } })).toEqual({
      double: { value: 24 },
    });
  });

  test("parallel members that interrupt each get an interrupt; the others keep their results", async () => {
    const runs: string[] = [];
    const Track = defineComponent({
      type: "ptest.Track",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: ({ value }, context) => {
        runs.push(context.componentName ?? "");
        return { value };
      },
    });
    const p = new Pipeline();
    p.addComponent("a", new Ask()).addComponent("b", new Track()).addComponent("c", new Ask());
    p.addComponent("sum", new Sum());
    p.connect("a.value", "sum.values").connect("b.value", "sum.values").connect("c.value", "sum.values");
    const error = await interruptOf(p.run({ a: { value: 1 }, b: { value: 2 }, c: { value: 3 } }));
    expect(error.interrupts.map((item) => item.id)).toEqual(["a#1", "c#1"]);
    expect(runs).toEqual(["b"]);
    const out = await p.resume(error.snapshot!, {
      "a#1": { action: "respond", value: 100 },
      "c#1": { action: "respond", value: 1000 },
    });
    expect(out).toEqual({ sum: { total: 101 + 2 + 1003 } });
    expect(runs).toEqual(["b"]); // b's saved result was committed, it did not run again
  });

  test("stream() ends with an interrupt event and run_end status interrupted", async () => {
    const events: PipelineEvent[] = [];
    for await (const event of linear().stream({ add: { value: 1 } }, { runId: "s-1" })) events.push(event);
    const last = events.slice(-2);
    expect(last[0]).toMatchObject({ type: "interrupt", runId: "s-1", interrupts: [{ id: "ask#1" }] });
    expect(last[1]).toMatchObject({ type: "run_end", status: "interrupted", runId: "s-1" });
  });

  test("resumeStream() yields the resumed run's events; a refused resume rejects before anything runs", async () => {
    const store = new MemoryRunStore();
    const p = linear();
    await interruptOf(p.run({ add: { value: 1 } }, { store, runId: "rs-1" }));
    const first = p.resumeStream("rs-1", {}, { store })[Symbol.asyncIterator]();
    await expect(first.next()).rejects.toMatchObject({ code: "RESUME_INCOMPLETE" });
    expect((await store.load("rs-1"))?.status).toBe("interrupted");
    const events: PipelineEvent[] = [];
    for await (const event of p.resumeStream(
      "rs-1",
      { "ask#1": { action: "respond", value: 10 } },
      { store },
    ))
      events.push(event);
    expect(
      events.map((event) => `${event.type} ${"componentName" in event ? event.componentName : ""}`),
    ).toEqual([
      "component_start ask",
      "component_end ask",
      "component_start double",
      "component_end double",
      "run_end ",
    ]);
    expect(events.at(-1)).toEqual({
      type: "run_end",
      status: "completed",
      outputs: { double: { value: 24 } },
      neverRan: [],
      runId: "rs-1",
    });
    expect((await store.load("rs-1"))?.status).toBe("completed");
  });

  test("with a store: resume by run id, once; a changed pipeline fails closed", async () => {
    const store = new MemoryRunStore();
    const p = linear();
    const error = await interruptOf(p.run({ add: { value: 1 } }, { store, runId: "p-1" }));
    expect(error.snapshot).toBeUndefined();
    const other = linear();
    other.addComponent("extra", new Double());
    await expect(
      other.resume("p-1", { "ask#1": { action: "respond", value: 1 } }, { store }),
    ).rejects.toMatchObject({
      code: "RESUME_DEFINITION_CHANGED",
    });
    expect(await p.resume("p-1", { "ask#1": { action: "respond", value: 1 } }, { store })).toEqual({
      double: { value: 6 },
    });
    await expect(
      p.resume("p-1", { "ask#1": { action: "respond", value: 1 } }, { store }),
    ).rejects.toMatchObject({
      code: "RUN_NOT_RESUMABLE",
    });
  });

  test("a component run directly interrupts and resumes too", async () => {
    const ask = new Ask();
    const error = await interruptOf(ask.run({ value: 5 }));
    expect(error.interrupts.map((item) => item.id)).toEqual(["root"]);
    expect(await ask.resume(error.snapshot!, { root: { action: "respond", value: 2 } })).toEqual({
      value: 7,
    });
  });
});

describe('durability "steps" refuses what cannot work, before anything runs', () => {
  test("without a store, with a durable backend, or an unknown mode", async () => {
    const steps = { durability: "steps" } as const;
    await expect(linear().run({ add: { value: 1 } }, steps)).rejects.toThrow(
      'durability "steps" writes every step to a store, and no store was given',
    );
    await expect(
      linear()
        .stream({ add: { value: 1 } }, steps)
        [Symbol.asyncIterator]()
        .next(),
    ).rejects.toThrow("no store was given");
    await expect(new Ask().run({ value: 1 }, steps)).rejects.toThrow("no store was given");
    const store = new MemoryRunStore();
    await expect(
      linear().run({ add: { value: 1 } }, { ...steps, store, durable: inProcessDurable }),
    ).rejects.toThrow("both journal the run's steps; use one");
    await expect(
      linear().run({ add: { value: 1 } }, { durability: "everything" as "interrupts" }),
    ).rejects.toThrow('durability must be "interrupts" or "steps" (got "everything")');
    const listed: string[] = [];
    for await (const run of store.list()) listed.push(run.runId);
    expect(listed).toEqual([]);
  });
});
