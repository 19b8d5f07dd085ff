import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../../..");

/** The service process (support/service.ts) on a fixed port, restartable with other environment. */
export class ServiceProcess {
  #child: ChildProcess | undefined;
  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the process and waits until it listens. */
  start(extra: Record<string, string> = {}): Promise<void> {
    const child = spawn(
      process.execPath,
      ["--conditions=@junction/source", "--import", "tsx", join(here, "service.ts")],
      {
        cwd: root,
        env: { ...process.env, ...this.env, ...extra, JUNCTION_SERVICE_PORT: String(this.port) },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.#child = child;
    let output = "";
    return new Promise((resolvePromise, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("listening ")) {
          child.stdout?.off("data", onData);
          resolvePromise();
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once("exit", (code) =>
        reject(new Error(`the service exited (${code}) before listening:\n${output}`)),
      );
    });
  }

  /** SIGKILLs the process and waits for it to exit. */
  async kill(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolvePromise) => child.once("exit", resolvePromise));
    child.kill("SIGKILL");
    await exited;
  }
}
