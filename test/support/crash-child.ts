/**
 * The process that crash-recovery.test.ts starts and kills. One invocation:
 *   start <storeDir> <baseURL>            run the refund agent until it pauses, print the interrupts, then
 *                                         stay alive until killed
 *   resume <storeDir> <baseURL> <id>      approve interrupt <id> and resume the run; print the answer
 *   steps <storeDir> <baseURL>            run the shipping agent with durability "steps"; its "ship" tool
 *                                         prints "in flight" and hangs, so the test can kill the process
 *                                         in the middle of a tool batch
 *   recover <storeDir> <baseURL>          take the "steps" run over (resume with no decisions); print the
 *                                         final messages as JSON
 * With JUNCTION_CRASH_IN_SAVE=1, the process kills itself with SIGKILL inside FileRunStore.save, after the
 * snapshot's temporary file is written and fsynced and before it is linked to its final name.
 * Every tool execution appends a line to <storeDir>/executions.log (shared by all the processes).
 */
import { appendFileSync, promises as fs } from "node:fs";
import { join } from "node:path";
import { Agent } from "@junction/agents";
import { FileRunStore, RunInterruptedError } from "@junction/core";
import { ChatMessage, tool } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { z } from "zod";
import { shippingAgent, shippingRequest } from "./shipping-agent.js";

const [mode, storeDir = "", baseURL = "", interruptId = ""] = process.argv.slice(2);
const log = (line: string) => appendFileSync(join(storeDir, "executions.log"), `${line}\n`);

if (process.env.JUNCTION_CRASH_IN_SAVE === "1") {
  // FileRunStore writes to a temporary file, fsyncs it, then hard-links it: die just before the link.
  fs.link = async () => {
    process.kill(process.pid, "SIGKILL");
    await new Promise(() => {});
  };
}

const lookup = tool({
  name: "lookup_order",
  description: "Finds an order",
  parameters: z.object({ order: z.string() }),
  function: ({ order }) => {
    log(`lookup_order ${order}`);
    return `order ${order}: 250 EUR, delivered damaged`;
  },
});
const refund = tool({
  name: "refund",
  description: "Refunds an order",
  parameters: z.object({ order: z.string(), amount: z.number() }),
  needsApproval: ({ amount }) => amount > 100,
  function: ({ order, amount }) => {
    log(`refund ${order} ${amount}`);
    return `refunded ${amount} EUR for ${order}`;
  },
});
const agent = new Agent({
  chatGenerator: new OpenAIChatGenerator({ model: "fake", baseURL }),
  tools: [lookup, refund],
});
const store = new FileRunStore(storeDir);

// The durability "steps" scenario: one model turn asks for three tools at once (one batch).
const shipping = shippingAgent(baseURL, {
  log,
  beforeShip: async () => {
    if (mode !== "steps") return;
    // Hang once both track results are journaled (two tool deltas after the model's), then get killed.
    const deltas = join(storeDir, "steps-run", "0000000001.deltas.jsonl");
    for (;;) {
      const text = await fs.readFile(deltas, "utf8").catch(() => "");
      if (text.split("\n").filter((line) => line.includes('"step":"tool#')).length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    process.stdout.write("ship in flight\n");
    await new Promise(() => {});
  },
});

if (mode === "steps") {
  await shipping.run(shippingRequest(), { store, runId: "steps-run", durability: "steps" });
  process.stdout.write("completed without being killed\n");
} else if (mode === "recover") {
  const result = await shipping.resume("steps-run", {}, { store });
  process.stdout.write(`messages ${JSON.stringify(result.messages)}\n`);
} else if (mode === "start") {
  try {
    await agent.run(
      { messages: [ChatMessage.fromUser("Refund order A-17, it arrived damaged.")] },
      { store, runId: "crash-run" },
    );
    process.stdout.write("completed without pausing\n");
  } catch (error) {
    if (!(error instanceof RunInterruptedError)) throw error;
    process.stdout.write(`interrupted ${error.interrupts.map((item) => item.id).join(" ")}\n`);
    setInterval(() => {}, 60_000); // wait to be killed
  }
} else {
  const result = await agent.resume("crash-run", { [interruptId]: { action: "approve" } }, { store });
  process.stdout.write(`answer ${result.last_message?.text}\n`);
}
