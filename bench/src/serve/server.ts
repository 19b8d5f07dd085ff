/**
 * The server side of `pnpm bench:serve` (started as a child process by load.ts): a one-component
 * pipeline behind Junction's server, the same pipeline run by a bare Hono handler (`/run-pipeline`),
 * and a bare handler doing the arithmetic alone (`/run`), on two loopback ports; plus a pipeline whose
 * component waits until released (for holding many SSE streams).
 * Prints one JSON line with the ports, then serves until killed.
 */
import { defineComponent, Pipeline } from "@junction/core";
import { createApp, serve } from "@junction/serve";
import { Hono } from "hono";
import { z } from "zod";

const AddOne = defineComponent({
  type: "bench.AddOne",
  inputs: { value: z.number() },
  outputs: { result: z.number() },
  run: ({ value }) => ({ result: value + 1 }),
});

let release: () => void = () => undefined;
let released = new Promise<void>((resolve) => {
  release = resolve;
});
const Wait = defineComponent({
  type: "bench.Wait",
  inputs: { value: z.number() },
  outputs: { result: z.number() },
  run: async ({ value }, { signal }) => {
    await Promise.race([
      released,
      new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
    ]);
    return { result: value };
  },
});

const add = new Pipeline().addComponent("add", new AddOne());
add.declareIO({ inputs: { value: "add.value" }, outputs: { result: "add.result" } });
const wait = new Pipeline().addComponent("wait", new Wait());
wait.declareIO({ inputs: { value: "wait.value" }, outputs: { result: "wait.result" } });

const memory = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed };
};

const junction = createApp({
  pipelines: { add, wait },
  auth: {},
  heartbeatMs: 1000,
  routes: (app) => {
    app.get("/bench/memory", (c) => c.json(memory()));
    // The process's CPU time (µs), read by the load process before and after each batch: CPU per
    // request is a steadier measure than requests per second on a busy machine.
    app.get("/bench/cpu", (c) => {
      const usage = process.cpuUsage();
      return c.json({ micros: usage.user + usage.system });
    });
    app.post("/bench/release", (c) => {
      release();
      released = new Promise<void>((resolve) => {
        release = resolve;
      });
      return c.json({ ok: true });
    });
  },
});

const bare = new Hono();
bare.post("/run", async (c) => {
  const body = (await c.req.json()) as { value: number };
  return c.json({ outputs: { result: body.value + 1 }, never_ran: [] });
});

// The same work as /pipelines/add/run without Junction's server: the pipeline run by hand.
bare.post("/run-pipeline", async (c) => {
  const body = (await c.req.json()) as { value: number };
  const outputs = await add.run({ add: { value: body.value } });
  return c.json({ outputs: { result: outputs.add?.result }, never_ran: [] });
});

const a = await serve({ app: junction, port: 0 });
const b = await serve({ app: bare, port: 0 });
process.stdout.write(`${JSON.stringify({ junction: a.port, bare: b.port })}\n`);
