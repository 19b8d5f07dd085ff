import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import { dirname, join } from "node:path";

/**
 * File-writing primitives for embedded stores (run snapshots, conversations): every write is durable
 * (fsynced file and directory) and atomic (readers never see half a file), and several processes may
 * share one directory.
 */

function tempPath(path: string): string {
  return join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
}

async function writeSynced(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Fsyncs a directory, so a file created or renamed in it survives a crash. */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Some platforms cannot open or fsync directories; the file itself was fsynced.
  } finally {
    await handle?.close();
  }
}

/**
 * Creates `path` with `data` only if it does not exist yet: the data goes to a temporary file that is
 * fsynced, then hard-linked to `path` (which fails when `path` exists). Of several processes racing for
 * one path exactly one wins, and nobody ever sees a partial file.
 *
 * @returns `true` when this call created the file, `false` when it already existed
 */
export async function createFileExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
  const temp = tempPath(path);
  await writeSynced(temp, data);
  try {
    await fs.link(temp, path);
    await fsyncDirectory(dirname(path));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** Replaces `path` atomically and durably (temp file, fsync, rename, directory fsync). */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = tempPath(path);
  try {
    await writeSynced(temp, data);
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await fsyncDirectory(dirname(path));
}

/**
 * Appends one line (a newline is added) and fsyncs. A crash can leave at most a torn last line, which
 * {@link readDurableLines} drops.
 */
export async function appendDurable(path: string, line: string): Promise<void> {
  if (line.includes("\n")) throw new TypeError("appendDurable: a line must not contain a newline.");
  const handle = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, 0o600);
  try {
    await handle.write(`${line}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The complete lines of a file written by {@link appendDurable} (`[]` when it does not exist). */
export async function readDurableLines(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const lines = text.split("\n");
  lines.pop(); // the part after the last newline: empty, or a torn write
  return lines.filter((line) => line !== "");
}

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** A lock older than this is taken over (its holder is presumed dead). Default 30 s. */
  readonly staleMs?: number | undefined;
  /** Give up after this long. Default 10 s. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Runs `fn` while holding an exclusive lock file at `path` (created with O_EXCL), across processes.
 *
 * @throws Error when the lock cannot be taken within `timeoutMs`
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
    try {
      const handle = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      await handle.writeFile(`${process.pid} ${Date.now()}`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const stat = await fs.stat(path).catch(() => undefined);
      if (stat !== undefined && Date.now() - stat.mtimeMs > staleMs) {
        await fs.rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`withFileLock: could not lock "${path}" in time.`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(path, { force: true });
  }
}
