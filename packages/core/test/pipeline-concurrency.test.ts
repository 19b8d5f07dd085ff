import {
  defineComponent,
  greedyVariadic,
  InMemoryTracer,
  MemoryLogger,
  Pipeline,
  PipelineRuntimeError,
  variadic,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { seededRandom as random } from "../../../test/support/seeded-random.js";
import { delay } from "./support/pipeline-components.js";

/** Concurrency, determinism, cancellation and failure. */

interface Probe {
  running: number;
  maxRunning: number;
  latency: (name: string, visit: number) => number;
  visits: Map<string, number>;
  aborted: string[];
}

function makeProbe(latency: Probe["latency"] = () => 0): Probe {
  return { running: 0, maxRunning: 0, latency, visits: new Map(), aborted: [] };
}

async function work(probe: Probe, name: string, signal: AbortSignal | undefined): Promise<void> {
  const visit = (probe.visits.get(name) ?? 0) + 1;
  probe.visits.set(name, visit);
  probe.running += 1;
  probe.maxRunning = Math.max(probe.maxRunning, probe.running);
  try {
    await delay(probe.latency(name, visit), signal);
  } catch (error) {
    probe.aborted.push(name);
    throw error;
  } finally {
    probe.running -= 1;
  }
}

let currentProbe = makeProbe();

const Step = defineComponent({
  type: "ptest.concurrency.Step",
  params: z.object({ suffix: z.string() }),
  inputs: { text: z.string() },
  outputs: { text: z.string(), list: z.array(z.string()) },
  run: async ({ text }, { params, componentName, signal }) => {
    await work(currentProbe, componentName!, signal);
    return { text: text + params.suffix, list: [params.suffix] };
  },
});

const Gather = defineComponent({
  type: "ptest.concurrency.Gather",
  inputs: { parts: variadic(z.string()), lists: z.array(z.string()).optional() },
  outputs: { text: z.string() },
  run: async ({ parts, lists }, { componentName, signal }) => {
    await work(currentProbe, componentName!, signal);
    return { text: `${parts.join("|")}/${(lists ?? []).join("")}` };
  },
});

const Entry = defineComponent({
  type: "ptest.concurrency.Entry",
  inputs: { text: greedyVariadic(z.string()) },
  outputs: { text: z.string() },
  run: async ({ text }, { componentName, signal }) => {
    await work(currentProbe, componentName!, signal);
    return { text: text[0]! };
  },
});

const Route = defineComponent({
  type: "ptest.concurrency.Route",
  inputs: { text: z.string() },
  outputs: { again: z.string(), done: z.string() },
  run: async ({ text }, { componentName, signal }) => {
    await work(currentProbe, componentName!, signal);
    return text.length < 40 ? { again: text } : { done: text };
  },
});

/** A graph with fan-out, lazy and auto-variadic joins, and a loop entered through a greedy socket. */
function buildGraph(): Pipeline {
  const p = new Pipeline({ logger: new MemoryLogger() });
  p.addComponent("entry", new Entry());
  for (const name of ["d", "b", "c", "a"]) {
    p.addComponent(name, new Step({ suffix: name }));
    p.connect("entry", `${name}.text`);
  }
  p.addComponent("b2", new Step({ suffix: "B" })).connect("b.text", "b2.text");
  p.addComponent("gather", new Gather());
  for (const name of ["d", "b2", "c", "a"]) p.connect(`${name}.text`, "gather.parts");
  for (const name of ["c", "a"]) p.connect(`${name}.list`, "gather.lists");
  p.addComponent("route", new Route()).connect("gather", "route").connect("route.again", "entry");
  return p;
}

async function observe(concurrency: number, seed: number) {
  const next = random(seed);
  currentProbe = makeProbe(() => Math.floor(next() * 4));
  const tracer = new InMemoryTracer();
  const outputs = await buildGraph().run(
    { entry: { text: "x" } },
    { concurrency, tracer, includeOutputsFrom: ["gather"] },
  );
  const inputs = tracer
    .find("junction.component.run")
    .map((span) => [
      span.tags["junction.component.name"],
      span.tags["junction.component.visit"],
      span.tags["junction.component.input"],
    ])
    .sort((x, y) => String(x[0]).localeCompare(String(y[0])) || Number(x[1]) - Number(y[1]));
  return { outputs, inputs, maxRunning: currentProbe.maxRunning };
}

describe("determinism", () => {
  test("outputs, variadic order and per-visit inputs are the same at concurrency 1 and unbounded, whatever the latencies", async () => {
    const reference = await observe(1, 1);
    expect(reference.maxRunning).toBe(1);
    // Values join in scheduling order: a, c, d ran in one wave (by name), b2 in the next.
    expect(reference.outputs.gather).toEqual({
      text: "xa|xc|xd|xbB/aca|xa|xc|xd|xbB/acc|xa|xc|xd|xbB/acd|xa|xc|xd|xbB/acbB/ac",
    });
    for (let seed = 1; seed <= 12; seed += 1) {
      const sequential = await observe(1, seed);
      const concurrent = await observe(Number.POSITIVE_INFINITY, seed + 100);
      expect(concurrent.maxRunning).toBeGreaterThan(1);
      expect(sequential.outputs).toEqual(reference.outputs);
      expect(concurrent.outputs).toEqual(reference.outputs);
      expect(sequential.inputs).toEqual(reference.inputs);
      expect(concurrent.inputs).toEqual(reference.inputs);
    }
  });

  test("lazy variadic values are ordered by scheduling order, not by who finished first", async () => {
    for (const latencies of [
      { a: 6, c: 3, d: 1 },
      { a: 0, c: 3, d: 6 },
    ]) {
      currentProbe = makeProbe((name, visit) =>
        visit === 1 ? ((latencies as Record<string, number>)[name] ?? 0) : 0,
      );
      const outputs = await buildGraph().run({ entry: { text: "x" } }, { includeOutputsFrom: ["gather"] });
      expect(String(outputs.gather?.text).split("/")[0]).toMatch(/^x\w*a\|x\w*c\|x\w*d\|x\w*bB$/);
    }
  });
});

describe("concurrency", () => {
  test("independent components run at the same time, up to the cap", async () => {
    currentProbe = makeProbe(() => 2);
    await buildGraph().run({ entry: { text: "x" } }, { concurrency: 2 });
    expect(currentProbe.maxRunning).toBe(2);
    currentProbe = makeProbe(() => 2);
    await buildGraph().run({ entry: { text: "x" } });
    expect(currentProbe.maxRunning).toBe(4);
  });

  test("parallel branches really overlap: a barrier that needs all of them completes", async () => {
    let arrived = 0;
    let release!: () => void;
    const barrier = new Promise<void>((resolve) => {
      release = resolve;
    });
    const Meet = defineComponent({
      type: "ptest.concurrency.Meet",
      inputs: { text: z.string() },
      outputs: { text: z.string() },
      run: async ({ text }) => {
        arrived += 1;
        if (arrived === 3) release();
        await barrier;
        return { text };
      },
    });
    const p = new Pipeline({ logger: new MemoryLogger() });
    for (const name of ["m1", "m2", "m3"]) p.addComponent(name, new Meet());
    expect(await p.run({ text: "t" })).toEqual({ m1: { text: "t" }, m2: { text: "t" }, m3: { text: "t" } });
  });
});

describe("cancellation", () => {
  test("aborting rejects with the signal's reason, reaches every running component, and leaves none running", async () => {
    currentProbe = makeProbe((name) => (name === "entry" ? 0 : 1000));
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const run = buildGraph().run({ entry: { text: "x" } }, { signal: controller.signal });
    await delay(20);
    expect(currentProbe.running).toBe(4);
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(currentProbe.running).toBe(0);
    expect(currentProbe.aborted.sort()).toEqual(["a", "b", "c", "d"]);
    expect(currentProbe.visits.has("gather")).toBe(false);
  });

  test("a signal aborted before the run starts runs nothing", async () => {
    currentProbe = makeProbe();
    const reason = new Error("too late");
    await expect(
      buildGraph().run({ entry: { text: "x" } }, { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(currentProbe.visits.size).toBe(0);
  });

  test("aborting a chain stops before the next component", async () => {
    currentProbe = makeProbe(() => 1000);
    const controller = new AbortController();
    const p = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("one", new Step({ suffix: "1" }))
      .addComponent("two", new Step({ suffix: "2" }))
      .connect("one.text", "two.text");
    const run = p.run({ one: { text: "x" } }, { signal: controller.signal });
    await delay(10);
    controller.abort(new Error("stop"));
    await expect(run).rejects.toThrow("stop");
    expect([...currentProbe.visits.keys()]).toEqual(["one"]);
  });
});

describe("failures", () => {
  test("a throwing component fails the run with PipelineRuntimeError; its siblings are cancelled first", async () => {
    const boom = new Error("boom");
    const Fails = defineComponent({
      type: "ptest.concurrency.Fails",
      inputs: { text: z.string() },
      outputs: { text: z.string() },
      run: async () => {
        await delay(5);
        throw boom;
      },
    });
    currentProbe = makeProbe(() => 1000);
    const p = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("slow1", new Step({ suffix: "1" }))
      .addComponent("slow2", new Step({ suffix: "2" }))
      .addComponent("fails", new Fails());
    const error = await p.run({ text: "x" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect(error).toMatchObject({
      componentName: "fails",
      componentType: "ptest.concurrency.Fails",
      cause: boom,
    });
    expect((error as Error).message).toContain('component "fails" (ptest.concurrency.Fails) failed: boom');
    expect(currentProbe.aborted.sort()).toEqual(["slow1", "slow2"]);
    expect(currentProbe.running).toBe(0);
  });
});

describe("a wave whose members feed each other", () => {
  test("a receiver waits for an earlier member of its wave, exactly as in a sequential run", async () => {
    const calls: string[] = [];
    const Entry = defineComponent({
      type: "ptest.concurrency.WaveEntry",
      inputs: { value: greedyVariadic(z.number()) },
      outputs: { value: z.number() },
      run: async ({ value }) => {
        await delay(5);
        calls.push(`entry(${value[0]})`);
        return { value: value[0]! * 10 };
      },
    });
    const Feed = defineComponent({
      type: "ptest.concurrency.WaveFeed",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: ({ value }) => {
        calls.push(`feed(${value})`);
        return { value };
      },
    });
    const Reader = defineComponent({
      type: "ptest.concurrency.WaveReader",
      inputs: { value: z.number(), extra: z.number().optional() },
      outputs: { total: z.number() },
      run: ({ value, extra }) => {
        calls.push(`reader(${value},${extra})`);
        return { total: value + (extra ?? 0) };
      },
    });
    const build = () =>
      new Pipeline({ logger: new MemoryLogger() })
        .addComponent("entry", new Entry())
        .addComponent("feed", new Feed())
        .addComponent("reader", new Reader())
        .connect("feed", "entry")
        .connect("entry", "reader.extra");
    const inputs = { entry: { value: 1 }, feed: { value: 2 }, reader: { value: 100 } };
    // Wave 1: entry (HIGHEST) and feed; wave 2: entry again (fed by feed) and reader, which must see
    // entry's second output, not its first.
    const sequential = await build().run(inputs, { concurrency: 1 });
    expect(calls).toEqual(["entry(1)", "feed(2)", "entry(2)", "reader(100,20)"]);
    calls.length = 0;
    const concurrent = await build().run(inputs);
    expect(calls).toEqual(["feed(2)", "entry(1)", "entry(2)", "reader(100,20)"]);
    expect(concurrent).toEqual(sequential);
    expect(sequential).toEqual({ reader: { total: 120 } });
  });
});
