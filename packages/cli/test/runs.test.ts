import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { junction } from "./support.js";

const refunds = "packages/cli/test/fixtures/refunds.ts";
const store = mkdtempSync(join(tmpdir(), "junction-cli-runs-"));
afterAll(() => rmSync(store, { recursive: true, force: true }));

const input = `messages=${JSON.stringify([{ role: "user", content: [{ text: "Refund A-1" }] }])}`;

test("run --store keeps a run that waits for approval (exit 3); runs list, show and resume it from other processes", {
  timeout: 600_000,
}, async () => {
  const help = await junction(["runs", "--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("junction runs resume <runId> <files|dir> --store <dir>");

  const paused = await junction(["run", refunds, "-i", input, "--store", store, "--json"]);
  expect(paused.stderr).toBe("");
  expect(paused.code).toBe(3);
  const answer = JSON.parse(paused.stdout) as {
    status: string;
    run_id: string;
    interrupts: { id: string; tool: string; arguments: unknown }[];
  };
  expect(answer.status).toBe("interrupted");
  expect(answer.interrupts.map((item) => [item.id, item.tool, item.arguments])).toEqual([
    ["agent#1/s1/call_1", "refund", { order: "A-1", amount: 500 }],
  ]);

  const listed = await junction(["runs", "list", "--store", store, "--status", "interrupted"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(`${answer.run_id}  interrupted`);
  expect(listed.stdout).toContain('agent#1/s1/call_1  refund({"order":"A-1","amount":500})');

  const shown = await junction(["runs", "show", answer.run_id, "--store", store]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain("status    interrupted");

  const usage = await junction(["runs", "resume", answer.run_id, refunds, "--store", store]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("--approve");

  const resumed = await junction([
    "runs",
    "resume",
    answer.run_id,
    refunds,
    "--store",
    store,
    "--approve",
    "--json",
  ]);
  expect(resumed.stderr).toBe("");
  expect(resumed.code).toBe(0);
  const done = JSON.parse(resumed.stdout) as {
    status: string;
    outputs: { reply: { content: { text: string }[] } };
  };
  expect(done.status).toBe("completed");
  expect(done.outputs.reply.content[0]?.text).toBe("Refunded.");

  const again = await junction(["runs", "resume", answer.run_id, refunds, "--store", store, "--approve"]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("completed, not interrupted");

  const missing = await junction(["runs", "show", "nope", "--store", store]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('no run "nope"');
});
