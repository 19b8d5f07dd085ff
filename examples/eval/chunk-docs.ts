/**
 * Chunks Junction's markdown docs into passages, deterministically: one passage per section (a `#`,
 * `##` or `###` heading and its text), long sections cut at paragraph boundaries into parts of at most
 * ~1,200 characters. Code fences stay whole. Each passage's id is `<file>#<heading-slug>[-<part>]`.
 *
 * Run `npx tsx examples/eval/chunk-docs.ts` to write `examples/eval/docs-passages.jsonl` (the snapshot
 * the labeled questions point into; re-label questions if the passages they cite change).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** One passage of the docs. */
export interface Passage {
  readonly id: string;
  readonly content: string;
  readonly meta: { readonly file: string; readonly heading: string };
}

const maxLength = 1200;

/** A URL-style slug of a heading. */
export function slug(heading: string): string {
  return (
    heading
      .toLowerCase()
      .replace(/[`*_[\]()]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "section"
  );
}

/** Splits text into paragraphs, keeping fenced code blocks whole. */
function paragraphs(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let inFence = false;
  for (const line of text.split("\n")) {
    if (line.trimStart().startsWith("```")) inFence = !inFence;
    if (!inFence && line.trim() === "") {
      if (current.length > 0) out.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) out.push(current.join("\n"));
  return out;
}

/** The passages of one markdown file. */
export function chunkMarkdown(text: string, file: string): Passage[] {
  const sections: { heading: string; body: string[] }[] = [];
  let inFence = false;
  let section = { heading: file.replace(/\.md$/, ""), body: [] as string[] };
  for (const line of text.split("\n")) {
    if (line.trimStart().startsWith("```")) inFence = !inFence;
    const match = inFence ? null : /^(#{1,3})\s+(.*)$/.exec(line);
    if (match) {
      sections.push(section);
      section = { heading: (match[2] ?? "").trim(), body: [] };
    } else section.body.push(line);
  }
  sections.push(section);
  const passages: Passage[] = [];
  const used = new Map<string, number>();
  for (const { heading, body } of sections) {
    const parts: string[] = [];
    let part = "";
    for (const paragraph of paragraphs(body.join("\n"))) {
      if (part !== "" && part.length + paragraph.length > maxLength) {
        parts.push(part);
        part = "";
      }
      part = part === "" ? paragraph : `${part}\n\n${paragraph}`;
    }
    if (part.trim() !== "") parts.push(part);
    const base = `${file}#${slug(heading)}`;
    parts.forEach((content, index) => {
      let id = index === 0 ? base : `${base}-${index + 1}`;
      const seen = used.get(id) ?? 0;
      used.set(id, seen + 1);
      if (seen > 0) id = `${id}~${seen + 1}`;
      passages.push({ id, content: `${heading}\n\n${content}`, meta: { file, heading } });
    });
  }
  return passages;
}

/** Every passage of the markdown files directly in `docsDir` (or only `files`), in file name order. */
export function chunkDocs(docsDir: string, files?: readonly string[]): Passage[] {
  return (files ?? readdirSync(docsDir))
    .filter((name) => name.endsWith(".md") && !name.includes("/"))
    .sort()
    .flatMap((name) => chunkMarkdown(readFileSync(join(docsDir, name), "utf8"), name));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const docs = join(here, "..", "..", "docs");
  // Only committed files, so a draft in the working tree does not slip into the snapshot.
  const tracked = execFileSync("git", ["ls-files"], { cwd: docs, encoding: "utf8" }).split("\n");
  const passages = chunkDocs(docs, tracked);
  writeFileSync(
    join(here, "docs-passages.jsonl"),
    `${passages.map((passage) => JSON.stringify(passage)).join("\n")}\n`,
  );
  process.stdout.write(`wrote ${passages.length} passages\n`);
}
