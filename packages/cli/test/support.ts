import { spawn } from "node:child_process";
import { join } from "node:path";

/** Runs the `junction` bin as a child process and collects stdout, stderr and the exit code. */

export const repo = join(import.meta.dirname, "..", "..", "..");
export const bin = join(repo, "packages", "cli", "bin", "junction.mjs");

export interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function junction(
  args: readonly string[],
  options: { env?: Record<string, string> } = {},
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: repo,
      env: { ...process.env, JUNCTION_API_KEY: "", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
