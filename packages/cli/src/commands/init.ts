import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
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

/** The Junction packages the starter imports (`@junction/cli` for the `junction` command). */
const starterPackages = [
  "@junction/agents",
  "@junction/cli",
  "@junction/components",
  "@junction/core",
  "@junction/llm",
];

function packageJSON(name: string, junction: Record<string, string>): string {
  const json = {
    name,
    private: true,
    type: "module",
    scripts: {
      start: `junction run app.ts -i 'agent.messages=[{"role":"user","content":"Weather in Paris?"}]'`,
      dev: "junction dev app.ts",
      typecheck: "tsc --noEmit",
    },
    dependencies: { ...junction, zod: "^4.6.7" },
    devDependencies: { "@types/node": "^20.19.0", typescript: "~6.0.3" },
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

const tsconfig = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2023",
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

/** The `package.json` of a package tarball (`package/package.json` inside the gzipped tar). */
function tarballManifest(file: string): { name?: string; dependencies?: Record<string, string> } {
  const tar = gunzipSync(readFileSync(file));
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const field = (start: number, length: number) =>
      tar.toString("latin1", offset + start, offset + start + length).replace(/\0.*$/s, "");
    const entry = field(0, 100);
    if (entry === "") break;
    const size = Number.parseInt(field(124, 12).trim() || "0", 8);
    if (entry === "package/package.json")
      return JSON.parse(tar.toString("utf8", offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error("no package/package.json in it");
}

/**
 * `file:` dependencies on the tarballs in `directory` for the starter's packages and every Junction
 * package they depend on (npm must find those as tarballs too, or it asks the registry).
 */
function tarballDependencies(directory: string): Record<string, string> {
  const absolute = resolve(directory);
  let files: string[];
  try {
    files = readdirSync(absolute).filter((file) => file.endsWith(".tgz"));
  } catch {
    throw new CliError(`--tarballs ${directory}: no such directory. ${howToPack}`, 2);
  }
  const byName = new Map<string, { file: string; dependencies: string[] }>();
  for (const file of files) {
    let manifest: ReturnType<typeof tarballManifest>;
    try {
      manifest = tarballManifest(join(absolute, file));
    } catch (error) {
      throw new CliError(
        `--tarballs ${directory}: ${file} is not a package tarball (${(error as Error).message}).`,
        2,
      );
    }
    if (manifest.name?.startsWith("@junction/") !== true) continue;
    const dependencies = Object.keys(manifest.dependencies ?? {}).filter((dependency) =>
      dependency.startsWith("@junction/"),
    );
    byName.set(manifest.name, { file: join(absolute, file), dependencies });
  }
  const needed = [...starterPackages];
  const result: Record<string, string> = {};
  for (let index = 0; index < needed.length; index++) {
    const name = needed[index] as string;
    const tarball = byName.get(name);
    if (tarball === undefined) {
      throw new CliError(
        `--tarballs ${directory}: no tarball of ${name} there (the starter needs it${starterPackages.includes(name) ? "" : " through another Junction package"}). ${howToPack}`,
        2,
      );
    }
    result[name] = `file:${tarball.file}`;
    for (const dependency of tarball.dependencies) if (!needed.includes(dependency)) needed.push(dependency);
  }
  return Object.fromEntries(Object.entries(result).sort(([a], [b]) => a.localeCompare(b)));
}

const howToPack =
  'Make the tarballs in a Junction checkout: npm run build, then npx -y pnpm@12.4.2 -r --filter "./packages/*" pack --pack-destination <dir>.';

/** `junction init [dir] [--tarballs <dir>]`: writes the three files; refuses to overwrite any of them. */
export async function init(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  if (positionals.length > 1) throw new CliError("name one directory: junction init [dir].", 2);
  const tarballs = values.tarballs as string | undefined;
  const junction =
    tarballs === undefined
      ? Object.fromEntries(starterPackages.map((name) => [name, "^0.1.0"]))
      : tarballDependencies(tarballs);
  const directory = resolve(positionals[0] ?? ".");
  const name =
    basename(directory)
      .toLowerCase()
      .replace(/[^a-z0-9-_.]/g, "-")
      .replace(/^[-_.]+/, "") || "junction-app";
  const files: Record<string, string> = {
    "package.json": packageJSON(name, junction),
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
  const source =
    tarballs === undefined
      ? "  The Junction packages come from the npm registry. If npm install answers 404 for @junction/*, they are\n" +
        "  not published where your npm looks: pack them from a checkout and run junction init --tarballs <dir>\n" +
        "  in a new directory (docs/getting-started.md#your-own-project).\n"
      : `  The Junction packages come from the tarballs in ${resolve(tarballs)} (file: dependencies).\n`;
  process.stdout.write(
    `junction: wrote package.json, tsconfig.json and app.ts in ${directory}\n${source}` +
      `  cd ${directory}\n  npm install\n  npm run typecheck   # npx tsc --noEmit\n  npm start           # runs app.ts offline\n  npm run dev         # the playground\n`,
  );
  return 0;
}
