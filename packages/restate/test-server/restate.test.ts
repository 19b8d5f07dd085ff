import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryTracer, MemoryLogger, toDurableJSON } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main as restateExample } from "../../../examples/restate/main.js";
import { buildContext } from "../../../test/conformance/harness.js";
import { attach, call, send, until } from "./support/ingress.js";
import {
  freePort,
  type RestateServer,
  restateServerBinary,
  startRestateServer,
} from "./support/restate-server.js";
import { conformance, tipsAgent } from "./support/scenarios.js";
import { ServiceProcess } from "./support/service-process.js";

/**
 * Junction on a real Restate server (Node 22; `pnpm run test:restate`): the service runs in its own
 * process so it can be killed; the server is `restate-server` from npm on loopback ports.
 */

let server: RestateServer;
let service: ServiceProcess;
let work: string;
const execLog = () => join(work, "executions.log");
const executions = () => (existsSync(execLog()) ? readFileSync(execLog(), "utf8").trim().split("\n") : []);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "junction-restate-test-"));
  server = await startRestateServer();
  service = new ServiceProcess(await freePort(), { JUNCTION_EXEC_LOG: execLog(), JUNCTION_SLOW_MS: "0" });
  await service.start();
  await server.register(service.url);
}, 120_000);

afterAll(async () => {
  await service?.kill();
  await server?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("same outputs on Restate as in-process", () => {
  test("conformance loop and agent scenarios, run by run", async () => {
    for (const { prefix, scenario } of conformance) {
      const pipeline = scenario.build(buildContext(new InMemoryTracer(), new MemoryLogger()));
      for (const [index, run] of scenario.runs.entries()) {
        const options =
          run.includeOutputsFrom === undefined ? {} : { includeOutputsFrom: run.includeOutputsFrom };
        const local = JSON.parse(JSON.stringify(await pipeline.run(run.inputs, options)));
        const remote = await call(
          server.ingress,
          `${prefix}run${index}/${prefix}-${index}/run`,
          toDurableJSON(run.inputs),
        );
        expect(remote, `${scenario.name}, run ${index}`).toEqual(local);
      }
    }
  }, 120_000);
});

describe("crash recovery", () => {
  test("SIGKILL of the service mid tool batch: the run completes; the model call and the finished tool are not repeated", async () => {
    const inputs = { messages: [ChatMessage.fromUser("Tip for 85 EUR?").toJSON()] };
    const local = JSON.parse(
      JSON.stringify(
        await tipsAgent(undefined).run(
          { messages: [ChatMessage.fromUser("Tip for 85 EUR?")] },
          { logger: new MemoryLogger() },
        ),
      ),
    );
    await service.kill();
    rmSync(execLog(), { force: true });
    await service.start({ JUNCTION_SLOW_MS: "60000" });
    await send(server.ingress, "Tips", "crash-1", inputs);
    await until(
      () => executions().includes("tool:slow:start") && executions().includes("tool:fast:end"),
      "the batch to start",
    );
    await until(
      async () => (await journalNames(server, "Tips", "crash-1")).includes("tool#0/call_fast"),
      "call_fast to be journaled",
    );
    await service.kill();
    await service.start({ JUNCTION_SLOW_MS: "0" });
    expect(await attach(server.ingress, "Tips", "crash-1")).toEqual(local);
    // Killed while "slow" ran: after the restart only "slow" runs again, then the next model turn.
    const log = executions();
    const killedAt = log.lastIndexOf("tool:slow:start");
    expect(log.slice(0, killedAt).sort()).toEqual([
      "llm",
      "tool:fast:end",
      "tool:fast:start",
      "tool:slow:start",
    ]);
    expect(log.slice(killedAt)).toEqual(["tool:slow:start", "tool:slow:end", "llm"]);
  }, 120_000);
});

describe("starting a run, retry-safe (docs/restate.md)", () => {
  /** The documented client recipe: `/send` (idempotent), then `attach`. */
  async function startOrAttach(name: string, runId: string, inputs: unknown): Promise<unknown> {
    const start = await fetch(`${server.ingress}/${name}/${encodeURIComponent(runId)}/run/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(inputs),
    });
    if (!start.ok) throw new Error(`could not start run "${runId}": ${start.status} ${await start.text()}`);
    const result = await fetch(
      `${server.ingress}/restate/workflow/${name}/${encodeURIComponent(runId)}/attach`,
    );
    if (!result.ok) throw new Error(`run "${runId}" failed: ${result.status} ${await result.text()}`);
    return result.json();
  }

  test("/send again is harmless and keeps the first inputs, /run again is 409, attach answers the one run's result", async () => {
    rmSync(execLog(), { force: true });
    const first = { messages: [ChatMessage.fromUser("Tip for 85 EUR?").toJSON()] };
    const other = { messages: [ChatMessage.fromUser("Tip for 10 EUR?").toJSON()] };
    const sendRaw = async (inputs: unknown) => {
      const response = await fetch(`${server.ingress}/Tips/retry-1/run/send`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(inputs),
      });
      expect(response.ok).toBe(true);
      return (await response.json()) as { invocationId: string; status: string };
    };
    const accepted = await sendRaw(first);
    expect(accepted.status).toBe("Accepted");
    const again = await sendRaw(other);
    expect(again).toEqual({ invocationId: accepted.invocationId, status: "PreviouslyAccepted" });
    const rerun = await fetch(`${server.ingress}/Tips/retry-1/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(first),
    });
    expect(rerun.status).toBe(409);
    await rerun.text();
    const result = (await attach(server.ingress, "Tips", "retry-1")) as { messages: { content: unknown }[] };
    expect(JSON.stringify(result.messages[0])).toContain("Tip for 85 EUR?");
    expect(await attach(server.ingress, "Tips", "retry-1")).toEqual(result);
    // One run: two model turns, each tool once.
    expect(executions().filter((line) => line === "llm")).toHaveLength(2);
    expect(executions().filter((line) => line === "tool:fast:end")).toHaveLength(1);
  }, 120_000);

  test("the documented startOrAttach, called twice at once, runs the run once and gives both callers its result", async () => {
    rmSync(execLog(), { force: true });
    const inputs = { messages: [ChatMessage.fromUser("Tip for 85 EUR?").toJSON()] };
    const [one, two] = await Promise.all([
      startOrAttach("Tips", "retry-2", inputs),
      startOrAttach("Tips", "retry-2", inputs),
    ]);
    expect(two).toEqual(one);
    expect((one as { exit_reason: string }).exit_reason).toBe("text");
    expect(executions().filter((line) => line === "llm")).toHaveLength(2);
  }, 120_000);
});

