/**
 * W3 on process CPU time: Junction's agent step and the plain-JavaScript loop, alternating in one
 * process (a loaded machine inflates wall time; CPU time per step is steadier).
 *
 * Run: `npx tsx --conditions=@junction/source bench/src/w3-cpu.ts [rounds]`.
 */

import { cpuTrial } from "./cpu-trial.js";
import { floorAgent } from "./floor.js";
import { median } from "./harness.js";
import { junctionAgent } from "./junction/agents.js";

const steps = 50;
const expected = 1 + steps * 2 + 1;
const shape = { steps, callsPerStep: 1, toolDelayMs: 0 };
const systems = { junction: junctionAgent(shape), floor: floorAgent(shape) };

/** CPU µs per step over repeated runs lasting at least `minCpuMs` of CPU time. */
function trial(run: () => Promise<number>, minCpuMs: number): Promise<number> {
  return cpuTrial(run, { expected, unitsPerRun: steps, minCpuMs });
}

const rounds = Number(process.argv[2] ?? 21);
for (let round = 0; round < 3; round++) for (const run of Object.values(systems)) await trial(run, 100);
const figures: Record<string, number[]> = { junction: [], floor: [] };
for (let round = 0; round < rounds; round++) {
  const names = round % 2 === 0 ? ["junction", "floor"] : ["floor", "junction"];
  for (const name of names) figures[name]!.push(await trial(systems[name as keyof typeof systems], 100));
}
const junction = median(figures.junction!);
const floor = median(figures.floor!);
process.stdout.write(
  `W3 CPU µs/step: junction ${junction.toFixed(2)}, floor ${floor.toFixed(2)}, ratio ${(junction / floor).toFixed(1)}×\n`,
);
