import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "@junction/agents";
import { RunSnapshot } from "@junction/core";
import { type ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { expect, test } from "vitest";
import { z } from "zod";
import { quiet } from "./helpers.js";

/**
 * Snapshots written by format version 1 are kept here: a later version must still read (or migrate)
 * them. Do not regenerate these files; add new fixtures next to them.
 */
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", name), "utf8"));

test("a version-1 agent snapshot loads and resumes", async () => {
  const snapshot = RunSnapshot.parse(fixture("run-snapshot-v1-agent.json"));
  expect(snapshot.interrupts.map((item) => item.id)).toEqual(["s1/call_1"]);
  const runs: number[] = [];
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({ script: ["Refunded."] }),
    tools: [
      tool({
        name: "refund",
        description: "Refunds an order",
        parameters: z.object({ order: z.string(), amount: z.number() }),
        needsApproval: true,
        function: ({ amount }) => {
          runs.push(amount);
          return `refunded ${amount}`;
        },
      }),
    ],
    stateSchema: { notes: { type: z.array(z.string()) } },
  });
  const out = await agent.resume(
    snapshot,
    { "s1/call_1": { action: "approve" } },
    {
      ...quiet(),
      allowDefinitionChange: true,
    },
  );
  expect(runs).toEqual([500]);
  expect(out.notes).toEqual(["vip"]);
  expect((out.messages as ChatMessage[]).map((message) => message.role)).toEqual([
    "user",
    "assistant",
    "tool",
    "assistant",
  ]);
});
