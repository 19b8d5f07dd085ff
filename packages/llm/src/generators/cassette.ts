import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ChatMessage } from "../messages/chat-message.js";
import type { StreamingChunk, StreamingChunkJSON } from "../streaming/streaming-chunk.js";
import type { AnyTool } from "../tools/tool.js";

/** The request part of a cassette entry: what the model was asked (secrets and headers removed). */
export interface CassetteRequest {
  /** The conversation: role, content and name of each message (metadata left out). */
  readonly messages: readonly unknown[];
  /** The tools offered, as the model saw them (name, description, parameters). */
  readonly tools: readonly unknown[];
  /** The run's generation kwargs, without credentials or headers. */
  readonly generation_kwargs: Readonly<Record<string, unknown>>;
}

/** One line of a cassette (JSONL). */
export interface CassetteEntry {
  /** The format version (1). */
  readonly version: 1;
  /** A SHA-256 of the canonical request JSON. */
  readonly fingerprint: string;
  readonly request: CassetteRequest;
  /** The replies, serialized. */
  readonly replies: readonly unknown[];
  /** The streamed chunks, when the call streamed; `null` otherwise. */
  readonly chunks: readonly StreamingChunkJSON[] | null;
  /** The registered type of the generator that answered (for reading the cassette; not matched on). */
  readonly generator: string;
}

/** Keys never written to a cassette, at any depth of the generation kwargs. */
const secretKey = /header|authorization|api[-_]?key|token|secret|password|cookie/i;

function stripSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!secretKey.test(key)) out[key] = stripSecrets(item);
  return out;
}

/** JSON with object keys sorted, so equal requests give equal text. */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/**
 * The request a cassette records and matches on: messages (role, content, name — not `meta`, which holds
 * timings), tool specs and the generation kwargs without credentials or headers.
 */
export function cassetteRequest(
  messages: readonly ChatMessage[],
  tools: readonly AnyTool[],
  generationKwargs: Readonly<Record<string, unknown>>,
): CassetteRequest {
  return {
    messages: messages.map((message) => {
      const { meta: _meta, ...rest } = message.toJSON();
      return JSON.parse(JSON.stringify(rest));
    }),
    tools: tools.map((tool) => JSON.parse(JSON.stringify(tool.spec))),
    generation_kwargs: stripSecrets(JSON.parse(JSON.stringify(generationKwargs))) as Record<string, unknown>,
  };
}

/** The fingerprint of a request: SHA-256 of its canonical JSON. */
export function fingerprint(request: CassetteRequest): string {
  return createHash("sha256").update(canonicalJSON(request)).digest("hex");
}

/** Appends one entry to a cassette file (creating it and its folder). */
export function appendEntry(
  path: string,
  request: CassetteRequest,
  replies: readonly ChatMessage[],
  chunks: readonly StreamingChunk[] | undefined,
  generator: string,
): CassetteEntry {
  const entry: CassetteEntry = {
    version: 1,
    fingerprint: fingerprint(request),
    request,
    replies: replies.map((reply) => JSON.parse(JSON.stringify(reply.toJSON()))),
    chunks: chunks === undefined ? null : chunks.map((chunk) => JSON.parse(JSON.stringify(chunk.toJSON()))),
    generator,
  };
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${JSON.stringify(entry)}\n`);
  return entry;
}

/** Reads every entry of a cassette file, in order. */
export function readCassette(path: string): CassetteEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      try {
        return JSON.parse(line) as CassetteEntry;
      } catch (error) {
        throw new SyntaxError(`cassette ${path}, line ${index + 1}: not JSON (${(error as Error).message}).`);
      }
    });
}

/** Where two JSON values differ: `path: recorded → now` lines (at most `limit`). */
export function diffJSON(recorded: unknown, now: unknown, limit = 8): string[] {
  const out: string[] = [];
  const show = (value: unknown) => {
    const text = JSON.stringify(value) ?? "undefined";
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const walk = (a: unknown, b: unknown, path: string) => {
    if (out.length >= limit) return;
    if (canonicalJSON(a) === canonicalJSON(b)) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let index = 0; index < Math.max(a.length, b.length); index++)
        walk(a[index], b[index], `${path}[${index}]`);
      return;
    }
    if (
      typeof a === "object" &&
      a !== null &&
      typeof b === "object" &&
      b !== null &&
      !Array.isArray(a) &&
      !Array.isArray(b)
    ) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys)
        walk(
          (a as Record<string, unknown>)[key],
          (b as Record<string, unknown>)[key],
          path === "" ? key : `${path}.${key}`,
        );
      return;
    }
    out.push(`  - ${path || "(request)"}: recorded ${show(a)}, now ${show(b)}`);
  };
  walk(recorded, now, "");
  return out;
}

/** How different two requests are (number of differing leaves, capped), to find the closest recording. */
export function distance(recorded: unknown, now: unknown): number {
  return diffJSON(recorded, now, 1000).length;
}
