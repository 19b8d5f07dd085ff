/**
 * Writes the JSON Schema of the pipeline document to docs/schema/pipeline.schema.json, generated from the
 * zod schema the loader itself validates with (`pipelineDocumentJSONSchema()` from @junction/core).
 *
 * Usage: tsx --conditions=@junction/source scripts/write-schema.ts [--check]
 *   --check  write nothing; exit 1 when the file is missing or differs from what would be written
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { pipelineDocumentJSONSchema } from "@junction/core";

const root = join(import.meta.dirname, "..");
const target = join(root, "docs", "schema", "pipeline.schema.json");
const text = `${JSON.stringify(pipelineDocumentJSONSchema(), null, 2)}\n`;
const shown = relative(root, target);

if (process.argv.includes("--check")) {
  const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
  if (current !== text) {
    console.error(
      `${shown} is ${current === undefined ? "missing" : "out of date"}. Run \`pnpm schema\` and commit it.`,
    );
    process.exit(1);
  }
  console.log(`${shown} is up to date.`);
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${shown}`);
}
