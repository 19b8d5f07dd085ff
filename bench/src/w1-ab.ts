/**
 * W1 A/B (not part of `pnpm bench`): the current engine and an older copy of core's sources (a directory
 * laid out like the repository, given as the first argument), alternating in one process, on process
 * CPU time per component of a 100-component chain.
 *
 * Run: `npx tsx --conditions=@junction/source bench/src/w1-ab.ts <before-dir> [rounds]`.
 */
import * as coreNow from "@junction/core";
import { z } from "zod";
import { cpuTrial } from "./cpu-trial.js";
import { median } from "./harness.js";

type Core = typeof coreNow;
const n = 100;

function chainWith(core: Core): () => Promise<number> {
  const AddOne = core.defineComponent({
    type: "bench.AddOne",
    inputs: { value: z.number() },
    outputs: { value: z.number() },
    run: ({ value }) => ({ value: value + 1 }),
  });
  const pipeline = new core.Pipeline({ maxRunsPerComponent: 1 });
  for (let index = 0; index < n; index += 1) {
    pipeline.addComponent(`add_${index}`, new AddOne());
    if (index > 0) pipeline.connect(`add_${index - 1}.value`, `add_${index}.value`);
  }
  return async () => {
    const outputs = await pipeline.run({ add_0: { value: 0 } });
    return (outputs[`add_${n - 1}`] as { value: number }).value;
  };
}

/** CPU µs per component over runs lasting at least 100 ms of CPU time. */
function trial(run: () => Promise<number>): Promise<number> {
  return cpuTrial(run, { expected: n, unitsPerRun: n, minCpuMs: 100 });
}

const systems: Record<string, () => Promise<number>> = { after: chainWith(coreNow) };
if (process.argv[2] !== undefined)
  systems.before = chainWith((await import(`${process.argv[2]}/packages/core/src/index.ts`)) as Core);
const names = Object.keys(systems);
const rounds = Number(process.argv[3] ?? 15);
for (let round = 0; round < 3; round++) for (const name of names) await trial(systems[name]!);
const figures: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const order = names.map((_, index) => names[(index + round) % names.length]!);
  for (const name of order) figures[name]!.push(await trial(systems[name]!));
}
for (const name of names)
  process.stdout.write(`${name.padEnd(7)} ${median(figures[name]!).toFixed(2)} CPU µs/component\n`);
