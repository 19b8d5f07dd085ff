/**
 * Times every entry of the hostile-expression corpus (`test/hostile/expressions.ts`): building the
 * component plus one run, in a fresh child process per entry so a runaway expression cannot hold up
 * the rest (it is killed after `--timeout` seconds, default 60).
 *
 *   tsx --conditions=@junction/source scripts/measure-hostile-expressions.ts [--timeout 60]
 */

import { spawnSync } from "node:child_process";
import { ConditionalRouter, OutputAdapter } from "@junction/components";
import { z } from "zod";
import { type ExpressionCase, expressionCases } from "../test/hostile/expressions.js";

const argv = process.argv.slice(2);
const caseIndex = argv.indexOf("--case");

async function runCase(entry: ExpressionCase): Promise<{ outcome: string; message: number }> {
  const inputs = entry.inputs();
  const expression = entry.expression();
  let component: { run(inputs: Record<string, unknown>): unknown };
  try {
    component =
      entry.site === "adapter"
        ? new OutputAdapter({ expression, outputType: z.any() })
        : new ConditionalRouter({
            routes: [
              entry.site === "condition"
                ? { condition: expression, output: "true", outputName: "out", outputType: z.any() }
                : { condition: "true", output: expression, outputName: "out", outputType: z.any() },
              { condition: "true", output: "false", outputName: "fallback", outputType: z.any() },
            ],
          });
  } catch (error) {
    return { outcome: "refused", message: (error as Error).message.length };
  }
  try {
    await component.run(inputs);
    return { outcome: "ran", message: 0 };
  } catch (error) {
    return { outcome: "failed", message: (error as Error).message.length };
  }
}

if (caseIndex >= 0) {
  const entry = expressionCases[Number(argv[caseIndex + 1])]!;
  const start = performance.now();
  const result = await runCase(entry);
  process.stdout.write(JSON.stringify({ ms: performance.now() - start, ...result }));
} else {
  const timeoutIndex = argv.indexOf("--timeout");
  const timeout = timeoutIndex >= 0 ? Number(argv[timeoutIndex + 1]) : 60;
  console.log("| case | outcome | ms | message length |\n|---|---|---|---|");
  for (const [index, entry] of expressionCases.entries()) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1]!, "--case", String(index)],
      { encoding: "utf8", timeout: timeout * 1000, maxBuffer: 1 << 20 },
    );
    if (child.error !== undefined || child.status !== 0) {
      const why =
        child.signal === "SIGTERM"
          ? `killed after ${timeout} s`
          : `crashed (${child.status ?? child.signal})`;
      console.log(`| ${entry.name} | ${why} | > ${timeout * 1000} | |`);
      continue;
    }
    const result = JSON.parse(child.stdout) as { ms: number; outcome: string; message: number };
    console.log(`| ${entry.name} | ${result.outcome} | ${result.ms.toFixed(1)} | ${result.message || ""} |`);
  }
}
