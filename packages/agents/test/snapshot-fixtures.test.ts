import { RunSnapshot } from "@junction/core";
import type { ChatMessage } from "@junction/llm";
import { expect, test } from "vitest";
import { fixtureAgent, snapshotFixture } from "./fixtures/snapshot-fixture.js";
import { quiet } from "./helpers.js";

/**
 * Snapshots written by format version 1 are kept here: a later version must still read (or migrate)
 * them. Do not regenerate these files; add new fixtures next to them.
 */
test("a version-1 agent snapshot loads and resumes", async () => {
  const snapshot = RunSnapshot.parse(snapshotFixture("run-snapshot-v1-agent.json"));
  expect(snapshot.interrupts.map((item) => item.id)).toEqual(["s1/call_1"]);
  const runs: number[] = [];
  const agent = fixtureAgent(runs, "Refunded.");
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
