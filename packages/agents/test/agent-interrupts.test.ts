import { Agent } from "@junction/agents";
import { MemoryLogger, MemoryRunStore, Pipeline, RunResumeError, RunSnapshot } from "@junction/core";
import { type ChatMessage, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { quiet, scripted, user } from "./helpers.js";
import { interruptOf, refundAgent, refunds } from "./interrupt-helpers.js";

const script = [refunds(["c1", "A-1", 500]), "Done."];

function texts(messages: readonly unknown[]): string[] {
  return (messages as ChatMessage[]).map(
    (message) => `${message.role}:${message.text ?? message.toolCallResult?.result ?? ""}`,
  );
}

describe("needsApproval", () => {
  test("a call above the limit stops the run before the tool runs, with a deterministic id", async () => {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent(script, runs);
    const error = await interruptOf(agent.run({ messages: [user("refund A-1")] }, quiet()));
    expect(error.code).toBe("RUN_INTERRUPTED");
    expect(runs).toEqual([]);
    expect(error.interrupts).toEqual([
      expect.objectContaining({
        id: "s1/c1",
        kind: "tool_approval",
        callId: "c1",
        tool: "refund",
        arguments: { order: "A-1", amount: 500 },
        by: "needsApproval",
      }),
    ]);
    expect(error.snapshot?.status).toBe("interrupted");
    expect(error.snapshot?.format).toBe("junction.run-snapshot");
  });

  test("approve runs the tool once and continues without calling the model again for the paused step", async () => {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent(script, runs);
    const error = await interruptOf(agent.run({ messages: [user("refund A-1")] }, quiet()));
    // A snapshot is data: it survives JSON.
    const snapshot = JSON.parse(JSON.stringify(error.snapshot));
    const out = await agent.resume(snapshot, { "s1/c1": { action: "approve" } }, quiet());
    expect(runs).toEqual([{ amount: 500 }]);
    expect(out.exit_reason).toBe("text");
    expect(out.step_count).toBe(2);
    expect(texts(out.messages as ChatMessage[])).toEqual([
      "user:refund A-1",
      "assistant:",
      "tool:refunded 500 for A-1",
      "assistant:Done.",
    ]);
  });

  test("the resumed run ends with the messages of a run where the call needed no approval", async () => {
    const runs: { amount: number }[] = [];
    const paused = refundAgent(script, runs);
    const error = await interruptOf(paused.agent.run({ messages: [user("refund A-1")] }, quiet()));
    const resumed = await paused.agent.resume(error.snapshot!, { "s1/c1": { action: "approve" } }, quiet());
    const direct = new Agent({
      chatGenerator: scripted([...script]),
      tools: [
        tool({
          name: "refund",
          description: "Refunds an order",
          parameters: z.object({ order: z.string(), amount: z.number() }),
          function: ({ order, amount }) => `refunded ${amount} for ${order}`,
        }),
      ],
    });
    const plain = await direct.run({ messages: [user("refund A-1")] }, quiet());
    expect((resumed.messages as ChatMessage[]).map((m) => m.toJSON())).toEqual(
      (plain.messages as ChatMessage[]).map((m) => m.toJSON()),
    );
  });

  test("a call under the limit runs without stopping", async () => {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent([refunds(["c1", "A-1", 20]), "Done."], runs);
    const out = await agent.run({ messages: [user("refund")] }, quiet());
    expect(runs).toEqual([{ amount: 20 }]);
    expect(out.exit_reason).toBe("text");
  });

  test("parallel calls get distinct ids; only the gated ones wait", async () => {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent([refunds(["a", "A", 500], ["b", "B", 5], ["c", "C", 900]), "Done."], runs);
    const error = await interruptOf(agent.run({ messages: [user("refunds")] }, quiet()));
    expect(error.interrupts.map((item) => item.id)).toEqual(["s1/a", "s1/c"]);
    expect(runs).toEqual([]);
    const out = await agent.resume(
      error.snapshot!,
      { "s1/a": { action: "approve" }, "s1/c": { action: "reject", message: "Too much." } },
      quiet(),
    );
    expect(runs.map((run) => run.amount).sort()).toEqual([5, 500]);
    const results = (out.messages as ChatMessage[])
      .filter((m) => m.role === "tool")
      .map((m) => m.toolCallResult!);
    expect(results.map((result) => [result.origin.id, result.result, result.error])).toEqual([
      ["a", "refunded 500 for A", false],
      ["b", "refunded 5 for B", false],
      ["c", "Too much.", true],
    ]);
  });
});

describe("decisions", () => {
  async function paused() {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent(script, runs);
    const error = await interruptOf(agent.run({ messages: [user("refund A-1")] }, quiet()));
    return { agent, runs, snapshot: error.snapshot!, interrupt: error.interrupts[0]! };
  }

  test("edit runs the tool with the new arguments, validated against its schema", async () => {
    const { agent, runs, snapshot } = await paused();
    await expect(
      agent.resume(
        snapshot,
        { "s1/c1": { action: "edit", arguments: { order: "A-1", amount: "lots" } } },
        quiet(),
      ),
    ).rejects.toMatchObject({ code: "RESUME_INVALID_DECISION" });
    expect(runs).toEqual([]);
    const out = await agent.resume(
      snapshot,
      { "s1/c1": { action: "edit", arguments: { order: "A-1", amount: 100 } } },
      quiet(),
    );
    expect(runs).toEqual([{ amount: 100 }]);
    const result = (out.messages as ChatMessage[])[2]!.toolCallResult!;
    expect(result.result).toBe("refunded 100 for A-1");
    expect(result.origin.arguments).toEqual({ order: "A-1", amount: 100 });
  });

  test("an edit the tool refuses is refused before the run is claimed: it stays interrupted", async () => {
    const store = new MemoryRunStore();
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent(script, runs);
    await interruptOf(agent.run({ messages: [user("refund A-1")] }, { ...quiet(), store, runId: "r-edit" }));
    const refused = await agent
      .resume(
        "r-edit",
        { "s1/c1": { action: "edit", arguments: { order: "A-1", amount: "lots" } } },
        {
          ...quiet(),
          store,
        },
      )
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "RESUME_INVALID_DECISION" });
    expect((refused as Error).message).toContain("The run is still interrupted");
    expect(await store.load("r-edit")).toMatchObject({ seq: 1, status: "interrupted" });
    // A pipeline holding the agent refuses the same way.
    const pipeline = new Pipeline();
    pipeline.addComponent("agent", refundAgent(script, runs).agent);
    await interruptOf(
      pipeline.run({ agent: { messages: [user("refund A-1")] } }, { ...quiet(), store, runId: "p-edit" }),
    );
    await expect(
      pipeline.resume(
        "p-edit",
        { "agent#1/s1/c1": { action: "edit", arguments: { order: "A-1", amount: "x" } } },
        { ...quiet(), store },
      ),
    ).rejects.toMatchObject({ code: "RESUME_INVALID_DECISION" });
    expect(await store.load("p-edit")).toMatchObject({ seq: 1, status: "interrupted" });
    // Better decisions then complete both runs.
    await agent.resume(
      "r-edit",
      { "s1/c1": { action: "edit", arguments: { order: "A-1", amount: 100 } } },
      {
        ...quiet(),
        store,
      },
    );
    await pipeline.resume("p-edit", { "agent#1/s1/c1": { action: "approve" } }, { ...quiet(), store });
    expect(runs).toEqual([{ amount: 100 }, { amount: 500 }]);
  });

  test("reject never runs the tool; the model gets an error result with the message", async () => {
    const { agent, runs, snapshot } = await paused();
    const out = await agent.resume(
      snapshot,
      { "s1/c1": { action: "reject", message: "Not approved." } },
      quiet(),
    );
    expect(runs).toEqual([]);
    const result = (out.messages as ChatMessage[])[2]!.toolCallResult!;
    expect([result.result, result.error]).toEqual(["Not approved.", true]);
  });

  test("respond answers the call in place of the tool", async () => {
    const { agent, runs, snapshot } = await paused();
    const out = await agent.resume(
      snapshot,
      { "s1/c1": { action: "respond", value: { refunded: 0 } } },
      quiet(),
    );
    expect(runs).toEqual([]);
    expect((out.messages as ChatMessage[])[2]!.toolCallResult!.result).toBe('{"refunded":0}');
  });

  test("fails closed: unknown id, missing decision, bad shape, changed arguments hash", async () => {
    const { agent, runs, snapshot, interrupt } = await paused();
    await expect(
      agent.resume(snapshot, { "s1/c1": { action: "approve" }, "s9/x": { action: "approve" } }, quiet()),
    ).rejects.toMatchObject({ code: "RESUME_UNKNOWN_INTERRUPT" });
    await expect(agent.resume(snapshot, {}, quiet())).rejects.toMatchObject({ code: "RESUME_INCOMPLETE" });
    await expect(
      agent.resume(snapshot, { "s1/c1": { action: "maybe" } as never }, quiet()),
    ).rejects.toMatchObject({ code: "RESUME_INVALID_DECISION" });
    await expect(
      agent.resume(snapshot, { "s1/c1": { action: "approve", argsHash: "sha256:00" } }, quiet()),
    ).rejects.toMatchObject({ code: "RESUME_ARGS_CHANGED" });
    await agent.resume(snapshot, { "s1/c1": { action: "approve", argsHash: interrupt.argsHash } }, quiet());
    expect(runs).toEqual([{ amount: 500 }]);
  });

  test("a changed agent definition fails closed unless allowDefinitionChange", async () => {
    const { snapshot } = await paused();
    const runs: { amount: number }[] = [];
    const changed = refundAgent(script.slice(1), runs, { systemPrompt: "Be brief." }).agent;
    await expect(
      changed.resume(snapshot, { "s1/c1": { action: "approve" } }, quiet()),
    ).rejects.toBeInstanceOf(RunResumeError);
    await expect(changed.resume(snapshot, { "s1/c1": { action: "approve" } }, quiet())).rejects.toMatchObject(
      { code: "RESUME_DEFINITION_CHANGED" },
    );
    const out = await changed.resume(
      snapshot,
      { "s1/c1": { action: "approve" } },
      { ...quiet(), allowDefinitionChange: true },
    );
    expect(out.exit_reason).toBe("text");
    expect(runs).toEqual([{ amount: 500 }]);
  });

  test('approve with scope "run" approves later calls of the same tool', async () => {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent([refunds(["c1", "A", 500]), refunds(["c2", "B", 700]), "Done."], runs);
    const error = await interruptOf(agent.run({ messages: [user("refunds")] }, quiet()));
    const out = await agent.resume(
      error.snapshot!,
      { "s1/c1": { action: "approve", scope: "run" } },
      quiet(),
    );
    expect(runs).toEqual([{ amount: 500 }, { amount: 700 }]);
    expect(out.exit_reason).toBe("text");
  });

  test("a resumed run can stop again; the second snapshot continues the first", async () => {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent([refunds(["c1", "A", 500]), refunds(["c2", "B", 700]), "Done."], runs);
    const first = await interruptOf(agent.run({ messages: [user("refunds")] }, quiet()));
    const second = await interruptOf(
      agent.resume(first.snapshot!, { "s1/c1": { action: "approve" } }, quiet()),
    );
    expect(second.interrupts.map((item) => item.id)).toEqual(["s2/c2"]);
    expect(second.snapshot!.seq).toBe(first.snapshot!.seq + 2);
    const out = await agent.resume(second.snapshot!, { "s2/c2": { action: "approve" } }, quiet());
    expect(runs).toEqual([{ amount: 500 }, { amount: 700 }]);
    expect(out.step_count).toBe(3);
  });
});

