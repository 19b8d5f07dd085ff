import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { junction } from "./support.js";

/** `junction run -i`: an input given without its component says how to write it, before anything runs. */

const slow = { timeout: 60_000 };
let directory = "";
let file = "";

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "junction-inputs-"));
  file = join(directory, "prompt.yaml");
  await writeFile(
    file,
    [
      "version: 1",
      "components:",
      "  prompt:",
      "    type: junction.PromptBuilder",
      "    init_parameters:",
      '      template: "Q: {{ question }}"',
      "connections: []",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("junction run --input on a pipeline without declared inputs", () => {
  test("a socket name without its component names the component.socket to write", slow, async () => {
    const result = await junction(["run", file, "-i", "question=Hi"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--input question:");
    expect(result.stderr).toContain("write -i prompt.question=…");
    expect(result.stdout).toBe("");
  });

  test("an unknown name lists the inputs there are", slow, async () => {
    const result = await junction(["run", file, "-i", "nope=1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has no input or component named "nope"');
    expect(result.stderr).toContain("prompt.question");
  });

  test("component.socket runs", slow, async () => {
    const result = await junction(["run", file, "--json", "-i", "prompt.question=Hi"]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout).outputs).toEqual({ prompt: { prompt: "Q: Hi" } });
  });
});
