/**
 * Type-checks every ```ts code block in README.md and docs/**.md against the real packages, so the
 * documentation cannot drift from the API. Blocks fenced as ```ts nocheck are skipped (use it only for
 * deliberately partial fragments). Each block is compiled as its own module. It also checks that
 * docs/haystack-users.md lists nothing as "not available" that a package exports.
 *
 * Usage: tsx scripts/check-docs.ts
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const outDir = join(root, ".docs-check");

function markdownFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== "api" && entry !== "node_modules") files.push(...markdownFiles(path));
    } else if (entry.endsWith(".md")) files.push(path);
  }
  return files;
}

const sources = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const origins = new Map<string, string>();
let count = 0;
for (const file of sources) {
  const lines = readFileSync(file, "utf8").split("\n");
  let block: string[] | undefined;
  let startLine = 0;
  lines.forEach((line, index) => {
    const fence = line.trim();
    if (block === undefined) {
      if (/^```(ts|typescript)\s*$/.test(fence)) {
        block = [];
        startLine = index + 1;
      }
      return;
    }
    if (fence === "```") {
      count += 1;
      const name = `${relative(root, file).replace(/[^a-zA-Z0-9]+/g, "_")}_L${startLine}.ts`;
      writeFileSync(join(outDir, name), `${block.join("\n")}\nexport {};\n`);
      origins.set(name, `${relative(root, file)}:${startLine}`);
      block = undefined;
      return;
    }
    block.push(line);
  });
}

/**
 * The names every package exports, read from each `packages/<name>/src/index.ts` (its `export { … }`
 * and `export type { … }` lists), so a page can be compared with what really exists.
 */
function exportedNames(): Map<string, string> {
  const names = new Map<string, string>();
  const packagesDir = join(root, "packages");
  for (const name of readdirSync(packagesDir)) {
    let text: string;
    try {
      text = readFileSync(join(packagesDir, name, "src", "index.ts"), "utf8");
    } catch {
      continue;
    }
    for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
      for (const part of (match[1] ?? "").split(",")) {
        const exported = part
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)
          .pop()
          ?.trim();
        if (exported) names.set(exported, `@junction/${name}`);
      }
    }
  }
  return names;
}

/**
 * The first paragraph of docs/haystack-users.md's "Not available" section must not list what a package exports (it once
 * listed SuperComponent, PipelineTool, AgentTool and snapshots long after they existed).
 */
function checkNotAvailable(): string[] {
  const page = readFileSync(join(root, "docs", "haystack-users.md"), "utf8");
  const start = page.indexOf("### Not available");
  if (start === -1) return [];
  // The heading and the paragraph after it: the list of names.
  const end = page.indexOf("\n\n", page.indexOf("\n\n", start) + 2);
  const section = page.slice(start, end === -1 ? undefined : end);
  const exported = exportedNames();
  const problems: string[] = [];
  for (const match of section.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)) {
    const name = match[1] ?? "";
    const owner = exported.get(name);
    if (owner !== undefined) {
      problems.push(
        `docs/haystack-users.md lists \`${name}\` as not available, but ${owner} exports it: move it to the mapping tables.`,
      );
    }
  }
  return problems;
}

const notAvailable = checkNotAvailable();
if (notAvailable.length > 0) {
  process.stderr.write(`docs: ${notAvailable.join("\n")}\n`);
  process.exitCode = 1;
}

if (count === 0) {
  process.stdout.write("docs: no code blocks to check\n");
  process.exit(0);
}

writeFileSync(
  join(outDir, "tsconfig.json"),
  JSON.stringify({
    extends: "../tsconfig.base.json",
    compilerOptions: { noEmit: true, noUnusedLocals: false },
    include: ["./*.ts"],
  }),
);

try {
  execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", join(outDir, "tsconfig.json")], { stdio: "pipe" });
  process.stdout.write(`docs: ${count} code blocks type-check\n`);
} catch (error) {
  const output = String((error as { stdout?: Buffer }).stdout ?? error);
  const mapped = output.replace(
    /\.docs-check\/([^(]+\.ts)\((\d+),(\d+)\)/g,
    (_match, name: string, line: string) => {
      return `${origins.get(name) ?? name} (block line ${line})`;
    },
  );
  process.stderr.write(`docs: code blocks fail to type-check:\n${mapped}\n`);
  process.exitCode = 1;
}
