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
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal === "SIGINT" ? 130 : 1);
  });
}
