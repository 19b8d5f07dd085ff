import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { junction, repo } from "./support.js";

/** `junction init`: a project of one's own that type-checks with `tsc --noEmit` and runs offline. */

const slow = { timeout: 120_000 };
const made: string[] = [];

afterAll(async () => {
  for (const directory of made) await rm(directory, { recursive: true, force: true });
});

async function project(): Promise<string> {
  // Inside the repository, so `@junction/*` resolve to the workspace packages as an install would.
  const directory = await mkdtemp(join(repo, ".junction-init-test-"));
  made.push(directory);
  return directory;
}

describe("junction init", () => {
  test("writes package.json, tsconfig.json and app.ts, and refuses to overwrite them", slow, async () => {
    const directory = await project();
    const first = await junction(["init", directory]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("wrote package.json, tsconfig.json and app.ts");
    const pkg = JSON.parse(await readFile(join(directory, "package.json"), "utf8"));
    expect(pkg.type).toBe("module");
    expect(pkg.scripts.typecheck).toBe("tsc --noEmit");
    expect(Object.keys(pkg.dependencies)).toEqual(
      expect.arrayContaining([
        "@junction/agents",
        "@junction/components",
        "@junction/core",
        "@junction/llm",
        "zod",
      ]),
    );
    const again = await junction(["init", directory]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("nothing was written");
  });

  test("the starter type-checks with its tsconfig and runs offline: agent, tool, router", slow, async () => {
    const directory = await project();
    expect((await junction(["init", directory])).code).toBe(0);
    // tsc with the project's own tsconfig (the source condition stands in for the installed dist/).
    const tsc = join(repo, "node_modules", ".bin", "tsc");
    const output = await promisify(execFile)(
      tsc,
      ["-p", join(directory, "tsconfig.json"), "--customConditions", "@junction/source"],
      { cwd: directory },
    ).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => error.stdout ?? "",
    );
    expect(output.split("\n").filter((line) => line.startsWith("app.ts"))).toEqual([]);

    const run = await junction([
      "run",
      join(directory, "app.ts"),
      "--json",
      "-i",
      'agent.messages=[{"role":"user","content":"Weather in Paris?"}]',
    ]);
    expect(run.stderr).toBe("");
    const { outputs } = JSON.parse(run.stdout);
    expect(outputs.check).toEqual({ answered_in_steps: 2 });
    expect(outputs.agent.last_message.content[0].text).toBe("It is sunny in Paris.");
  });
});
