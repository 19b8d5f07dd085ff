import { setTimeout as sleep } from "node:timers/promises";
import { Agent } from "@junction/agents";
import { Pipeline } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, type ScriptedReply, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { DyingStore } from "../../core/test/support/dying-store.js";

/** A model that answers by how far the conversation got (as a real model would), counting its calls. */
function countingModel(calls: { count: number }) {
  const script: (ScriptedReply | string)[] = [
    {
      toolCalls: [
        { id: "c1", toolName: "add", arguments: { a: 1, b: 2 } },
        { id: "c2", toolName: "add", arguments: { a: 3, b: 4 } },
      ],
    },
    { toolCalls: [{ id: "c3", toolName: "add", arguments: { a: 10, b: 20 } }] },
    "3, 7 and 30.",
  ];
  return new ScriptedChatGenerator({
    respond: (messages) => {
      calls.count++;
      return script[messages.filter((message) => message.role === "assistant").length] ?? "out of script";
    },
  });
}

function build(model: { count: number }, ran: string[]) {
  const add = tool({
    name: "add",
    description: "Adds two numbers",
    parameters: z.object({ a: z.number(), b: z.number() }),
    function: ({ a, b }, context) => {
      ran.push(`${a}+${b} ${context.idempotencyKey}`);
      return a + b;
    },
  });
  const pipeline = new Pipeline();
  pipeline.addComponent("agent", new Agent({ chatGenerator: countingModel(model), tools: [add] }));
  return pipeline;
}

describe('an Agent inside a pipeline with durability "steps"', () => {
  test("continues mid-loop after its process died: model calls and finished tools are replayed", async () => {
    // Deltas: llm#0, tool#0/c1, tool#0/c2, llm#1, then the process dies writing tool#1/c3.
    const store = new DyingStore(5);
    const model = { count: 0 };
    const ran: string[] = [];
    const inputs = { agent: { messages: [ChatMessage.fromUser("Add them up.")] } };
    void build(model, ran).run(inputs, { store, runId: "agent-steps", durability: "steps", leaseMs: 100 });
    await expect.poll(() => store.dead).toBe(true);
    expect(model.count).toBe(2);
    expect(ran).toEqual([
      "1+2 agent-steps/agent#1/tool#0/c1",
      "3+4 agent-steps/agent#1/tool#0/c2",
      "10+20 agent-steps/agent#1/tool#1/c3",
    ]);
    await sleep(150);

    const after = { count: 0 };
    const ranAfter: string[] = [];
    const out = await build(after, ranAfter).resume("agent-steps", {}, { store: store.inner });
    // The third model call is the only new one; c3, in flight at the crash, runs again with its key.
    expect(after.count).toBe(1);
    expect(ranAfter).toEqual(["10+20 agent-steps/agent#1/tool#1/c3"]);
    const messages = (out.agent as { messages: ChatMessage[] }).messages;
    expect(messages.map((message) => message.text ?? message.toolCallResult?.result)).toEqual([
      "Add them up.",
      undefined,
      "3",
      "7",
      undefined,
      "30",
      "3, 7 and 30.",
    ]);

    // The same run, never interrupted, gives the same messages.
    const clean = await build({ count: 0 }, []).run(inputs);
    expect(JSON.stringify((clean.agent as { messages: ChatMessage[] }).messages)).toBe(
      JSON.stringify(messages),
    );
  });
});