describe("hooks", () => {
  test("control.interrupt in beforeTool holds the named calls, with the payload; hooks do not run again", async () => {
    const runs: { amount: number }[] = [];
    let beforeTool = 0;
    const { agent } = refundAgent([refunds(["a", "A", 5], ["b", "B", 6]), "Done."], runs, {
      hooks: {
        beforeTool: (_state: unknown, control: { interrupt(options: unknown): void }) => {
          beforeTool++;
          control.interrupt({ callIds: ["b"], payload: { reason: "new customer" } });
        },
      },
    });
    const error = await interruptOf(agent.run({ messages: [user("refunds")] }, quiet()));
    expect(error.interrupts).toEqual([
      expect.objectContaining({ id: "s1/b", by: "hook", payload: { reason: "new customer" } }),
    ]);
    await agent.resume(error.snapshot!, { "s1/b": { action: "approve" } }, quiet());
    expect(beforeTool).toBe(1);
    expect(runs.map((run) => run.amount)).toEqual([5, 6]);
  });

  test("control.interrupt outside beforeTool is an error", async () => {
    const agent = new Agent({
      chatGenerator: scripted(["Hi"]),
      hooks: { beforeLlm: (_state, control) => control.interrupt() },
    });
    await expect(agent.run({ messages: [user("x")] }, quiet())).rejects.toThrow(/only works in "beforeTool"/);
  });
});

