import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
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

  test(
    "--tarballs: file: dependencies on the starter's packages and every Junction package they need",
    slow,
    async () => {
      const tarballs = await mkdtemp(join(tmpdir(), "junction-tarballs-"));
      made.push(tarballs);
      const manifests: Record<string, string[]> = {
        core: [],
        llm: ["core"],
        agents: ["core", "llm"],
        components: ["core"],
        cli: ["core", "serve"],
        serve: ["core", "llm"],
        otel: ["core"],
      };
      for (const [name, dependencies] of Object.entries(manifests)) {
        const manifest = {
          name: `@junction/${name}`,
          version: "0.1.0",
          dependencies: Object.fromEntries(
            dependencies.map((dependency) => [`@junction/${dependency}`, "0.1.0"]),
          ),
        };
        await writeFile(join(tarballs, `junction-${name}-0.1.0.tgz`), packageTarball(manifest));
      }
      const directory = await project();
      const result = await junction(["init", directory, "--tarballs", tarballs]);
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain(`come from the tarballs in ${tarballs}`);
      const pkg = JSON.parse(await readFile(join(directory, "package.json"), "utf8"));
      // @junction/serve comes in through the cli; @junction/otel is not needed.
      expect(pkg.dependencies).toEqual({
        "@junction/agents": `file:${join(tarballs, "junction-agents-0.1.0.tgz")}`,
        "@junction/cli": `file:${join(tarballs, "junction-cli-0.1.0.tgz")}`,
        "@junction/components": `file:${join(tarballs, "junction-components-0.1.0.tgz")}`,
        "@junction/core": `file:${join(tarballs, "junction-core-0.1.0.tgz")}`,
        "@junction/llm": `file:${join(tarballs, "junction-llm-0.1.0.tgz")}`,
        "@junction/serve": `file:${join(tarballs, "junction-serve-0.1.0.tgz")}`,
        zod: "^4.6.7",
      });

      // A missing tarball is named, with how to make them, and nothing is written.
      await rm(join(tarballs, "junction-serve-0.1.0.tgz"));
      const other = await project();
      const missing = await junction(["init", other, "--tarballs", tarballs]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("no tarball of @junction/serve there");
      expect(missing.stderr).toContain("--pack-destination");
      await expect(readFile(join(other, "package.json"), "utf8")).rejects.toThrow();
    },
  );

  test("without --tarballs, says what to do when npm cannot find the packages", slow, async () => {
    const directory = await project();
    const result = await junction(["init", directory]);
    expect(result.stdout).toContain("junction init --tarballs <dir>");
  });
});

/** A gzipped tar holding `package/package.json`, as `npm pack` / `pnpm pack` write it. */
function packageTarball(manifest: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(manifest));
  const header = Buffer.alloc(512);
  header.write("package/package.json", 0, "latin1");
  header.write("0000644\0", 100, "latin1");
  header.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124, "latin1");
  header.write("0", 156, "latin1");
  header.write("ustar\0", 257, "latin1");
  const padding = Buffer.alloc((512 - (body.length % 512)) % 512);
  return gzipSync(Buffer.concat([header, body, padding, Buffer.alloc(1024)]));
}