describe("versioning", () => {
  test("changed code under a running run is refused by definition fingerprint, and the old code finishes it", async () => {
    const inputs = { messages: [ChatMessage.fromUser("Tip for 85 EUR?").toJSON()] };
    await service.kill();
    rmSync(execLog(), { force: true });
    await service.start({ JUNCTION_SLOW_MS: "60000" });
    await send(server.ingress, "Tips", "changed-1", inputs);
    await until(() => executions().includes("tool:slow:start"), "the batch to start");
    await service.kill();
    await service.start({ JUNCTION_SLOW_MS: "0", JUNCTION_VARIANT: "changed" });
    let failure = "";
    await until(async () => {
      const rows = await server.query(
        "SELECT last_failure FROM sys_invocation WHERE target_service_name = 'Tips' AND target_service_key = 'changed-1' AND target_handler_name = 'run'",
      );
      failure = String(rows[0]?.last_failure ?? "");
      return failure.includes("definition fingerprint");
    }, "the changed code to refuse the run");
    expect(failure).toMatch(
      /was started by code with definition fingerprint sha256:[0-9a-f]+; this deployment has sha256:/,
    );
    expect(executions().filter((line) => line === "llm")).toHaveLength(1);
    await service.kill();
    await service.start({ JUNCTION_SLOW_MS: "0" });
    const result = (await attach(server.ingress, "Tips", "changed-1")) as { exit_reason: string };
    expect(result.exit_reason).toBe("text");
    expect(executions().filter((line) => line === "llm")).toHaveLength(2);
  }, 120_000);
});

