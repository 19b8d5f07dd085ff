/**
 * Cancelling a run with an AbortSignal: the signal reaches every running component, the run rejects
 * with the signal's reason, and no component keeps running afterwards.
 *
 * Run: npx tsx --conditions=@junction/source examples/cancel-run.ts
 */
import { setTimeout as sleep } from "node:timers/promises";
import { defineComponent, Pipeline } from "@junction/core";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

/** How many `SlowStep`s are running right now. */
let running = 0;

/** Waits `ms` milliseconds, honouring the run's signal. */
export const SlowStep = defineComponent({
  type: "examples.SlowStep",
  params: z.object({ ms: z.number() }),
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: async ({ value }, { params, signal }) => {
    running += 1;
    try {
      await sleep(params.ms, undefined, { signal });
      return { value: value + 1 };
    } finally {
      running -= 1;
    }
  },
});

/** Starts three slow branches, aborts after 50 ms, and reports what happened. */
export async function main(
  io: ExampleIO,
): Promise<{ reason: string; stillRunning: number; elapsedMs: number }> {
  const pipeline = new Pipeline();
  for (const name of ["a", "b", "c"]) pipeline.addComponent(name, new SlowStep({ ms: 10_000 }));
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(new Error("the user pressed stop")), 50);
  let reason = "";
  try {
    await pipeline.run({ value: 1 }, { signal: controller.signal });
  } catch (error) {
    reason = (error as Error).message;
  }
  const elapsedMs = Math.round(performance.now() - started);
  io.write(`rejected after ~${elapsedMs} ms with: ${reason}\ncomponents still running: ${running}\n`);
  return { reason, stillRunning: running, elapsedMs };
}

runIfMain(import.meta.url, main);
