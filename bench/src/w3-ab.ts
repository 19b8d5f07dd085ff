/**
 * W3 A/B (not part of `pnpm bench`): the current agent, an older copy of the agents/llm/core sources
 * (a directory given as the first argument, laid out like the repository with its own node_modules
 * links) and the plain-JavaScript floor, alternating in one process, on process CPU time per step.
 *
 * Run: `npx tsx --conditions=@junction/source bench/src/w3-ab.ts <before-dir> [rounds]`.
 */
import * as agentsNow from "@junction/agents";
import * as llmNow from "@junction/llm";
import { z } from "zod";
import { cpuTrial } from "./cpu-trial.js";
import { floorAgent } from "./floor.js";
import { median } from "./harness.js";

const steps = 50;
const expected = 1 + steps * 2 + 1;

type Agents = typeof agentsNow;
type Llm = typeof llmNow;

function agentWith(agents: Agents, llm: Llm): () => Promise<number> {
  const increment = llm.tool({
    name: "increment",
    description: "Adds one to a number.",
    parameters: z.object({ value: z.number() }),
    function: async ({ value }) => String(value + 1),
  });
  let turn = 0;
  const calls = [{ toolName: "increment", arguments: { value: 0 } }];
  const generator = new llm.ScriptedChatGenerator({
    respond: () => {
      turn += 1;
      return turn > steps ? { text: "done" } : { toolCalls: calls };
    },
  });
  const agent = new agents.Agent({ chatGenerator: generator, tools: [increment], maxAgentSteps: steps + 1 });
  return async () => {
    turn = 0;
    const result = await agent.run({ messages: [llm.ChatMessage.fromUser("count")] });
    return result.messages?.length ?? 0;
  };
}

/** CPU µs per step over repeated runs lasting at least `minCpuMs` of CPU time. */
function trial(run: () => Promise<number>, minCpuMs: number): Promise<number> {
  return cpuTrial(run, { expected, unitsPerRun: steps, minCpuMs });
}

const before = process.argv[2];
const rounds = Number(process.argv[3] ?? 21);
const systems: Record<string, () => Promise<number>> = {
  after: agentWith(agentsNow, llmNow),
  floor: floorAgent({ steps, callsPerStep: 1, toolDelayMs: 0 }),
};
if (before !== undefined) {
  const agentsBefore = (await import(`${before}/packages/agents/src/index.ts`)) as Agents;
  const llmBefore = (await import(`${before}/packages/llm/src/index.ts`)) as Llm;
  systems.before = agentWith(agentsBefore, llmBefore);
}
const names = Object.keys(systems);
for (let round = 0; round < 3; round++) for (const name of names) await trial(systems[name]!, 100);
const figures: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const order = names.map((_, index) => names[(index + round) % names.length]!);
  for (const name of order) figures[name]!.push(await trial(systems[name]!, 100));
}
const floor = median(figures.floor!);
for (const name of names) {
  const value = median(figures[name]!);
  process.stdout.write(
    `${name.padEnd(7)} ${value.toFixed(2)} CPU µs/step  ${(value / floor).toFixed(1)}× floor\n`,
  );
}
