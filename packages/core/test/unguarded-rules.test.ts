import {
  defineComponent,
  greedyVariadic,
  MemoryRunStore,
  Pipeline,
  PipelineMaxComponentRuns,
  RunResumeError,
  Secret,
  secretSchema,
} from "@junction/core";
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { interruptOf } from "./support/interrupts.js";
import { delay } from "./support/pipeline-components.js";

/**
 * Rules that a deliberate bug in the engine once broke without any core test noticing: a greedy socket
 * next to a mandatory one fed by a longer branch, a component interrupt's argument binding, secrets in
 * saved documents, and a second angle on the per-component run limit.
 */

const Source = defineComponent({
  type: "utest.Source",
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: ({ text }) => ({ text }),
});

const Slow = defineComponent({
  type: "utest.Slow",
  params: z.object({ suffix: z.string(), ms: z.number() }),
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: async ({ text }, { params, signal }) => {
    await delay(params.ms, signal);
    return { text: text + params.suffix };
  },
});

describe("a greedy socket next to a connected mandatory input", () => {
  const runs: { first: string[]; other: string }[] = [];
  const Meet = defineComponent({
    type: "utest.Meet",
    inputs: { first: greedyVariadic(z.string()), other: z.string() },
    outputs: { text: z.string() },
    run: ({ first, other }) => {
      runs.push({ first, other });
      return { text: `${first.join(",")}+${other}` };
    },
  });

  function diamond(): Pipeline {
    // source → meet.first directly (greedy), and source → a → b → meet.other (the long branch).
    const p = new Pipeline();
    p.addComponent("source", new Source());
    p.addComponent("a", new Slow({ suffix: "-a", ms: 5 }));
    p.addComponent("b", new Slow({ suffix: "-b", ms: 5 }));
    p.addComponent("meet", new Meet());
    p.connect("source.text", "meet.first");
    p.connect("source.text", "a.text").connect("a.text", "b.text").connect("b.text", "meet.other");
    return p;
  }

  test.each([1, Number.POSITIVE_INFINITY])(
    "runs once, after the long branch, with both values (concurrency %s)",
    async (concurrency) => {
      runs.length = 0;
      const outputs = await diamond().run({ source: { text: "x" } }, { concurrency });
      expect(runs).toEqual([{ first: ["x"], other: "x-a-b" }]);
      expect(outputs).toEqual({ meet: { text: "x+x-a-b" } });
    },
  );
});

describe("a component interrupt that carries arguments", () => {
  const Transfer = defineComponent({
    type: "utest.Transfer",
    inputs: { amount: z.number() },
    outputs: { done: z.boolean() },
    run: ({ amount }, context) => {
      if (context.resume === undefined) {
        context.interrupt({
          interrupts: [{ id: "", kind: "tool_approval", tool: "transfer", arguments: { amount } }],
        });
      }
      return { done: context.resume?.decisions[""]?.action === "approve" };
    },
  });

  test("a decision made for other arguments is refused with RESUME_ARGS_CHANGED; the run stays interrupted", async () => {
    const store = new MemoryRunStore();
    const p = new Pipeline().addComponent("transfer", new Transfer());
    const error = await interruptOf(p.run({ transfer: { amount: 500 } }, { store, runId: "t-1" }));
    const [interrupt] = error.interrupts;
    expect(interrupt?.argsHash).toMatch(/^sha256:/);

    // The same component asked about another amount: its hash differs.
    const other = await interruptOf(
      new Pipeline().addComponent("transfer", new Transfer()).run({ transfer: { amount: 5 } }),
    );
    const staleHash = other.interrupts[0]?.argsHash;
    expect(staleHash).not.toBe(interrupt?.argsHash);

    const refused = p.resume("t-1", { "transfer#1": { action: "approve", argsHash: staleHash } }, { store });
    await expect(refused).rejects.toThrow(RunResumeError);
    await expect(refused).rejects.toMatchObject({ code: "RESUME_ARGS_CHANGED" });
    expect((await store.load("t-1"))?.status).toBe("interrupted");

    const outputs = await p.resume(
      "t-1",
      { "transfer#1": { action: "approve", argsHash: interrupt?.argsHash } },
      { store },
    );
    expect(outputs).toEqual({ transfer: { done: true } });
  });
});

describe("Secret.fromEnvVar in saved documents", () => {
  const variable = "JUNCTION_UNGUARDED_SECRET";
  const value = "sk-unguarded-value-0123456789";
  afterEach(() => {
    delete process.env[variable];
  });

  const Client = defineComponent({
    type: "utest.Client",
    params: z.object({ apiKey: secretSchema }),
    inputs: { text: z.string() },
    outputs: { text: z.string() },
    run: ({ text }, { params }) => ({ text: `${text}:${params.apiKey.resolve()?.length}` }),
  });

  test("alone, as JSON: the variable's name is written, never its value", () => {
    process.env[variable] = value;
    const secret = Secret.fromEnvVar(variable);
    expect(secret.resolve()).toBe(value);
    const json = JSON.stringify(secret.toJSON());
    expect(json).toContain(variable);
    expect(json).not.toContain(value);
    expect(JSON.stringify(secret)).not.toContain(value);
    expect(String(secret)).not.toContain(value);
  });

  test("inside a pipeline that ran with it, as JSON and YAML: the name, never the value", async () => {
    process.env[variable] = value;
    const p = new Pipeline().addComponent("client", new Client({ apiKey: Secret.fromEnvVar(variable) }));
    expect(await p.run({ client: { text: "k" } })).toEqual({ client: { text: `k:${value.length}` } });
    const json = JSON.stringify(p.toJSON());
    const yaml = p.toYAML();
    for (const text of [json, yaml]) {
      expect(text).toContain(variable);
      expect(text).not.toContain(value);
    }
  });
});

describe("the per-component run limit, from a second angle", () => {
  const Count = defineComponent({
    type: "utest.Count",
    inputs: { count: greedyVariadic(z.number()) },
    outputs: { count: z.number() },
    run: ({ count }) => ({ count: (count[0] ?? 0) + 1 }),
  });
  const Back = defineComponent({
    type: "utest.Back",
    inputs: { count: z.number() },
    outputs: { count: z.number() },
    run: ({ count }) => ({ count }),
  });

  test("an endless two-component loop stops at maxRunsPerComponent, naming the component and the limit", async () => {
    const p = new Pipeline({ maxRunsPerComponent: 7 });
    p.addComponent("count", new Count()).addComponent("back", new Back());
    p.connect("count.count", "back.count").connect("back.count", "count.count");
    const run = p.run({ count: { count: 0 } });
    await expect(run).rejects.toThrow(PipelineMaxComponentRuns);
    await expect(run).rejects.toThrow(/"count"[\s\S]*7|7[\s\S]*"count"/);
  });
});
