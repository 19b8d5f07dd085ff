/**
 * Standalone benchmark of the Junction Agent loop, with a scripted model and trivial tools:
 *
 * - overhead per step: µs per step of a 200-step run, one trivial tool call per step (target < 50 µs);
 * - parallel tools: one turn with 16 tool calls that each await 50 ms, wall ms (target < 60 ms);
 * - growth: a 2000-step run, mean duration of the last 100 steps / the first 100 (target ≤ 1.3),
 *   with the run's peak RSS growth.
 *
 * Run: `npx tsx --conditions=@junction/source bench/src/agent.ts` (add `--expose-gc` through
 * `NODE_OPTIONS` for steadier memory figures).
 */
import { Agent } from "@junction/agents";
import { silentLogger } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";
import { elapsedMs, median, peakRssGrowthMiB, sleep } from "./harness.js";

/** CPU time of the process (user + system, all threads), in ms. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

interface LoopAgent {
  /** Runs the agent; returns wall and CPU ms, and the wall and CPU time (ms) of each model call. */
  run(): Promise<{ ms: number; cpuMs: number; stepTimes: number[]; cpuTimes: number[]; messages: number }>;
}

/** An agent whose model asks for `callsPerStep` calls of a tool for `steps` turns, then answers. */
function loopAgent(options: {
  steps: number;
  callsPerStep: number;
  toolDelayMs: number;
  recordCpu?: boolean;
}): LoopAgent {
  const increment = tool({
    name: "increment",
    description: "Adds one to a number.",
    parameters: z.object({ value: z.number() }),
    function:
      options.toolDelayMs > 0
        ? async ({ value }) => {
            await sleep(options.toolDelayMs);
            return value + 1;
          }
        : ({ value }) => value + 1,
  });
  const calls = Array.from({ length: options.callsPerStep }, (_, index) => ({
    toolName: "increment",
    arguments: { value: index },
  }));
  let turn = 0;
  let stepTimes: number[] = [];
  let cpuTimes: number[] = [];
  // A counter, not a scan of the conversation: the model itself costs O(1) per turn.
  const generator = new ScriptedChatGenerator({
    respond: () => {
      stepTimes.push(performance.now());
      if (options.recordCpu) cpuTimes.push(cpuMs());
      turn += 1;
      return turn > options.steps ? { text: "done" } : { toolCalls: calls };
    },
  });
  const agent = new Agent({ chatGenerator: generator, tools: [increment], maxAgentSteps: options.steps + 1 });
  return {
    async run() {
      turn = 0;
      stepTimes = [];
      cpuTimes = [];
      const cpuStart = cpuMs();
      const start = performance.now();
      const result = await agent.run({ messages: [ChatMessage.fromUser("count")] }, { logger: silentLogger });
      const ms = elapsedMs(start);
      const cpu = cpuMs() - cpuStart;
      if (result.exit_reason !== "text" || result.step_count !== options.steps + 1) {
        throw new Error(
          `agent benchmark: unexpected result ${result.exit_reason} after ${result.step_count} steps`,
        );
      }
      return { ms, cpuMs: cpu, stepTimes, cpuTimes, messages: result.messages?.length ?? 0 };
    },
  };
}

async function overheadPerStep(): Promise<{ wall: number; cpu: number }> {
  const steps = 200;
  const agent = loopAgent({ steps, callsPerStep: 1, toolDelayMs: 0 });
  for (let round = 0; round < 20; round++) await agent.run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 40; round++) {
    const result = await agent.run();
    wall.push((result.ms * 1000) / (steps + 1));
    cpu.push((result.cpuMs * 1000) / (steps + 1));
  }
  return { wall: median(wall), cpu: median(cpu) };
}

async function parallelTools(): Promise<number> {
  const agent = loopAgent({ steps: 1, callsPerStep: 16, toolDelayMs: 50 });
  for (let round = 0; round < 3; round++) await agent.run();
  const figures: number[] = [];
  for (let round = 0; round < 10; round++) figures.push((await agent.run()).ms);
  return median(figures);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

interface Growth {
  /** Mean of the last 100 step durations / mean of the first 100 (median over rounds). */
  readonly ratio: number;
  /** The same ratio computed on process CPU time (robust to a loaded machine). */
  readonly cpuRatio: number;
  readonly firstMicros: number;
  readonly lastMicros: number;
  readonly peakMiB: number;
  readonly ms: number;
}

function firstLastRatio(times: readonly number[]): { first: number; last: number } {
  const durations = times.slice(1).map((time, index) => time - times[index]!);
  return { first: mean(durations.slice(0, 100)), last: mean(durations.slice(-100)) };
}

async function growth(): Promise<Growth> {
  const steps = 2000;
  const agent = loopAgent({ steps, callsPerStep: 1, toolDelayMs: 0, recordCpu: true });
  await agent.run();
  await agent.run();
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const firsts: number[] = [];
  const lasts: number[] = [];
  const walls: number[] = [];
  let peakMiB = 0;
  for (let round = 0; round < 7; round++) {
    const { result, peakMiB: peak } = await peakRssGrowthMiB(() => agent.run());
    peakMiB = Math.max(peakMiB, peak);
    const wall = firstLastRatio(result.stepTimes);
    const cpu = firstLastRatio(result.cpuTimes);
    ratios.push(wall.last / wall.first);
    cpuRatios.push(cpu.last / cpu.first);
    firsts.push(wall.first * 1000);
    lasts.push(wall.last * 1000);
    walls.push(result.ms);
  }
  return {
    ratio: median(ratios),
    cpuRatio: median(cpuRatios),
    firstMicros: median(firsts),
    lastMicros: median(lasts),
    peakMiB,
    ms: median(walls),
  };
}

async function main(): Promise<void> {
  const perStep = await overheadPerStep();
  process.stdout.write(
    `agent overhead: ${perStep.wall.toFixed(1)} µs/step wall, ${perStep.cpu.toFixed(1)} µs/step CPU (target < 50)\n`,
  );
  const wall = await parallelTools();
  process.stdout.write(`16 parallel tools × 50 ms: ${wall.toFixed(1)} ms wall (target < 60)\n`);
  const grown = await growth();
  process.stdout.write(
    `2000 steps: ${grown.ms.toFixed(0)} ms; first 100 steps ${grown.firstMicros.toFixed(1)} µs/step, last 100 ${grown.lastMicros.toFixed(1)} µs/step; last/first ${grown.ratio.toFixed(2)} wall, ${grown.cpuRatio.toFixed(2)} CPU (target ≤ 1.3); peak RSS growth ${grown.peakMiB.toFixed(1)} MiB\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
