/**
 * A person approves a tool call, in another process. The agent's `refund` tool needs approval above
 * 100; the first invocation stops at the call and saves the run to a store directory; a second
 * invocation approves (or rejects) it and the run continues where it stopped — the model is not asked
 * again for the step that was paused, and the refund runs once.
 *
 * Run (offline, scripted model):
 *   npx tsx --conditions=@junction/source examples/approve-refund.ts "Refund order A-17: 250 EUR"
 *   npx tsx --conditions=@junction/source examples/approve-refund.ts --approve s1/refund_A-17
 *   npx tsx --conditions=@junction/source examples/approve-refund.ts --reject s1/refund_A-17 --message "Needs a receipt"
 * Options: --store <dir> (default .junction/runs), --run <run id> (default refund-demo).
 */
import { join } from "node:path";
import { Agent } from "@junction/agents";
import { type Decision, FileRunStore, RunInterruptedError } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, type ScriptedReply, tool } from "@junction/llm";
import { z } from "zod";
import type { ExampleIO } from "./io.js";

/** What this process did: refunds that actually ran, and calls to the model. */
export const activity = { refunds: [] as { order: string; amount: number }[], modelCalls: 0 };

const refund = tool({
  name: "refund",
  description: "Refunds an order",
  parameters: z.object({ order: z.string(), amount: z.number() }),
  needsApproval: ({ amount }) => amount > 100,
  function: ({ order, amount }) => {
    activity.refunds.push({ order, amount });
    return `refunded ${amount} EUR for order ${order}`;
  },
});

/** An offline model: asks for a refund when the user names an order and an amount, then reports. */
function model(): ScriptedChatGenerator {
  return new ScriptedChatGenerator({
    respond: (messages): ScriptedReply | string => {
      activity.modelCalls += 1;
      const last = messages[messages.length - 1];
      const result = last?.toolCallResult;
      if (result !== undefined) {
        return result.error ? `The refund was not made: ${result.result}` : `Done: ${result.result}.`;
      }
      const match = /order\s+([\w-]+)\D+(\d+)/i.exec(last?.text ?? "");
      if (match === null) return "Which order, and how much?";
      const [, order = "", amount = "0"] = match;
      return {
        toolCalls: [
          { id: `refund_${order}`, toolName: "refund", arguments: { order, amount: Number(amount) } },
        ],
      };
    },
  });
}

/** The agent, built the same way by every invocation (the snapshot holds data, never the agent). */
export function refundAgent() {
  return new Agent({ chatGenerator: model(), tools: [refund], systemPrompt: "You handle refunds." });
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

/** What one invocation did. */
export interface RefundOutcome {
  readonly status: "interrupted" | "completed";
  /** The ids of the pending interrupts (when interrupted). */
  readonly interrupts: string[];
  /** The agent's last message (when completed). */
  readonly answer: string | undefined;
}

/** One invocation: a new request, or a decision on the paused run. */
export async function main(args: readonly string[], io: ExampleIO): Promise<RefundOutcome> {
  const storeDir = option(args, "--store") ?? ".junction/runs";
  const store = new FileRunStore(storeDir);
  const runId = option(args, "--run") ?? "refund-demo";
  const agent = refundAgent();
  const approve = option(args, "--approve");
  const reject = option(args, "--reject");
  const flagValues = new Set(["--store", "--run", "--message"].map((flag) => option(args, flag)));
  try {
    let result: Awaited<ReturnType<typeof agent.run>>;
    if (approve !== undefined || reject !== undefined) {
      const message = option(args, "--message");
      const decision: Decision =
        approve !== undefined
          ? { action: "approve", by: "cli" }
          : { action: "reject", by: "cli", ...(message === undefined ? {} : { message }) };
      const id = approve ?? reject ?? "";
      io.write(`resuming run "${runId}": ${decision.action} ${id}\n`);
      result = await agent.resume(runId, { [id]: decision }, { store });
    } else {
      const words = args.filter((arg) => !arg.startsWith("--") && !flagValues.has(arg));
      const question = words.join(" ") || "Refund order A-17: 250 EUR";
      await store.delete(runId); // a new request starts the demo run afresh
      io.write(`user: ${question}\n`);
      result = await agent.run({ messages: [ChatMessage.fromUser(question)] }, { store, runId });
    }
    const answer = result.last_message?.text;
    io.write(`assistant: ${answer}\n`);
    return { status: "completed", interrupts: [], answer };
  } catch (error) {
    if (!(error instanceof RunInterruptedError)) throw error;
    const head = await store.load(runId);
    io.write(`paused; snapshot ${head?.seq} saved to ${join(storeDir, runId)}\n`);
    for (const interrupt of error.interrupts) {
      io.write(
        `waiting for approval: ${interrupt.id} — ${interrupt.tool}(${JSON.stringify(interrupt.arguments)})\n` +
          `  approve: examples/approve-refund.ts --approve ${interrupt.id}\n` +
          `  reject:  examples/approve-refund.ts --reject ${interrupt.id} --message "why"\n`,
      );
    }
    return { status: "interrupted", interrupts: error.interrupts.map((item) => item.id), answer: undefined };
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), { write: (text) => process.stdout.write(text) }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
