import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { bin, repo } from "./support.js";

/**
 * Ctrl-C in a terminal sends SIGINT to the whole process group: the `junction` launcher and the process
 * it starts both receive it. `junction serve` must stop with exit 0 every time, not only when the
 * signals happen to arrive in a lucky order.
 */

const slow = { timeout: 120_000 };

function serveAndSignalGroup(signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve, reject) => {
    // detached: the launcher leads a process group of its own, as a shell's foreground job does.
    const child = spawn(process.execPath, [bin, "serve", "examples/serve/hello.yaml", "--port", "0"], {
      cwd: repo,
      detached: true,
      env: { ...process.env, JUNCTION_API_KEY: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let signalled = false;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!signalled && stdout.includes("serving")) {
        signalled = true;
        // A moment later, as a person pressing Ctrl-C would (the server is idle, listening).
        setTimeout(() => process.kill(-(child.pid as number), signal), 300);
      }
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("exit", (code, by) => resolve(code ?? (by === null ? null : -1)));
  });
}

describe("junction serve stops with exit 0 on a signal to its process group", () => {
  test.each(["SIGINT", "SIGTERM"] as const)("%s, several times in a row", slow, async (signal) => {
    const codes: (number | null)[] = [];
    for (let round = 0; round < 4; round += 1) codes.push(await serveAndSignalGroup(signal));
    expect(codes).toEqual([0, 0, 0, 0]);
  });
});