describe("with a store", () => {
  test("the snapshot is saved before the error; one resumer wins; history records the run", async () => {
    const store = new MemoryRunStore();
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent(script, runs);
    const error = await interruptOf(
      agent.run({ messages: [user("refund A-1")] }, { ...quiet(), store, runId: "r-1" }),
    );
    expect(error.runId).toBe("r-1");
    expect(error.snapshot).toBeUndefined();
    expect((await store.load("r-1"))?.status).toBe("interrupted");
    const listed = [];
    for await (const run of store.list({ status: "interrupted" })) listed.push(run.runId);
    expect(listed).toEqual(["r-1"]);
    const decisions = { "s1/c1": { action: "approve" } } as const;
    const [first, second] = await Promise.allSettled([
      agent.resume("r-1", decisions, { ...quiet(), store }),
      agent.resume("r-1", decisions, { ...quiet(), store }),
    ]);
    expect([first.status, second.status].sort()).toEqual(["fulfilled", "rejected"]);
    const failed = (first.status === "rejected" ? first : second) as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ code: "RUN_ALREADY_RESUMED" });
    expect(runs).toEqual([{ amount: 500 }]);
    const history = [];
    for await (const info of store.history("r-1")) history.push(info.status);
    expect(history).toEqual(["interrupted", "running", "completed"]);
    await expect(agent.resume("r-1", decisions, { ...quiet(), store })).rejects.toMatchObject({
      code: "RUN_NOT_RESUMABLE",
    });
  });

  test("a signed snapshot verifies; a changed one is refused", async () => {
    const runs: { amount: number }[] = [];
    const { agent } = refundAgent(script, runs);
    const error = await interruptOf(agent.run({ messages: [user("refund A-1")] }, quiet()));
    const signed = RunSnapshot.sign(error.snapshot!, "secret");
    expect(RunSnapshot.verify(JSON.parse(JSON.stringify(signed)), "secret").runId).toBe(error.runId);
    const forged = structuredClone(signed) as unknown as { interrupts: { arguments: { amount: number } }[] };
    forged.interrupts[0]!.arguments.amount = 1;
    expect(() => RunSnapshot.verify(forged, "secret")).toThrow(
      expect.objectContaining({ code: "SNAPSHOT_SIGNATURE_INVALID" }),
    );
    expect(() => RunSnapshot.verify(signed, "other")).toThrow(/signed with another secret/);
    expect(new MemoryLogger().records).toEqual([]);
  });
});
