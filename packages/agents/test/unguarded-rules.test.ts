import { Agent } from "@junction/agents";
import { type ChatMessage, type ScriptedReply, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { callTools, quiet, runAgent, scripted, user } from "./helpers.js";
import { interruptOf, refunds, refundTool } from "./interrupt-helpers.js";

const Triage = z.object({ category: z.enum(["billing", "other"]), summary: z.string() });
const valid = { category: "billing", summary: "Refund asked" };

/** One turn: a refund that needs approval (c1), one that does not (c2), and the final answer (f1). */
const turn: ScriptedReply = {
  toolCalls: [
    { id: "c1", toolName: "refund", arguments: { order: "A-1", amount: 500 } },
    { id: "c2", toolName: "refund", arguments: { order: "B-2", amount: 50 } },
    { id: "f1", toolName: "final_answer", arguments: valid },
  ],
};

function structuredAgent(runs: { amount: number }[]) {
  return new Agent({
    chatGenerator: scripted(
      [turn, { toolCalls: [{ id: "f2", toolName: "final_answer", arguments: valid }] }],
      {
        onScriptEnd: "repeatLast",
      },
    ),
    tools: [refundTool(runs)],
    outputSchema: Triage,
    outputStrategy: "tool",
  });
}

function resultOf(messages: readonly ChatMessage[], callId: string) {
  return messages.find((message) => message.toolCallResult?.origin.id === callId)?.toolCallResult;
}

describe("an outputSchema agent whose turn calls final_answer and a tool that needs approval", () => {
  async function paused(runs: { amount: number }[]) {
    const agent = structuredAgent(runs);
    const error = await interruptOf(agent.run({ messages: [user("refund A-1 and B-2")] }, quiet()));
    expect(error.interrupts.map((item) => item.id)).toEqual(["s1/c1"]);
    expect(runs).toEqual([]);
    return { agent, snapshot: error.snapshot! };
  }

  test("reject: the tool does not run and the rejection is its result", async () => {
    const runs: { amount: number }[] = [];
    const { agent, snapshot } = await paused(runs);
    const out = await agent.resume(
      snapshot,
      { "s1/c1": { action: "reject", message: "Too much." } },
      quiet(),
    );
    expect(runs).toEqual([{ amount: 50 }]);
    const rejected = resultOf(out.messages as ChatMessage[], "c1");
    expect(rejected?.result).toContain("Too much.");
    expect(rejected?.error).toBe(true);
    expect(out.structured_output).toEqual(valid);
  });

  test("respond: the response becomes that call's result; the tool does not run", async () => {
    const runs: { amount: number }[] = [];
    const { agent, snapshot } = await paused(runs);
    const out = await agent.resume(
      snapshot,
      { "s1/c1": { action: "respond", value: "refund queued for review" } },
      quiet(),
    );
    expect(runs).toEqual([{ amount: 50 }]);
    expect(resultOf(out.messages as ChatMessage[], "c1")?.result).toBe("refund queued for review");
    expect(out.structured_output).toEqual(valid);
  });

  test("edit reaches only that call: the other call runs with its own arguments", async () => {
    const runs: { amount: number }[] = [];
    const { agent, snapshot } = await paused(runs);
    const out = await agent.resume(
      snapshot,
      { "s1/c1": { action: "edit", arguments: { order: "A-1", amount: 90 } } },
      quiet(),
    );
    expect([...runs].sort((a, b) => a.amount - b.amount)).toEqual([{ amount: 50 }, { amount: 90 }]);
    const messages = out.messages as ChatMessage[];
    expect(resultOf(messages, "c1")?.result).toBe("refunded 90 for A-1");
    expect(resultOf(messages, "c2")?.result).toBe("refunded 50 for B-2");
    expect(out.structured_output).toEqual(valid);
  });
});

describe("second angles on rules guarded once", () => {
  const sometimesFails = () => {
    let calls = 0;
    return tool({
      name: "submit",
      description: "Submits; fails the first time",
      parameters: z.object({ form: z.string() }),
      function: ({ form }) => {
        calls += 1;
        if (calls === 1) throw new Error("the form service is down");
        return `submitted ${form}`;
      },
    });
  };

  test("an exit tool that errors does not end the run; its next successful call does", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["submit", { form: "a" }]), callTools(["submit", { form: "a" }])]),
      tools: [sometimesFails()],
      exitConditions: ["submit"],
    });
    const result = await runAgent(agent, { messages: [user("submit a")] });
    expect(result.exit_reason).toBe("submit");
    expect(result.step_count).toBe(2);
    const results = result.messages.filter((message) => message.role === "tool");
    expect(results.map((message) => message.toolCallResult?.error)).toEqual([true, false]);
    expect(results.at(-1)?.toolCallResult?.result).toBe("submitted a");
  });

  test("toolConcurrencyLimit 2 over five calls: never more than two at once, results in call order", async () => {
    let active = 0;
    let maxActive = 0;
    const slow = tool({
      name: "slow",
      description: "waits",
      parameters: z.object({ index: z.number() }),
      function: async ({ index }) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, 5 - index));
        active -= 1;
        return String(index);
      },
    });
    const calls = [0, 1, 2, 3, 4].map((index) => ["slow", { index }] as [string, Record<string, unknown>]);
    const agent = new Agent({
      chatGenerator: scripted([callTools(...calls), "done"]),
      tools: [slow],
      toolConcurrencyLimit: 2,
    });
    const result = await runAgent(agent, { messages: [user("go")] });
    expect(maxActive).toBe(2);
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult?.result)).toEqual([
      "0",
      "1",
      "2",
      "3",
      "4",
    ]);
  });

  test('an approval with scope "run" covers that tool only: another tool that needs approval still stops', async () => {
    const runs: { amount: number }[] = [];
    const charges: number[] = [];
    const charge = tool({
      name: "charge",
      description: "Charges a card",
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      function: ({ amount }) => {
        charges.push(amount);
        return `charged ${amount}`;
      },
    });
    const agent = new Agent({
      chatGenerator: scripted([
        refunds(["c1", "A", 500]),
        { toolCalls: [{ id: "c2", toolName: "refund", arguments: { order: "B", amount: 700 } }] },
        { toolCalls: [{ id: "c3", toolName: "charge", arguments: { amount: 5 } }] },
        "Done.",
      ]),
      tools: [refundTool(runs), charge],
    });
    const first = await interruptOf(agent.run({ messages: [user("go")] }, quiet()));
    const second = await interruptOf(
      agent.resume(first.snapshot!, { "s1/c1": { action: "approve", scope: "run" } }, quiet()),
    );
    expect(runs).toEqual([{ amount: 500 }, { amount: 700 }]);
    expect(second.interrupts.map((item) => [item.id, item.tool])).toEqual([["s3/c3", "charge"]]);
    expect(charges).toEqual([]);
  });
});
