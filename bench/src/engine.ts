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

async function main(): Promise<void> {
  const chain = await compare(
    { "chain N=10": engineChain(10), "chain N=100": engineChain(100), "chain N=1000": engineChain(1000) },
    { warmup: 20, repeats: 50 },
  );
  for (const [name, micros] of Object.entries(chain)) {
    process.stdout.write(`${name.padEnd(14)} ${micros.toFixed(2)} µs/component\n`);
  }
  const ratio = chain["chain N=1000"]! / chain["chain N=10"]!;
  process.stdout.write(`chain N=1000 / N=10 ratio: ${ratio.toFixed(2)} (target ≤ 1.5)\n`);
  const fanOut = await compare({ "fan-out 50×20ms": engineFanOut(50, 20) }, { warmup: 3, repeats: 15 });
  for (const [name, ms] of Object.entries(fanOut)) {
    process.stdout.write(`${name.padEnd(14)} ${ms.toFixed(2)} ms wall (target < 25)\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
