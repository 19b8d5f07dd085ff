import { MemoryRunStore } from "@junction/core";
import { createApp } from "@junction/serve";
import { expect, test } from "vitest";
import refunds from "../../../examples/serve/refunds.js";

/** examples/serve/refunds.ts, as `junction dev examples/serve` serves it: a run waits for approval. */

function post(app: ReturnType<typeof createApp>, path: string, body: unknown) {
  return app.request(
    new Request(`http://127.0.0.1:3700${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

test("examples/serve/refunds.ts: a refund over 100 waits for approval, then runs", async () => {
  const app = createApp({ pipelines: { refunds }, auth: {}, store: new MemoryRunStore() });
  const message = { role: "user", content: "Refund order A-17: 250 EUR" };
  const paused = await post(app, "/pipelines/refunds/run", { refunds: { messages: [message] } });
  expect(paused.status).toBe(202);
  const body = (await paused.json()) as { run_id: string; interrupts: { id: string; tool: string }[] };
  expect(body.interrupts.map((item) => [item.id, item.tool])).toEqual([
    ["refunds#1/s1/refund_A-17", "refund"],
  ]);
  const done = await post(app, `/runs/${body.run_id}/resume`, {
    decisions: { "refunds#1/s1/refund_A-17": { action: "approve" } },
  });
  expect(done.status).toBe(200);
  expect(JSON.stringify(await done.json())).toContain("Done: refunded 250 EUR for order A-17.");
});
