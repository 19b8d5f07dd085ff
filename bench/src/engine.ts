/**
 * Standalone benchmark of the Junction pipeline engine:
 *
 * - W1 chain: N trivial components in a line (N = 10, 100, 1000) — µs of engine overhead per component
 *   (target: flat in N, < 10 µs per component);
 * - W2 fan-out: a source, 50 parallel branches that each await a 20 ms timer, and a join — wall ms
 *   (target: < 25 ms).
 *
 * Run: `npx tsx --conditions=@junction/source bench/src/engine.ts`
 */
import { defineComponent, Pipeline, silentLogger, variadic } from "@junction/core";
import { z } from "zod";
import { floorChain, floorFanOut } from "./floor.js";
import { compare, elapsedMs, sleep } from "./harness.js";

const AddOne = defineComponent({
  type: "bench.engine.AddOne",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value + 1 }),
});

const Source = defineComponent({
  type: "bench.engine.Source",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value }),
});

const Wait = defineComponent({
  type: "bench.engine.Wait",
  params: z.object({ ms: z.number() }),
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: async ({ value }, { params }) => {
    await sleep(params.ms);
    return { value };
  },
});

const JoinAll = defineComponent({
  type: "bench.engine.JoinAll",
  inputs: { values: variadic(z.number()) },
  outputs: { count: z.number() },
  run: ({ values }) => ({ count: values.length }),
});

/** W1: a chain of `n` AddOne components; the trial returns µs per component. */
export function engineChain(n: number): () => Promise<number> {
  const pipeline = new Pipeline({ logger: silentLogger, maxRunsPerComponent: 1 });
  for (let index = 0; index < n; index += 1) pipeline.addComponent(`add_${index}`, new AddOne());
  for (let index = 1; index < n; index += 1) pipeline.connect(`add_${index - 1}`, `add_${index}`);
  return async () => {
    const start = performance.now();
    const out = await pipeline.run({ add_0: { value: 0 } });
    const micros = (elapsedMs(start) * 1000) / n;
    if (out[`add_${n - 1}`]?.value !== n) throw new Error("engineChain: wrong result");
    return micros;
  };
}

/** W2: source → `branches` × wait(`delayMs`) → join; the trial returns wall ms. */
export function engineFanOut(branches: number, delayMs: number): () => Promise<number> {
  const pipeline = new Pipeline({ logger: silentLogger });
  pipeline.addComponent("source", new Source()).addComponent("join", new JoinAll());
  for (let index = 0; index < branches; index += 1) {
    pipeline.addComponent(`wait_${index}`, new Wait({ ms: delayMs }));
    pipeline.connect("source", `wait_${index}`).connect(`wait_${index}`, "join");
  }
  return async () => {
    const start = performance.now();
    const out = await pipeline.run({ source: { value: 1 } });
    const ms = elapsedMs(start);
    if (out.join?.count !== branches) throw new Error("engineFanOut: wrong result");
    return ms;
  };
}

/** Wraps a floor workload so it reports the same unit as the engine trial. */
function timed(run: () => Promise<number>, unit: (ms: number) => number): () => Promise<number> {
  return async () => {
    const start = performance.now();
    await run();
    return unit(elapsedMs(start));
  };
}

async function main(): Promise<void> {
  const sizes = [10, 100, 1000];
  const chain: Record<string, number> = {};
  // One size at a time, so the garbage of a large run does not land on a small one.
  for (const n of sizes) {
    const samples: number[] = [];
    const engine = engineChain(n);
    const figures = await compare(
      {
        engine: async () => {
          const micros = await engine();
          samples.push(micros);
          return micros;
        },
        floor: timed(floorChain(n), (ms) => (ms * 1000) / n),
      },
      { warmup: 20, repeats: Math.max(30, 6000 / n) },
    );
    chain[`chain N=${n}`] = figures.engine!;
    // On a loaded machine a long run is often preempted; the best run shows the engine's own cost.
    const best = Math.min(...samples.slice(20));
    process.stdout.write(
      `chain N=${String(n).padEnd(5)} median ${figures.engine!.toFixed(2)} µs/component, best ${best.toFixed(2)} µs (plain async calls: ${figures.floor!.toFixed(2)} µs)\n`,
    );
  }
  const ratio = chain["chain N=1000"]! / chain["chain N=10"]!;
  process.stdout.write(`chain N=1000 / N=10: ${ratio.toFixed(2)} (target ≤ 1.5; target < 10 µs/component)\n`);
  const fanOut = await compare(
    { engine: engineFanOut(50, 20), floor: timed(floorFanOut(50, 20), (ms) => ms) },
    { warmup: 3, repeats: 15 },
  );
  process.stdout.write(
    `fan-out 50×20ms: ${fanOut.engine!.toFixed(2)} ms wall (Promise.all floor: ${fanOut.floor!.toFixed(2)} ms; target < 25)\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
