/**
 * Crash recovery across processes: a run pauses at an approval and is saved to a FileRunStore by one
 * process, which is then SIGKILLed; a second process dies (SIGKILL) in the middle of saving its resume;
 * a third resumes the run from the store and completes it. The model (a local OpenAI-compatible server)
 * is asked exactly once per step and every tool runs once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileRunStore } from "@junction/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  completion,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from "../packages/openai/test/support/fake-openai-server.js";
import { shippingAgent, shippingRequest } from "./support/shipping-agent.js";

const child = join(import.meta.dirname, "support", "crash-child.ts");

function start(args: readonly string[], env: Record<string, string> = {}) {
  const process_ = spawn(
    process.execPath,
    ["--conditions=@junction/source", "--import", "tsx", child, ...args],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  process_.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  process_.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    process_.on("close", (code, signal) => resolve({ code, signal })),
  );
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match !== null) resolve(match[0]);
      };
      process_.stdout.on("data", check);
      void exited.then(() => {
        check();
        reject(new Error(`child exited before printing ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
      });
    });
  return { process: process_ as ChildProcess, exited, line, output: () => ({ stdout, stderr }) };
}

describe("crash recovery with a FileRunStore", { timeout: 60_000 }, () => {
  let server: FakeOpenAIServer | undefined;
  let dir: string | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const item of children) if (item.exitCode === null && item.signalCode === null) item.kill("SIGKILL");
    await server?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("a run paused by a killed process is resumed by another; torn files are ignored; nothing repeats", async () => {
    server = await startFakeOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), "junction-crash-"));
    server.enqueue(
      completion({ toolCalls: [{ id: "call_look", name: "lookup_order", arguments: '{"order":"A-17"}' }] }),
      completion({
        toolCalls: [{ id: "call_refund", name: "refund", arguments: '{"order":"A-17","amount":250}' }],
      }),
      completion({ content: "Refunded 250 EUR for A-17." }),
    );

    // 1. The first process runs to the approval, saves the run, and is killed while it waits.
    const first = start(["start", dir, server.baseURL]);
    children.push(first.process);
    expect(await first.line(/interrupted .+\n/)).toBe("interrupted s2/call_refund\n");
    first.process.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    const store = new FileRunStore(dir);
    expect(await store.load("crash-run")).toMatchObject({ seq: 1, status: "interrupted" });

    // 2. A resumer dies inside FileRunStore.save: its snapshot's temporary file exists, the snapshot does not.
    const second = start(["resume", dir, server.baseURL, "s2/call_refund"], { JUNCTION_CRASH_IN_SAVE: "1" });
    children.push(second.process);
    expect((await second.exited).signal).toBe("SIGKILL");
    const runDir = join(dir, "crash-run");
    expect((await readdir(runDir)).filter((name) => name.startsWith(".tmp-"))).toHaveLength(1);
    // A write torn halfway (a crash during the temporary file's write) looks like this:
    await appendFile(
      join(runDir, ".tmp-1-torn"),
      '{"format":"junction.run-snapshot","version":1,"runId":"cra',
    );
    expect(await store.load("crash-run")).toMatchObject({ seq: 1, status: "interrupted" });
    expect(server.requests).toHaveLength(2);

    // 3. A third process resumes from the store and completes the run.
    const third = start(["resume", dir, server.baseURL, "s2/call_refund"]);
    children.push(third.process);
    const done = await third.exited;
    expect(third.output().stderr).toBe("");
    expect(done.code).toBe(0);
    expect(third.output().stdout).toBe("answer Refunded 250 EUR for A-17.\n");

    // The model was asked once per step; the last request carries both tool results.
    expect(server.requests).toHaveLength(3);
    const last = server.requests[2]?.body.messages as { role: string; content: unknown }[];
    expect(last.filter((message) => message.role === "tool").map((message) => message.content)).toEqual([
      "order A-17: 250 EUR, delivered damaged",
      "refunded 250 EUR for A-17",
    ]);
    const executions = (await readFile(join(dir, "executions.log"), "utf8")).trim().split("\n");
    expect(executions).toEqual(["lookup_order A-17", "refund A-17 250"]);
    const head = await store.load("crash-run");
    expect(head).toMatchObject({ seq: 3, status: "completed" });
    const history: number[] = [];
    for await (const info of store.history("crash-run")) history.push(info.seq);
    expect(history).toEqual([1, 2, 3]);
  });

  it('durability "steps": a process killed mid tool batch is taken over; finished steps do not repeat', async () => {
    server = await startFakeOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), "junction-crash-"));
    const script = () => [
      completion({
        toolCalls: [
          { id: "call_1", name: "track", arguments: '{"parcel":"P-1"}' },
          { id: "call_2", name: "track", arguments: '{"parcel":"P-2"}' },
          { id: "call_3", name: "ship", arguments: '{"parcel":"P-3"}' },
        ],
      }),
      completion({ content: "P-3 shipped; P-1 and P-2 are in transit." }),
    ];
    server.enqueue(...script());

    // 1. The run's process is killed while "ship" runs; both "track" calls had finished and were journaled.
    const first = start(["steps", dir, server.baseURL]);
    children.push(first.process);
    expect(await first.line(/ship in flight\n/)).toBe("ship in flight\n");
    first.process.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    const store = new FileRunStore(dir);
    expect(await store.load("steps-run")).toMatchObject({ seq: 1, status: "running", durability: "steps" });
    expect(server.requests).toHaveLength(1);

    // 2. Another process takes the run over (its runner's process is gone) and completes it.
    const second = start(["recover", dir, server.baseURL]);
    children.push(second.process);
    const done = await second.exited;
    expect(second.output().stderr).toBe("");
    expect(done.code).toBe(0);
    const recovered = JSON.parse(second.output().stdout.replace(/^messages /, "")) as unknown[];

    // The model was not asked again for the step that had finished: one request per step in all.
    expect(server.requests).toHaveLength(2);
    // Each track ran once; ship, in flight at the kill, ran again with the same idempotency key.
    const executions = (await readFile(join(dir, "executions.log"), "utf8")).trim().split("\n").sort();
    expect(executions).toEqual([
      "ship done P-3",
      "ship started P-3 steps-run/tool#0/call_3",
      "ship started P-3 steps-run/tool#0/call_3",
      "track P-1 steps-run/tool#0/call_1",
      "track P-2 steps-run/tool#0/call_2",
    ]);
    const history: string[] = [];
    for await (const info of store.history("steps-run")) history.push(`${info.seq} ${info.status}`);
    expect(history).toEqual(["1 running", "2 running", "3 completed"]);

    // The final messages equal those of the same run that was never interrupted.
    const clean = await startFakeOpenAIServer();
    try {
      clean.enqueue(...script());
      const uninterrupted = await shippingAgent(clean.baseURL).run(shippingRequest());
      expect(recovered).toEqual(JSON.parse(JSON.stringify(uninterrupted.messages)));
    } finally {
      await clean.close();
    }
  });
});
