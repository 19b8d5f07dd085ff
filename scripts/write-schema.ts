/**
 * Writes the published JSON Schemas, generated from the zod schemas the loaders themselves validate with:
 * docs/schema/pipeline.schema.json (`pipelineDocumentJSONSchema()` from @junction/core),
 * docs/schema/run-snapshot.schema.json (`RunSnapshot.jsonSchema()` from @junction/core) and
 * docs/schema/agent-snapshot.schema.json (`agentSnapshotJSONSchema()` from @junction/agents: the Agent's part
 * of a run snapshot).
 *
 * Usage: tsx --conditions=@junction/source scripts/write-schema.ts [--check]
 *   --check  write nothing; exit 1 when a file is missing or differs from what would be written
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { agentSnapshotJSONSchema } from "@junction/agents";
import { pipelineDocumentJSONSchema, RunSnapshot } from "@junction/core";

const root = join(import.meta.dirname, "..");
const schemas: [file: string, schema: Record<string, unknown>][] = [
  ["pipeline.schema.json", pipelineDocumentJSONSchema()],
  ["run-snapshot.schema.json", RunSnapshot.jsonSchema()],
  ["agent-snapshot.schema.json", agentSnapshotJSONSchema()],
];

let stale = false;
for (const [file, schema] of schemas) {
  const target = join(root, "docs", "schema", file);
  const text = `${JSON.stringify(schema, null, 2)}\n`;
  const shown = relative(root, target);
  if (process.argv.includes("--check")) {
    const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
    if (current !== text) {
      console.error(
        `${shown} is ${current === undefined ? "missing" : "out of date"}. Run \`pnpm schema\` and commit it.`,
      );
      stale = true;
    } else console.log(`${shown} is up to date.`);
  } else {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    console.log(`wrote ${shown}`);
  }
}
if (stale) process.exit(1);