describe("interrupts", () => {
  const refundInputs = { messages: [ChatMessage.fromUser("Refund A-17").toJSON()] };
  const pending = async (workflow: string, runId: string) =>
    (await call(server.ingress, `${workflow}/${runId}/interrupts`)) as {
      fingerprint: string;
      round: number | undefined;
      interrupts: { id: string; tool: string; argsHash: string; decided: boolean }[];
      refused?: string;
    };
  const waitForPause = (workflow: string, runId: string) =>
    until(async () => (await pending(workflow, runId)).interrupts.length > 0, `${runId} to pause`);

  test("a run waiting for approval survives SIGKILL of the service and the server; approved over HTTP, it completes without repeating work", async () => {
    await service.kill();
    rmSync(execLog(), { force: true });
    await service.start();
    await send(server.ingress, "Refunds", "approve-1", refundInputs);
    await waitForPause("Refunds", "approve-1");
    const view = await pending("Refunds", "approve-1");
    expect(view.interrupts).toMatchObject([
      { id: "s2/call_refund", tool: "refund", arguments: { order: "A-17", amount: 250 }, decided: false },
    ]);
    expect(await call(server.ingress, "Refunds/approve-1/status")).toMatchObject({ status: "interrupted" });

    await service.kill();
    await server.kill();
    await server.start();
    await service.start();

    const decision = { action: "approve", argsHash: view.interrupts[0]!.argsHash };
    expect(
      await call(server.ingress, "Refunds/approve-1/decide", {
        decisions: { "s2/call_refund": decision },
        fingerprint: view.fingerprint,
      }),
    ).toEqual({ round: 1, accepted: ["s2/call_refund"] });
    const result = (await attach(server.ingress, "Refunds", "approve-1")) as {
      last_message: { content: { text?: string }[] };
    };
    expect(JSON.stringify(result.last_message)).toContain("Done: refunded 250 EUR for A-17");
    // Each model turn and each tool ran once, across two kills and the wait.
    expect(executions()).toEqual(["llm", "tool:lookup_order:A-17", "llm", "tool:refund:A-17:250", "llm"]);
    expect(await call(server.ingress, "Refunds/approve-1/status")).toMatchObject({ status: "completed" });
  }, 120_000);

  test("decide refuses an unknown interrupt id, a changed argsHash and another fingerprint; a refused edit waits again; a pipeline run resumes", async () => {
    rmSync(execLog(), { force: true });
    await send(server.ingress, "RefundPipeline", "decide-1", { agent: refundInputs });
    await waitForPause("RefundPipeline", "decide-1");
    const view = await pending("RefundPipeline", "decide-1");
    const id = "agent#1/s2/call_refund";
    expect(view.interrupts.map((item) => item.id)).toEqual([id]);
    const decide = (body: unknown) => call(server.ingress, "RefundPipeline/decide-1/decide", body);

    await expect(decide({ decisions: { "agent#1/s2/call_other": { action: "approve" } } })).rejects.toThrow(
      /404.*no pending interrupt .*call_other.*RESUME_UNKNOWN_INTERRUPT/,
    );
    await expect(
      decide({ decisions: { [id]: { action: "approve", argsHash: "sha256:0000" } } }),
    ).rejects.toThrow(/409.*argsHash differs.*RESUME_ARGS_CHANGED/);
    await expect(
      decide({ decisions: { [id]: { action: "approve" } }, fingerprint: "sha256:other" }),
    ).rejects.toThrow(/409.*definition fingerprint sha256:other.*RESUME_DEFINITION_CHANGED/);
    await expect(decide({ decisions: { [id]: { action: "maybe" } } })).rejects.toThrow(
      /400.*invalid decisions.*RESUME_INVALID_DECISION/,
    );
    expect((await pending("RefundPipeline", "decide-1")).interrupts[0]?.decided).toBe(false);

    // An edit the tool's schema rejects is refused when the run continues: the run waits again.
    await decide({ decisions: { [id]: { action: "edit", arguments: { order: "A-17", amount: "lots" } } } });
    await until(
      async () => (await pending("RefundPipeline", "decide-1")).round === 2,
      "the refused edit to be reported",
    );
    const again = await pending("RefundPipeline", "decide-1");
    expect(again.refused).toMatch(/amount/);
    expect(again.interrupts).toMatchObject([{ id, decided: false }]);

    await decide({ decisions: { [id]: { action: "edit", arguments: { order: "A-17", amount: 120 } } } });
    const result = (await attach(server.ingress, "RefundPipeline", "decide-1")) as {
      agent: { last_message: unknown };
    };
    expect(JSON.stringify(result.agent.last_message)).toContain("Done: refunded 120 EUR for A-17");
    expect(executions()).toEqual(["llm", "tool:lookup_order:A-17", "llm", "tool:refund:A-17:120", "llm"]);
    await expect(decide({ decisions: { [id]: { action: "approve" } } })).rejects.toThrow(
      /409.*not waiting for decisions/,
    );
  }, 120_000);
});

