import {
  defineComponent,
  greedyVariadic,
  InMemoryTracer,
  MemoryLogger,
  Pipeline,
  PipelineRuntimeError,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { delay } from "./support/pipeline-components.js";

/**
 * Early starts: a component of the next wave whose inputs are already certain starts while a slow
 * member of the current wave is still running; results stay those of a sequential run.
 */

let log: string[] = [];
/** Resolved when the named component starts (a slow component can wait for it). */
let started = new Map<string, () => void>();
let startedPromises = new Map<string, Promise<void>>();

function resetProbe(): void {
  log = [];
  started = new Map();
  startedPromises = new Map();
  for (const name of ["c", "join"]) {
    startedPromises.set(
      name,
      new Promise<void>((resolve) => {
        started.set(name, resolve);
      }),
    );
  }
}

function enter(name: string): void {
  log.push(`start ${name}`);
  started.get(name)?.();
}

/** Waits until `name` starts (proving an early start), but never longer than `ms`. */
async function slowUntil(name: string | undefined, ms: number): Promise<void> {
  const other = name === undefined ? undefined : startedPromises.get(name);
  await (other === undefined ? delay(ms) : Promise.race([other, delay(ms)]));
}

const Step = defineComponent({
  type: "ptest.early.Step",
  params: z.object({ waitFor: z.string().optional(), ms: z.number().default(0) }),
  inputs: { text: z.string(), extra: z.string().optional() },
  outputs: { text: z.string() },
  run: async ({ text, extra }, { params, componentName }) => {
    enter(componentName!);
    await slowUntil(params.waitFor, params.ms);
    log.push(`end ${componentName}`);
    return { text: `${componentName}(${text}${extra === undefined ? "" : `+${extra}`})` };
  },
});

const Greedy = defineComponent({
  type: "ptest.early.Greedy",
  inputs: { text: greedyVariadic(z.string()) },
  outputs: { text: z.string() },
  run: ({ text }, { componentName }) => {
    enter(componentName!);
    log.push(`end ${componentName}`);
    return { text: `${componentName}(${text.join(",")})` };
  },
});

const Router = defineComponent({
  type: "ptest.early.Router",
  params: z.object({ ms: z.number() }),
  inputs: { text: z.string() },
  outputs: { taken: z.string(), skipped: z.string() },
  run: async ({ text }, { params, componentName }) => {
    enter(componentName!);
    await delay(params.ms);
    log.push(`end ${componentName}`);
    return { taken: `${componentName}(${text})` };
  },
});

async function traced(
  pipeline: Pipeline,
  concurrency: number,
  runInputs: Record<string, unknown> = { text: "x" },
) {
  resetProbe();
  const tracer = new InMemoryTracer();
  const outputs = await pipeline.run(runInputs, { concurrency, tracer });
  const inputs = tracer
    .find("junction.component.run")
    .map(
      (span) =>
        `${span.tags["junction.component.name"]}#${span.tags["junction.component.visit"]}:${JSON.stringify(span.tags["junction.component.input"])}`,
    )
    .sort();
  return { outputs, inputs, log: [...log] };
}

function before(entries: readonly string[], first: string, second: string): boolean {
  return entries.indexOf(first) >= 0 && entries.indexOf(first) < entries.indexOf(second);
}

describe("early start", () => {
  test("a component fed only by a fast branch starts while a slow sibling of that branch still runs", async () => {
    // a (slow) and b start together; c depends only on b. a waits until c has started (or 2 s).
    const build = (slow: { waitFor?: string; ms?: number }) =>
      new Pipeline({ logger: new MemoryLogger() })
        .addComponent("a", new Step(slow))
        .addComponent("b", new Step({}))
        .addComponent("c", new Step({}))
        .connect("b", "c.text");
    const concurrent = await traced(build({ waitFor: "c", ms: 2000 }), Number.POSITIVE_INFINITY);
    expect(before(concurrent.log, "start c", "end a")).toBe(true);
    const sequential = await traced(build({ ms: 5 }), 1);
    expect(sequential.log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(concurrent.outputs).toEqual(sequential.outputs);
    expect(concurrent.inputs).toEqual(sequential.inputs);
    expect(concurrent.outputs).toEqual({ a: { text: "a(x)" }, c: { text: "c(b(x))" } });
  });

  test("stream events show the early component starting before the slow one ends", async () => {
    resetProbe();
    const pipeline = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("a", new Step({ waitFor: "c", ms: 2000 }))
      .addComponent("b", new Step({}))
      .addComponent("c", new Step({}))
      .connect("b", "c.text");
    const events: string[] = [];
    for await (const event of pipeline.stream({ text: "x" })) {
      if (event.type === "component_start" || event.type === "component_end") {
        events.push(`${event.type} ${event.componentName}`);
      }
    }
    expect(before(events, "component_start c", "component_end a")).toBe(true);
  });

  test("a receiver also fed by the slow component waits for it", async () => {
    const build = () =>
      new Pipeline({ logger: new MemoryLogger() })
        .addComponent("a", new Step({ ms: 20 }))
        .addComponent("b", new Step({}))
        .addComponent("c", new Step({}))
        .connect("b", "c.text")
        .connect("a", "c.extra");
    const concurrent = await traced(build(), Number.POSITIVE_INFINITY);
    expect(before(concurrent.log, "end a", "start c")).toBe(true);
    const sequential = await traced(build(), 1);
    expect(concurrent.outputs).toEqual(sequential.outputs);
    expect(concurrent.inputs).toEqual(sequential.inputs);
    expect(concurrent.outputs).toEqual({ c: { text: "c(b(x)+a(x))" } });
  });

  test("a greedy receiver fed by both branches waits for the slow one and takes the same value", async () => {
    const build = () =>
      new Pipeline({ logger: new MemoryLogger() })
        .addComponent("a", new Step({ ms: 20 }))
        .addComponent("b", new Step({}))
        .addComponent("join", new Greedy())
        .connect("a", "join.text")
        .connect("b", "join.text");
    const nested = { a: { text: "x" }, b: { text: "x" } };
    const concurrent = await traced(build(), Number.POSITIVE_INFINITY, nested);
    expect(before(concurrent.log, "end a", "start join")).toBe(true);
    const sequential = await traced(build(), 1, nested);
    expect(concurrent.outputs).toEqual(sequential.outputs);
    expect(concurrent.inputs).toEqual(sequential.inputs);
  });

  test("a receiver of a router's un-taken branch waits for the router's marker", async () => {
    // c's optional socket hears from the router; the marker decides that c is READY (not DEFER).
    const build = () =>
      new Pipeline({ logger: new MemoryLogger() })
        .addComponent("route", new Router({ ms: 20 }))
        .addComponent("b", new Step({}))
        .addComponent("c", new Step({}))
        .connect("b", "c.text")
        .connect("route.skipped", "c.extra");
    const concurrent = await traced(build(), Number.POSITIVE_INFINITY);
    expect(before(concurrent.log, "end route", "start c")).toBe(true);
    const sequential = await traced(build(), 1);
    expect(concurrent.outputs).toEqual(sequential.outputs);
    expect(concurrent.inputs).toEqual(sequential.inputs);
    expect(concurrent.outputs).toEqual({ c: { text: "c(b(x))" }, route: { taken: "route(x)" } });
  });

  test("early starts count against the concurrency cap", async () => {
    const build = () =>
      new Pipeline({ logger: new MemoryLogger() })
        .addComponent("a", new Step({ ms: 20 }))
        .addComponent("b", new Step({}))
        .addComponent("c", new Step({}))
        .connect("b", "c.text");
    const capped = await traced(build(), 2);
    // a and b fill the cap; when b ends one place frees, so c may start early, but never a third run.
    let running = 0;
    let most = 0;
    for (const entry of capped.log) {
      running += entry.startsWith("start") ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
    expect(capped.outputs).toEqual({ a: { text: "a(x)" }, c: { text: "c(b(x))" } });
  });

  test("when the slow component fails, the early-started one is cancelled and the slow one's error wins", async () => {
    const boom = new Error("boom");
    let cancelled = false;
    const Fails = defineComponent({
      type: "ptest.early.Fails",
      inputs: { text: z.string() },
      outputs: { text: z.string() },
      run: async () => {
        await startedPromises.get("c");
        throw boom;
      },
    });
    const Waits = defineComponent({
      type: "ptest.early.Waits",
      inputs: { text: z.string() },
      outputs: { text: z.string() },
      run: async ({ text }, { componentName, signal }) => {
        enter(componentName!);
        try {
          await delay(5000, signal);
        } catch (error) {
          cancelled = true;
          throw error;
        }
        return { text };
      },
    });
    resetProbe();
    const pipeline = new Pipeline({ logger: new MemoryLogger() })
      .addComponent("a", new Fails())
      .addComponent("b", new Step({}))
      .addComponent("c", new Waits())
      .connect("b", "c.text");
    const error = await pipeline.run({ text: "x" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect(error).toMatchObject({ componentName: "a", cause: boom });
    expect(cancelled).toBe(true);
  });
});
