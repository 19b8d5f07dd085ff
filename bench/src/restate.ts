/**
 * `pnpm bench --restate` (Node 22, a real restate-server; not part of the quick run): Junction on
 * Restate against a plain Restate workflow that does the same number of `ctx.run` steps, and the cost of
 * an agent step on Restate against the same agent in-process.
 *
 * R1: a chain of N components as a Junction workflow (N component steps + the definition step) vs a
 *     plain workflow doing N+1 trivial `ctx.run` steps — per-step ms and the ratio (goal ≤ 1.2×).
 * R2: an agent of S steps (one model call + one tool call each) on Restate vs in-process — ms per step.
 */
import { Agent } from "@junction/agents";
import { defineComponent, MemoryLogger, Pipeline } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { junctionWorkflow, serveJunction } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";
import { z } from "zod";
import { startRestateServer } from "../../packages/restate/test-server/support/restate-server.js";
import { median } from "./harness.js";

const quick = process.argv.includes("--quick");
const repeats = quick ? 3 : 9;

const AddOne = defineComponent({
  type: "bench.restate.AddOne",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value + 1 }),
});

function chain(n: number): Pipeline {
  const pipeline = new Pipeline({ maxRunsPerComponent: 1, logger: new MemoryLogger() });
  for (let index = 0; index < n; index += 1) {
    pipeline.addComponent(`add_${index}`, new AddOne());
    if (index > 0) pipeline.connect(`add_${index - 1}.value`, `add_${index}.value`);
  }
  return pipeline;
}

/** The same work without Junction: `steps` sequential `ctx.run` steps that add one. */
const plain = restate.workflow({
  name: "Plain",
  handlers: {
    run: async (ctx: restate.WorkflowContext, input: { steps: number }) => {
      let value = 0;
      for (let index = 0; index < input.steps; index += 1) {
        const current = value;
        value = await ctx
          .run(`add_${index}#1`, async () => ({ value: current + 1 }))
          .then((out: { value: number }) => out.value);
      }
      return { value };
    },
  },
});

function agent(steps: number) {
  const increment = tool({
    name: "increment",
    description: "Adds one to a number.",
    parameters: z.object({ value: z.number() }),
    function: ({ value }) => String(value + 1),
  });
  return new Agent({
    chatGenerator: new ScriptedChatGenerator({
      // A function of the conversation (not a counter), as anything replayed must be.
      respond: (messages) => {
        const turns = messages.filter((message) => message.role === "assistant").length;
        return turns >= steps
          ? { text: "done" }
          : { toolCalls: [{ toolName: "increment", arguments: { value: turns } }] };
      },
    }),
    tools: [increment],
    maxAgentSteps: steps + 1,
  });
}

const sizes = quick ? [10] : [10, 100];
const agentSteps = quick ? 5 : 20;
const server = await startRestateServer();
const services = [plain, junctionWorkflow({ name: "Agent", target: agent(agentSteps) })];
for (const n of sizes) services.push(junctionWorkflow({ name: `Chain${n}`, target: chain(n) }));
const endpoint = await serveJunction({ services });
let key = 0;
try {
  await server.register(endpoint.url);
  const post = async (path: string, body: unknown): Promise<number> => {
    const start = performance.now();
    const response = await fetch(`${server.ingress}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    await response.text();
    return performance.now() - start;
  };
  const rows: string[][] = [["workload", "Junction on Restate", "plain Restate", "ratio"]];
  for (const n of sizes) {
    const junction: number[] = [];
    const baseline: number[] = [];
    for (let round = -2; round < repeats; round += 1) {
      const j = await post(`Chain${n}/c${key++}/run`, { add_0: { value: 0 } });
      const p = await post(`Plain/p${key++}/run`, { steps: n + 1 });
      if (round >= 0) {
        junction.push(j / (n + 1));
        baseline.push(p / (n + 1));
      }
    }
    const ratio = median(junction) / median(baseline);
    rows.push([
      `R1 chain N=${n} (ms/step)`,
      median(junction).toFixed(2),
      median(baseline).toFixed(2),
      ratio.toFixed(2),
    ]);
  }
  const onRestate: number[] = [];
  const inProcess: number[] = [];
  const local = agent(agentSteps);
  const messages = [ChatMessage.fromUser("count")];
  for (let round = -2; round < repeats; round += 1) {
    const r = await post(`Agent/a${key++}/run`, { messages: messages.map((message) => message.toJSON()) });
    const start = performance.now();
    await local.run({ messages }, { logger: new MemoryLogger() });
    const l = performance.now() - start;
    if (round >= 0) {
      onRestate.push(r / agentSteps);
      inProcess.push(l / agentSteps);
    }
  }
  rows.push([
    `R2 agent ${agentSteps} steps (ms/step)`,
    median(onRestate).toFixed(2),
    `in-process ${median(inProcess).toFixed(3)}`,
    `+${(median(onRestate) - median(inProcess)).toFixed(2)} ms/step`,
  ]);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")}\n`);
  process.stdout.write(
    `\nmedians of ${repeats} runs after 2 warm-up runs; node ${process.version}; restate-server ${"1.7.12"}\n`,
  );
} finally {
  await endpoint.close();
  await server.dispose();
}
