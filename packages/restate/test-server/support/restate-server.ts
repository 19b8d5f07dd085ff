import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../../test/support/free-port.js";

export { freePort };

/**
 * Test harness: a real `restate-server` on loopback ports with a temporary base dir. The server binary
 * comes from npm (`@restatedev/restate-server-<platform>`, 216 MB, BSL): found in node_modules when a
 * project installed it, else installed once into a cache dir with npm (not a default dependency of the
 * repository, so a newcomer's `npm test` does not download it).
 */

export const serverVersion = "1.7.12";

/** The path of the `restate-server` binary, installing it into the cache on first use. */
export function restateServerBinary(): string {
  if (process.env.RESTATE_SERVER_BIN) return process.env.RESTATE_SERVER_BIN;
  const name = `@restatedev/restate-server-${process.platform}-${process.arch}`;
  try {
    const require = createRequire(import.meta.url);
    return join(require.resolve(`${name}/package.json`), "..", "bin", "restate-server");
  } catch {
    // not installed in this project: use the cache
  }
  const cache = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"),
    "junction",
    `restate-server-${serverVersion}`,
  );
  const binary = join(cache, "node_modules", name, "bin", "restate-server");
  if (!existsSync(binary)) {
    execFileSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--prefix",
        cache,
        `${name}@${serverVersion}`,
      ],
      { stdio: "ignore" },
    );
  }
  return binary;
}

/** A running server. */
export interface RestateServer {
  /** The ingress URL, e.g. `http://127.0.0.1:41234`. */
  readonly ingress: string;
  /** The admin API URL. */
  readonly admin: string;
  /** The server's base dir (its data survives {@link RestateServer.kill} and {@link RestateServer.start}). */
  readonly baseDir: string;
  /** The server process id (undefined while stopped). */
  pid(): number | undefined;
  /** Starts (or restarts) the server on the same ports and data, and waits until it is healthy. */
  start(): Promise<void>;
  /** SIGKILLs the server process and waits for it to exit. */
  kill(): Promise<void>;
  /** Kills the server and removes its base dir. */
  dispose(): Promise<void>;
  /** Registers a service endpoint URL (`POST /deployments`, forced so a restarted endpoint re-registers). */
  register(uri: string): Promise<void>;
  /** Runs a SQL query on the admin API (`sys_invocation`, `sys_journal`, …). */
  query(sql: string): Promise<Record<string, unknown>[]>;
}

/** Creates (and starts) a server with fresh ports and a temporary base dir. */
export async function startRestateServer(): Promise<RestateServer> {
  const binary = restateServerBinary();
  const baseDir = mkdtempSync(join(tmpdir(), "junction-restate-"));
  const [ingressPort, adminPort, fabricPort] = [await freePort(), await freePort(), await freePort()];
  const ingress = `http://127.0.0.1:${ingressPort}`;
  const admin = `http://127.0.0.1:${adminPort}`;
  let child: ChildProcess | undefined;
  let log = "";

  const start = async () => {
    log = "";
    child = spawn(binary, ["--no-logo", "--base-dir", baseDir], {
      env: {
        PATH: process.env.PATH ?? "",
        RESTATE_DISABLE_TELEMETRY: "true",
        RESTATE_BIND_IP: "127.0.0.1",
        RESTATE_LISTEN_MODE: "tcp",
        RESTATE_NODE_NAME: "junction-test",
        RESTATE_BIND_ADDRESS: `127.0.0.1:${fabricPort}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabricPort}/`,
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
        RESTATE_DEFAULT_NUM_PARTITIONS: "2",
        RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: "128MiB",
        // Retry a failed invocation quickly, so tests that restart the service do not wait long.
        RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: "100ms",
        RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: "500ms",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`restate-server exited (${child.exitCode}):\n${log}`);
      try {
        const [a, i] = await Promise.all([fetch(`${admin}/health`), fetch(`${ingress}/restate/health`)]);
        if (a.ok && i.ok) return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error(`restate-server did not become healthy:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const kill = async () => {
    const current = child;
    child = undefined;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once("exit", resolve));
    current.kill("SIGKILL");
    await exited;
  };

  await start();
  return {
    ingress,
    admin,
    baseDir,
    pid: () => child?.pid,
    start,
    kill,
    dispose: async () => {
      await kill();
      rmSync(baseDir, { recursive: true, force: true });
    },
    register: async (uri) => {
      const response = await fetch(`${admin}/deployments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uri, force: true }),
      });
      if (!response.ok)
        throw new Error(`registering ${uri} failed: ${response.status} ${await response.text()}`);
    },
    query: async (sql) => {
      const response = await fetch(`${admin}/query`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query: sql }),
      });
      if (!response.ok) throw new Error(`query failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
    },
  };
}
