/**
 * Type-checks every ```ts code block in README.md and docs/**.md against the real packages, so the
 * documentation cannot drift from the API. Blocks fenced as ```ts nocheck are skipped (use it only for
 * deliberately partial fragments). Each block is compiled as its own module.
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
