import { setTimeout as sleep } from "node:timers/promises";
import {
  defineComponent,
  FileRunStore,
  MemoryRunStore,
  Pipeline,
  RunInterruptedError,
  RunResumeError,
  type RunSnapshot,
  type RunStore,
  SerializationError,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { useTempDirs } from "../../../test/support/temp-dirs.js";
import { DyingStore } from "./support/dying-store.js";

const useTempDir = useTempDirs("steps");

interface Probe {
  readonly calls: string[];
  readonly hang?: string | undefined;
}
/** Each Step instance's probe, by its params object (params stay plain, so the fingerprint is stable). */
const probes = new WeakMap<object, Probe>();

const Step = defineComponent({
  type: "steps.Step",
  params: z.object({ name: z.string(), add: z.number() }),
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: async ({ value }, { params }) => {
    const probe = probes.get(params);
    probe?.calls.push(params.name);
    if (probe?.hang === params.name) await new Promise(() => {});
    return { value: value + params.add };
  },
});

/** A chain a → b → c whose components record each run in `calls` (and `hang` never finishes). */
function chain(calls: string[], hang?: string) {
  const p = new Pipeline();
  for (const [name, add] of [
    ["a", 1],
    ["b", 10],
    ["c", 100],
  ] as const) {
    const step = new Step({ name, add });
    probes.set(step.params, { calls, hang });
    p.addComponent(name, step);
  }
  p.connect("a.value", "b.value");
  p.connect("b.value", "c.value");
  return p;
}

async function statuses(store: RunStore, runId: string): Promise<string[]> {
  const out: string[] = [];
  for await (const info of store.history(runId)) out.push(info.status);
  return out;
}

describe('durability "steps" on a pipeline', () => {
  test("writes the running snapshot first, then one delta per component run, then the end", async () => {
    const store = new MemoryRunStore();
    const calls: string[] = [];
    const out = await chain(calls).run({ a: { value: 1 } }, { store, runId: "s1", durability: "steps" });
    expect(out).toEqual({ c: { value: 112 } });
    expect(await statuses(store, "s1")).toEqual(["running", "completed"]);
    const start = (await store.load("s1", 1))!;
    expect(start.durability).toBe("steps");
    expect(start.inputs).toEqual({ a: { value: 1 } });
    expect(start.lease).toMatchObject({ pid: process.pid, ms: 60_000 });
    const deltas = (await store.deltas("s1", 1)) as { step: string; value: unknown }[];
    expect(deltas.map((delta) => [delta.step, delta.value])).toEqual([
      ["a#1", { value: 2 }],
      ["b#1", { value: 12 }],
      ["c#1", { value: 112 }],
    ]);
  });

  test("a run whose process died is taken over: finished components are replayed, the one in flight runs again", async () => {
    const store = new DyingStore(2); // dies while writing b's result: b had run, its result was not kept
    const calls: string[] = [];
    void chain(calls).run({ a: { value: 1 } }, { store, runId: "crash", durability: "steps", leaseMs: 100 });
    await expect.poll(() => store.dead).toBe(true);
    expect(calls).toEqual(["a", "b"]);
    // Another process (same store) continues the run once the lease has run out.
    await sleep(150);
    const after: string[] = [];
    const out = await chain(after).resume("crash", {}, { store: store.inner });
    expect(out).toEqual({ c: { value: 112 } });
    expect(after).toEqual(["b", "c"]); // a is not run again
    expect(await statuses(store.inner, "crash")).toEqual(["running", "running", "completed"]);
    const takeover = (await store.inner.load("crash", 2))!;
    expect(takeover.journal?.map((entry) => entry.step)).toEqual(["a#1"]);
  });

  test("of two takeovers of one crashed run, exactly one wins; the other is refused and runs nothing", async () => {
    const store = new DyingStore(2, { foreignProcess: true }); // the runner's process is gone at once
    void chain([]).run({ a: { value: 1 } }, { store, runId: "race", durability: "steps" });
    await expect.poll(() => store.dead).toBe(true);
    const first: string[] = [];
    const second: string[] = [];
    const outcomes = await Promise.allSettled([
      chain(first).resume("race", {}, { store: store.inner }),
      chain(second).resume("race", {}, { store: store.inner }),
    ]);
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const lost = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(won).toEqual([{ status: "fulfilled", value: { c: { value: 112 } } }]);
    expect(lost.map((outcome) => (outcome as PromiseRejectedResult).reason)).toMatchObject([
      { code: "RUN_ALREADY_RESUMED" },
    ]);
    expect([first, second].sort((x, y) => x.length - y.length)).toEqual([[], ["b", "c"]]);
    expect(await statuses(store.inner, "race")).toEqual(["running", "running", "completed"]);
  });

  test("a running run whose process is alive is not taken over (RUN_IN_PROGRESS)", async () => {
    const store = new MemoryRunStore();
    const calls: string[] = [];
    void chain(calls, "b").run(
      { a: { value: 1 } },
      { store, runId: "busy", durability: "steps", leaseMs: 100 },
    );
    await expect.poll(() => calls).toEqual(["a", "b"]);
    // The runner keeps its lease alive with heartbeats while b runs.
    await sleep(250);
    const refused = await chain([])
      .resume("busy", {}, { store })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RunResumeError);
    expect(refused).toMatchObject({ code: "RUN_IN_PROGRESS" });
    expect((refused as Error).message).toContain(`process ${process.pid} on this host`);
    expect((await store.load("busy"))?.seq).toBe(1);
  });

  test("a takeover keeps the run's decisions; other decisions are refused", async () => {
    const store = new DyingStore(4); // a, b, c are journaled by the first run; ask's resumed run dies
    const Ask = defineComponent({
      type: "steps.Ask",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: ({ value }, context) => {
        if (context.resume === undefined) context.interrupt({ payload: "add?" });
        return { value: value + Number(context.resume?.response ?? 0) };
      },
    });
    const build = (calls: string[]) => {
      const p = chain(calls);
      p.addComponent("ask", new Ask());
      p.connect("c.value", "ask.value");
      return p;
    };
    const calls: string[] = [];
    const paused = await build(calls)
      .run({ a: { value: 1 } }, { store, runId: "ask", durability: "steps", leaseMs: 100 })
      .catch((error: unknown) => error as RunInterruptedError);
    expect(paused).toBeInstanceOf(RunInterruptedError);
    expect(calls).toEqual(["a", "b", "c"]);
    // The resume dies before its first step is written (the durability is the run's: "steps").
    void build(calls).resume("ask", { "ask#1": { action: "respond", value: 1000 } }, { store, leaseMs: 100 });
    await expect.poll(() => store.dead).toBe(true);
    await sleep(150);
    await expect(
      build([]).resume("ask", { "ask#1": { action: "respond", value: 5 } }, { store: store.inner }),
    ).rejects.toThrow(/already has its decisions.*\{\}, \{ store \}/);
    const after: string[] = [];
    expect(await build(after).resume("ask", {}, { store: store.inner })).toEqual({
      ask: { value: 1112 },
    });
    expect(after).toEqual([]);
    expect(await statuses(store.inner, "ask")).toEqual([
      "running",
      "interrupted",
      "running",
      "running",
      "completed",
    ]);
  });

  test("a step result without a JSON form fails the run, naming the step", async () => {
    const Fn = defineComponent({
      type: "steps.Fn",
      inputs: { value: z.number() },
      outputs: { fn: z.custom<() => number>() },
      run: ({ value }) => ({ fn: () => value }),
    });
    const p = new Pipeline();
    p.addComponent("make", new Fn());
    const store = new MemoryRunStore();
    const error = await p
      .run({ make: { value: 1 } }, { store, runId: "fn", durability: "steps" })
      .catch((caught: unknown) => caught);
    // The pipeline reports it as the component's failure, with the serialization error as its cause.
    expect((error as Error).cause).toBeInstanceOf(SerializationError);
    expect((error as Error).message).toMatch(
      /step "make#1" cannot be journaled: .*a function at \$\.fn.*run without durability "steps"/,
    );
    expect(await statuses(store, "fn")).toEqual(["running", "failed"]);
  });

  test("on a FileRunStore, a second process's view: the run, its deltas and the takeover", async () => {
    const dir = await useTempDir();
    const store = new FileRunStore(dir);
    const calls: string[] = [];
    const dying = new DyingStore(3);
    // Copy what the dying run wrote into the file store as it goes (a real process writes it there).
    const mirror: RunStore = Object.assign(Object.create(dying) as RunStore, {
      save: async (snapshot: RunSnapshot, expected: number | null) => {
        await dying.save(snapshot, expected);
        await store.save(snapshot, expected);
      },
      appendDelta: async (runId: string, seq: number, delta: unknown) => {
        await dying.appendDelta(runId, seq, delta);
        await store.appendDelta(runId, seq, delta);
      },
    });
    void chain(calls).run(
      { a: { value: 1 } },
      { store: mirror, runId: "f1", durability: "steps", leaseMs: 100 },
    );
    await expect.poll(() => dying.dead).toBe(true);
    await sleep(150);
    const after: string[] = [];
    expect(await chain(after).resume("f1", {}, { store })).toEqual({ c: { value: 112 } });
    expect(after).toEqual(["c"]);
  });
});
