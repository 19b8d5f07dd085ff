import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { CliError } from "../load.js";

/**
 * `junction init [dir]`: a project of your own that type-checks and runs offline — `package.json`,
 * `tsconfig.json` (so `npx tsc --noEmit` checks your files, with no file names on the command line) and
 * `app.ts`, a starter pipeline with an agent and a router built with the typed builder.
 */

/** The starter pipeline (`app.ts`). */
export const starterPipeline = `import { Agent } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { Pipeline } from "@junction/core";
import { ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";

/**
 * A starter pipeline: an agent that calls a tool, and a router that checks how the agent stopped.
 * It runs offline (a scripted model); swap in OpenAIChatGenerator from @junction/openai for a real one.
 *
 *   npx junction run app.ts -i 'agent.messages=[{"role":"user","content":"Weather in Paris?"}]'
 *   npx tsc --noEmit
 */

const weather = tool({
  name: "weather",
  description: "The weather in a city.",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => \`Sunny in \${city}.\`,
});

const agent = new Agent({
  chatGenerator: new ScriptedChatGenerator({
    respond: (messages) =>
      messages.some((message) => message.role === "tool")
        ? "It is sunny in Paris."
        : { toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] },
  }),
  tools: [weather],
  systemPrompt: "You answer weather questions.",
});

const check = new ConditionalRouter({
  routes: [
    { condition: "exit_reason == 'text'", output: "step_count", outputName: "answered_in_steps", outputType: z.number() },
    { condition: "true", output: "exit_reason", outputName: "stopped_because", outputType: z.string() },
  ],
  variableTypes: { exit_reason: z.string(), step_count: z.number() },
});

// The builder checks each connection's socket names and types as you type.
export default Pipeline.builder()
  .add("agent", agent)
  .add("check", check)
  .connect("agent.exit_reason", "check.exit_reason")
  .connect("agent.step_count", "check.step_count")
  .build();
`;

function packageJSON(name: string): string {
  const json = {
    name,
    private: true,
    type: "module",
    scripts: {
      start: `junction run app.ts -i 'agent.messages=[{"role":"user","content":"Weather in Paris?"}]'`,
      dev: "junction dev app.ts",
      typecheck: "tsc --noEmit",
    },
    dependencies: {
      "@junction/agents": "^0.1.0",
      "@junction/cli": "^0.1.0",
      "@junction/components": "^0.1.0",
      "@junction/core": "^0.1.0",
      "@junction/llm": "^0.1.0",
      zod: "^4.6.7",
    },
    devDependencies: { "@types/node": "^20.19.0", typescript: "~6.0.3" },
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

const tsconfig = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
    },
    include: ["**/*.ts"],
    exclude: ["node_modules"],
  },
  null,
  2,
)}\n`;

/** `junction init [dir]`: writes the three files; refuses to overwrite any of them. */
export async function init(_values: Record<string, unknown>, positionals: string[]): Promise<number> {
  if (positionals.length > 1) throw new CliError("name one directory: junction init [dir].", 2);
  const directory = resolve(positionals[0] ?? ".");
  const name =
    basename(directory)
      .toLowerCase()
      .replace(/[^a-z0-9-_.]/g, "-")
      .replace(/^[-_.]+/, "") || "junction-app";
  const files: Record<string, string> = {
    "package.json": packageJSON(name),
    "tsconfig.json": tsconfig,
    "app.ts": starterPipeline,
  };
  const existing = Object.keys(files).filter((file) => existsSync(join(directory, file)));
  if (existing.length > 0) {
    throw new CliError(
      `${directory} already has ${existing.map((file) => `"${file}"`).join(", ")}; nothing was written. Run junction init in an empty directory, or name a new one: junction init my-app.`,
    );
  }
  mkdirSync(directory, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(directory, file), text);
  process.stdout.write(
    `junction: wrote package.json, tsconfig.json and app.ts in ${directory}\n` +
      `  npm install\n  npm run typecheck   # npx tsc --noEmit\n  npm start           # runs app.ts offline\n  npm run dev         # the playground\n`,
  );
  return 0;
}
