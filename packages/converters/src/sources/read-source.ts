import { open, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { quoteExcerpt } from "@junction/core";
import { ByteStream } from "@junction/documents";
import { ConversionError, type ConversionFailureReason } from "../errors.js";
import type { Source } from "./socket-schemas.js";
import type { SourceParams } from "./source-params.js";

/** What {@link readSource} needs besides the source. */
export interface ReadSourceOptions {
  /** The component as messages name it (`"pdf" (junction.PDFToDocument)`). */
  readonly label: string;
  /** The shared options. */
  readonly params: SourceParams;
  /** Aborts reading. */
  readonly signal: AbortSignal | undefined;
}

/** How messages name a source: its path, or `ByteStream #i` with its file path or URL. */
export function describeSource(source: Source, index: number): string {
  if (typeof source === "string") return quoteExcerpt(source);
  const origin = source.meta.file_path ?? source.meta.url;
  return typeof origin === "string"
    ? `ByteStream #${index} (${quoteExcerpt(origin)})`
    : `ByteStream #${index}`;
}

const schemePattern = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * Turns a source into a `ByteStream`: a `ByteStream` as it is (checked against `maxFileBytes`), a path
 * read from disk with `meta.file_path` set to the path as given (Haystack's `get_bytestream_from_source`).
 *
 * @throws ConversionError naming the source and the reason (`invalid_input` for URLs, which no retry fixes)
 */
export async function readSource(
  source: Source,
  index: number,
  options: ReadSourceOptions,
): Promise<ByteStream> {
  const described = describeSource(source, index);
  const fail = (reason: ConversionFailureReason, why: string, cause?: unknown) =>
    new ConversionError(`${options.label}: ${described} ${why}`, { reason, source: described, cause });
  if (typeof source !== "string") {
    if (source.data.byteLength > options.params.maxFileBytes) {
      throw fail("too_large", tooLarge(source.data.byteLength, options.params.maxFileBytes));
    }
    return source;
  }
  const path = toPath(source, fail);
  const fullPath = await checkBaseDirectory(path, options.params.baseDirectory, fail);
  const data = await readFileCapped(fullPath, options.params.maxFileBytes, options.signal, fail);
  return new ByteStream(data, { meta: { file_path: source } });
}

type Fail = (reason: ConversionFailureReason, why: string, cause?: unknown) => ConversionError;

function tooLarge(size: number, max: number): string {
  return `is ${size} bytes, over maxFileBytes (${max}). Raise the converter's maxFileBytes option or split the file.`;
}

function toPath(source: string, fail: Fail): string {
  const scheme = schemePattern.exec(source)?.[1]?.toLowerCase();
  if (scheme === undefined) return source;
  if (scheme === "file") {
    try {
      return fileURLToPath(source);
    } catch (error) {
      throw fail("invalid_input", "is not a valid file: URL.", error);
    }
  }
  if (scheme === "http" || scheme === "https") {
    throw fail(
      "invalid_input",
      "is a web address; converters read files and ByteStreams only. Fetch it first: connect LinkContentFetcher's `streams` to this converter's `sources`.",
    );
  }
  throw fail("invalid_input", `has the unsupported scheme "${scheme}:"; give a file path or a ByteStream.`);
}

async function checkBaseDirectory(
  path: string,
  baseDirectory: string | undefined,
  fail: Fail,
): Promise<string> {
  if (baseDirectory === undefined) return path;
  const base = await realpath(baseDirectory).catch((error: unknown) => {
    throw fail(
      "unreadable",
      `cannot be read: baseDirectory ${quoteExcerpt(baseDirectory)} does not exist.`,
      error,
    );
  });
  const target = resolve(base, path);
  const real = await realpath(target).catch(() => target);
  const inside = relative(base, real);
  if (inside.startsWith("..") || isAbsolute(inside)) {
    throw fail(
      "outside_base_directory",
      `is outside baseDirectory ${quoteExcerpt(baseDirectory)}; only files inside it can be converted.`,
    );
  }
  return real;
}

async function readFileCapped(
  path: string,
  maxBytes: number,
  signal: AbortSignal | undefined,
  fail: Fail,
): Promise<Uint8Array> {
  const info = await stat(path).catch((error: unknown) => {
    throw fileError(error, fail);
  });
  if (!info.isFile()) throw fail("unreadable", "is not a regular file.");
  if (info.size > maxBytes) throw fail("too_large", tooLarge(info.size, maxBytes));
  const handle = await open(path, "r").catch((error: unknown) => {
    throw fileError(error, fail);
  });
  try {
    // Read until the end of the file, stopping past maxBytes: a file that grew after `stat` is caught.
    const chunks: Uint8Array[] = [];
    let length = 0;
    let chunkSize = Math.min(info.size, maxBytes) + 1;
    for (;;) {
      signal?.throwIfAborted();
      const chunk = new Uint8Array(chunkSize);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, length);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > maxBytes) throw fail("too_large", tooLarge(length, maxBytes));
      chunkSize = 64 * 1024;
    }
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, length);
  } catch (error) {
    if (error instanceof ConversionError || signal?.aborted) throw error;
    throw fileError(error, fail);
  } finally {
    await handle.close();
  }
}

function fileError(error: unknown, fail: Fail): ConversionError {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return fail("not_found", "does not exist.", error);
  if (code === "EACCES" || code === "EPERM")
    return fail("unreadable", "cannot be read (permission denied).", error);
  if (code === "EISDIR") return fail("unreadable", "is a directory, not a file.", error);
  const message = error instanceof Error ? error.message : String(error);
  return fail("unreadable", `cannot be read (${message}).`, error);
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
