#!/usr/bin/env node
// The `junction` command. A published install runs the compiled dist/; inside the Junction repository
// (no build) it runs the TypeScript sources through tsx with the @junction/source condition.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const compiled = join(root, "dist", "main.js");

if (existsSync(compiled)) {
  const { main } = await import(pathToFileURL(compiled).href);
  process.exitCode = await main(process.argv.slice(2));
} else {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const child = spawn(
    process.execPath,
    [
      "--conditions=@junction/source",
      "--import",
      loader,
      join(root, "src", "bin.ts"),
      ...process.argv.slice(2),
    ],
    { stdio: "inherit" },
  );
  // A signal sent to the process group (Ctrl-C in a terminal, `kill -- -<pgid>`) reaches the child too:
  // forwarding it as well would deliver it twice. So a signal is forwarded only when the child is still
  // running a moment later (it was sent to this process alone), and once.
  const forwarded = new Set();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      if (forwarded.has(signal)) return;
      forwarded.add(signal);
      setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      }, 500).unref();
    });
  }
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal === "SIGINT" ? 130 : 1);
  });
}
