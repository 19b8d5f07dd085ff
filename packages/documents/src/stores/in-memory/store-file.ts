import { readFileSync } from "node:fs";
import { open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Document } from "../../document/document.js";
import { StoreFileError } from "./in-memory-errors.js";

/**
 * The file `InMemoryDocumentStore.save` writes: Haystack's `save_to_disk` shape (the store's
 * `{ type, init_parameters }` plus `documents` in `to_dict(flatten=False)` form) with a `version`.
 */
export interface StoreFileJSON {
  readonly version: 1;
  readonly type: string;
  readonly init_parameters: Record<string, unknown>;
  readonly documents: readonly Record<string, unknown>[];
}

/** The type name written in store files (and store documents). */
export const inMemoryStoreType = "junction.InMemoryDocumentStore";

/** Haystack's `Document.to_dict(flatten=False)`: meta under `meta`, so no meta key can shadow a field. */
export function documentToNestedJSON(document: Document): Record<string, unknown> {
  return {
    id: document.id,
    content: document.content ?? null,
    blob: document.blob?.toJSON() ?? null,
    meta: document.meta,
    score: document.score ?? null,
    embedding: document.embedding === undefined ? null : [...document.embedding],
    sparse_embedding: document.sparseEmbedding?.toJSON() ?? null,
  };
}

/** The file's text. */
export function storeFileText(
  initParameters: Record<string, unknown>,
  documents: Iterable<Document>,
): string {
  const docs: Record<string, unknown>[] = [];
  for (const document of documents) docs.push(documentToNestedJSON(document));
  const file: StoreFileJSON = {
    version: 1,
    type: inMemoryStoreType,
    init_parameters: initParameters,
    documents: docs,
  };
  return JSON.stringify(file);
}

let temporaryCounter = 0;

/** A temporary file older than this was left by a process killed mid-save: no save takes this long. */
const staleTemporaryMs = 10 * 60_000;

/**
 * Removes the temporary files of `path` (`.<name>.<pid>.<n>.tmp`) that a process killed mid-save left
 * behind, once they are older than ten minutes (a younger one may be another process's save in
 * progress). Each can be as large as the store, so a crash-looping service would otherwise fill the disk.
 */
async function removeStaleTemporaries(path: string): Promise<void> {
  const directory = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+\.\d+\.tmp$/.test(name.slice(prefix.length))) continue;
    const temporary = join(directory, name);
    const info = await stat(temporary).catch(() => undefined);
    if (info !== undefined && now - info.mtimeMs > staleTemporaryMs)
      await unlink(temporary).catch(() => undefined);
  }
}

/**
 * Writes `text` to `path` atomically: a temporary file in the same directory is written and flushed to
 * disk (fsync), then renamed over `path`, so a crash leaves either the old file or the new one, never a
 * torn one. The directory is flushed too where the platform allows it. Temporary files a killed save
 * left beside `path` are removed once they are stale.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await removeStaleTemporaries(path);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${++temporaryCounter}.tmp`);
  try {
    const handle = await open(temporary, "w");
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new StoreFileError(
      `InMemoryDocumentStore.save: cannot write "${path}" (${(error as Error).message}). Check that the directory exists and is writable.`,
      path,
      error,
    );
  }
  try {
    const directory = await open(dirname(path), "r");
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  } catch {
    // Some platforms (Windows) cannot open or flush a directory; the rename is still atomic there.
  }
}

/** What a store file holds, checked. */
export interface StoreFileContents {
  readonly initParameters: Record<string, unknown>;
  readonly documents: Document[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks a parsed store file and builds its documents. */
export function parseStoreFile(text: string, path: string): StoreFileContents {
  const where = `InMemoryDocumentStore: "${path}"`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StoreFileError(
      `${where} is not a whole JSON file (${(error as Error).message}): it is cut short or damaged. InMemoryDocumentStore.save replaces the file atomically, so a crash during a save cannot leave it so; something else wrote or cut it. Restore it from a backup, or delete it to start with an empty store.`,
      path,
      error,
    );
  }
  if (!isRecord(json) || json.type !== inMemoryStoreType || !Array.isArray(json.documents)) {
    throw new StoreFileError(
      `${where} is not an InMemoryDocumentStore file (expected { version: 1, type: "${inMemoryStoreType}", init_parameters, documents }).`,
      path,
    );
  }
  if (json.version !== 1) {
    throw new StoreFileError(
      `${where} has version ${JSON.stringify(json.version)}; this Junction reads version 1. Upgrade @junction/documents.`,
      path,
    );
  }
  const documents: Document[] = [];
  json.documents.forEach((entry, index) => {
    try {
      documents.push(Document.fromJSON(entry));
    } catch (error) {
      throw new StoreFileError(
        `${where}: documents[${index}] is not a document (${(error as Error).message}).`,
        path,
        error,
      );
    }
  });
  return { initParameters: isRecord(json.init_parameters) ? json.init_parameters : {}, documents };
}

function readError(path: string, error: unknown): StoreFileError {
  const code = (error as { code?: unknown }).code;
  const why = code === "ENOENT" ? "does not exist" : `cannot be read (${(error as Error).message})`;
  return new StoreFileError(`InMemoryDocumentStore: "${path}" ${why}.`, path, error);
}

/** Reads and checks a store file. */
export async function readStoreFile(path: string): Promise<StoreFileContents> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw readError(path, error);
  }
  return parseStoreFile(text, path);
}

/** Reads and checks a store file synchronously; `undefined` when it does not exist. */
export function readStoreFileSync(path: string): StoreFileContents | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw readError(path, error);
  }
  return parseStoreFile(text, path);
}
