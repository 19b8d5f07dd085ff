/**
 * A pipeline as a durable Restate workflow, end to end: starts `restate-server` on loopback ports with a
 * temporary data directory, serves the tip pipeline (tip-workflow.ts), registers it, starts a run over
 * HTTP, sees it pause for approval, approves over HTTP, and prints the answer. See README.md.
 *
 * Run (Node 22; the server binary from npm, see README.md):
 *   RESTATE_SERVER_BIN=$(npm root -g)/@restatedev/restate-server/bin/restate-server \
 *     npx -y -p node@22 node --conditions=@junction/source --import tsx examples/restate/main.ts
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatMessage } from "@junction/llm";
import { type InterruptsView, serveJunction } from "@junction/restate";
import type { ExampleIO } from "../io.js";
import { tipWorkflow } from "./tip-workflow.js";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

async function post(url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? null),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return text === "" ? null : JSON.parse(text);
}

async function poll<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A restate-server on loopback ports with a temporary data directory. */
async function startServer(binary: string) {
  const dir = mkdtempSync(join(tmpdir(), "junction-restate-example-"));
  const [ingressPort, adminPort, nodePort] = [await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(binary, ["--no-logo", "--base-dir", dir], {
    env: {
      PATH: process.env.PATH ?? "",
      RESTATE_DISABLE_TELEMETRY: "true",
      RESTATE_BIND_IP: "127.0.0.1",
      RESTATE_LISTEN_MODE: "tcp",
      RESTATE_BIND_ADDRESS: `127.0.0.1:${nodePort}`,
      RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${nodePort}/`,
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
      RESTATE_DEFAULT_NUM_PARTITIONS: "2",
      RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: "128MiB",
    },
    stdio: "ignore",
  });
  const server = {
    ingress: `http://127.0.0.1:${ingressPort}`,
    admin: `http://127.0.0.1:${adminPort}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await poll("restate-server to be healthy", async () => {
      if (child.exitCode !== null) throw new Error(`restate-server exited (${child.exitCode})`);
      const [admin, ingress] = await Promise.all([
        fetch(`${server.admin}/health`),
        fetch(`${server.ingress}/restate/health`),
      ]);
      return admin.ok && ingress.ok ? true : undefined;
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** What the example did. */
export interface RestateExampleOutcome {
  readonly interrupts: string[];
  readonly answer: string;
}

/**
 * Runs the example; `serverBinary` defaults to RESTATE_SERVER_BIN, then `restate-server` on the PATH.
 * The SDK's per-invocation log lines are dropped unless `verbose` (or `--verbose`).
 */
export async function main(
  io: ExampleIO,
  options: { readonly serverBinary?: string | undefined; readonly verbose?: boolean | undefined } = {},
): Promise<RestateExampleOutcome> {
  const server = await startServer(
    options.serverBinary ?? process.env.RESTATE_SERVER_BIN ?? "restate-server",
  );
  const endpoint = await serveJunction({
    services: [tipWorkflow],
    ...(options.verbose === true ? {} : { logger: () => {} }),
  });
  try {
    await post(`${server.admin}/deployments`, { uri: `http://127.0.0.1:${endpoint.port}` });
    io.write(`restate-server at ${server.ingress}; TipApproval served on port ${endpoint.port}\n`);

    const runId = "tip-250";
    const question = "Calculate the appropriate tip for a €250 meal in France";
    await post(`${server.ingress}/TipApproval/${runId}/run/send`, {
      agent: { messages: [ChatMessage.fromUser(question).toJSON()] },
    });
    io.write(`started run "${runId}": ${question}\n`);

    const view = await poll("the run to pause", async () => {
      const current = (await post(`${server.ingress}/TipApproval/${runId}/interrupts`)) as InterruptsView;
      return current.interrupts.length > 0 ? current : undefined;
    });
    for (const interrupt of view.interrupts) {
      io.write(
        `waiting for approval: ${interrupt.id} — ${interrupt.tool}(${JSON.stringify(interrupt.arguments)})\n`,
      );
    }

    const decisions = Object.fromEntries(
      view.interrupts.map((interrupt) => [
        interrupt.id,
        { action: "approve", argsHash: interrupt.argsHash, by: "example" },
      ]),
    );
    await post(`${server.ingress}/TipApproval/${runId}/decide`, { decisions, fingerprint: view.fingerprint });
    io.write(`approved ${view.interrupts.length} call(s) over HTTP\n`);

    const response = await fetch(`${server.ingress}/restate/workflow/TipApproval/${runId}/attach`);
    const result = (await response.json()) as { router?: { answer?: string } };
    const answer = result.router?.answer ?? JSON.stringify(result);
    io.write(`answer: ${answer}\n`);
    return { interrupts: view.interrupts.map((interrupt) => interrupt.id), answer };
  } finally {
    await endpoint.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(
    { write: (text) => process.stdout.write(text) },
    { verbose: process.argv.includes("--verbose") },
  ).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
