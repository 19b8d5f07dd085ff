import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, test } from "vitest";
import { bin, junction, repo } from "./support.js";

const hello = "examples/serve/hello.yaml";
const slow = { timeout: 240_000 };

describe("junction as a child process", { concurrent: true }, () => {
  test(
    "--help on the command and on every verb; unknown verbs and flags are usage errors (exit 2)",
    slow,
    async () => {
      const help = await junction(["--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("Usage: junction <verb> [options]");
      expect(help.stdout).toContain("Exit codes:");
      const verb = await junction(["serve", "--help"]);
      expect(verb.code).toBe(0);
      expect(verb.stdout).toContain("junction serve <files|dir>...");
      const unknown = await junction(["deploy", "x"]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('junction: unknown verb "deploy"');
      const flag = await junction(["run", hello, "--bogus"]);
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain("--bogus");
    },
  );

  test("run: declared inputs in, outputs out as JSON; plain output when not a TTY", slow, async () => {
    const result = await junction(["run", hello, "--input", "question=What is Junction?", "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as {
      outputs: { answer: { content: { text: string }[] }[] };
      never_ran: [];
    };
    expect(answer.outputs.answer[0]?.content[0]?.text).toContain("Hello from Junction!");
    expect(answer.never_ran).toEqual([]);
  });

  test("run --stream prints the streamed text; invalid inputs exit 1 naming the problem", slow, async () => {
    const streamed = await junction(["run", hello, "-i", "question=Hi", "--stream"]);
    expect(streamed.code).toBe(0);
    expect(streamed.stdout.startsWith("Hello from Junction!")).toBe(true);
    const invalid = await junction(["run", hello, "--input", "questoin=Hi"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('unknown input "questoin". Inputs: "question".');
  });

  test("validate lists every problem and exits 1; a valid document exits 0", slow, async () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-cli-"));
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        version: 1,
        components: {
          a: { type: "nope.Missing" },
          b: { type: "junction.ScriptedChatGenerator", init_parameters: { script: 3 } },
        },
        connections: [{ sender: "a.x", receiver: "c.y" }],
      }),
    );
    const invalid = await junction(["validate", bad]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("invalid (");
    expect(invalid.stderr).toContain('components.a.type: unknown component type "nope.Missing"');
    expect(invalid.stderr).toContain("components.b.init_parameters.script");
    expect(invalid.stderr).toContain('unknown component "c"');
    const valid = await junction(["validate", hello]);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toBe(`${hello}: valid (2 components, 1 connection)\n`);
  });

  test(
    "draw prints mermaid; schema prints the request/response schemas and --openapi the server's",
    slow,
    async () => {
      const drawn = await junction(["draw", hello]);
      expect(drawn.code).toBe(0);
      expect(drawn.stdout).toMatch(/^flowchart/);
      const schema = await junction(["schema", hello]);
      expect(JSON.parse(schema.stdout).input).toEqual({
        type: "object",
        properties: { question: {} },
        required: ["question"],
        additionalProperties: false,
      });
      const openapi = await junction(["schema", "--openapi", hello]);
      expect(Object.keys(JSON.parse(openapi.stdout).paths)).toContain("/pipelines/hello/run");
    },
  );

  test("--registry loads custom components from a module", slow, async () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-cli-"));
    const registry = "packages/cli/test/fixtures/registry.ts";
    const doc = join(dir, "shout.json");
    writeFileSync(doc, JSON.stringify({ version: 1, components: { shout: { type: "cli_test.Shout" } } }));
    const result = await junction(["run", doc, "--registry", registry, "-i", "shout.text=hey", "--json"]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout).outputs).toEqual({ shout: { text: "HEY" } });
  });

  test(
    "serve: a directory of documents over HTTP on loopback; SIGTERM stops it with exit 0",
    slow,
    async () => {
      const child = spawn(process.execPath, [bin, "serve", "examples/serve", "--port", "0"], {
        cwd: repo,
        env: { ...process.env, JUNCTION_API_KEY: "cli-key" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (match?.[1]) resolve(match[1]);
        });
        child.on("exit", () => reject(new Error(`exited before serving: ${stdout}`)));
      });
      expect(stdout).toContain('serving "assistant", "hello"');
      const refused = await fetch(`${url}/pipelines/hello/run`, { method: "POST", body: "{}" });
      expect(refused.status).toBe(401);
      const response = await fetch(`${url}/pipelines/hello/run`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer cli-key" },
        body: JSON.stringify({ question: "Hi" }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { outputs: { answer: { content: { text: string }[] }[] } };
      expect(body.outputs.answer[0]?.content[0]?.text).toContain("Hello from Junction!");
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    },
  );

  test("mcp: the MCP SDK's stdio client lists and calls the pipelines", slow, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "examples/serve"],
      cwd: repo,
      stderr: "pipe",
    });
    const client = new Client({ name: "cli-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["assistant", "hello"]);
      const result = await client.callTool({
        name: "assistant",
        arguments: { messages: [{ role: "user", content: [{ text: "Who are you?" }] }] },
      });
      const outputs = result.structuredContent as { last_message: { content: { text: string }[] } };
      expect(outputs.last_message.content[0]?.text).toBe(
        "I am a Junction agent served over HTTP. Ask me anything!",
      );
    } finally {
      await client.close();
    }
  });
});