describe("chat thread", () => {
  test("turns of one thread run one at a time and each sees the history before it", async () => {
    const turn = (message: string) => call(server.ingress, "Thread/t-1/turn", { message });
    const first = (await turn("hello")) as { reply: string; messages: { role: string }[] };
    expect(first.reply).toBe('turn 1: you said "hello"');
    expect(first.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    // Sent together: Restate queues them, so the second sees the first's messages.
    const [second, third] = (await Promise.all([turn("one"), turn("two")])) as { reply: string }[];
    const replies = [second?.reply ?? "", third?.reply ?? ""];
    expect(replies.map((reply) => reply.slice(0, 6)).sort()).toEqual(["turn 2", "turn 3"]);
    expect(replies.map((reply) => reply.slice(8)).sort()).toEqual(['you said "one"', 'you said "two"']);
    const history = (await call(server.ingress, "Thread/t-1/history")) as { role: string }[];
    expect(history.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(await call(server.ingress, "Thread/t-2/history")).toEqual([]);
    await call(server.ingress, "Thread/t-1/reset");
    expect(((await turn("again")) as { reply: string }).reply).toBe('turn 1: you said "again"');
  }, 60_000);
});

describe("examples/restate", () => {
  test("starts a server, serves the tip pipeline, pauses for approval, is approved over HTTP, and answers", async () => {
    let output = "";
    const outcome = await restateExample(
      { write: (text) => (output += text) },
      { serverBinary: restateServerBinary() },
    );
    expect(outcome.interrupts).toEqual(["agent#1/s2/call_2_0", "agent#1/s2/call_2_1"]);
    expect(outcome.answer).toContain(
      "For a €250.00 meal in France, an appropriate tip is 5-10%: €12.50 to €25.00.",
    );
    expect(output).toContain(
      'waiting for approval: agent#1/s2/call_2_0 — calculator({"expression":"250 * 5%"})',
    );
    expect(output).toContain("approved 2 call(s) over HTTP");
  }, 120_000);
});

/** Names of the completed `ctx.run` steps of a workflow run. */
async function journalNames(server: RestateServer, workflow: string, key: string): Promise<string[]> {
  const rows = await server.query(
    `SELECT j.name, j.entry_type, j.completed FROM sys_journal j JOIN sys_invocation i ON j.id = i.id WHERE i.target_service_name = '${workflow}' AND i.target_service_key = '${key}' AND i.target_handler_name = 'run'`,
  );
  return rows.filter((row) => row.completed !== false).map((row) => String(row.name));
}
