import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { runIdPattern } from "../run/snapshot-schema.js";

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

/** Temporary files older than this are left over from a crash: no write takes this long. */
const staleTempMs = 10 * 60_000;

/**
 * Removes the temporary files a process killed mid-write left in `dir` (older than ten minutes, so a
 * write in progress in another process is never touched). Readers ignore them anyway; this only keeps
 * a long-lived directory from collecting them.
 */
export async function removeStaleTemps(dir: string, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(".tmp-")) continue;
    const path = join(dir, name);
    const stat = await fs.stat(path).catch(() => undefined);
    if (stat !== undefined && now - stat.mtimeMs > staleTempMs) await fs.rm(path, { force: true });
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

/** A complete line read by {@link readDurableLinesBackward}, with where it starts in the file. */
export interface DurableLine {
  /** The line, without its newline. */
  readonly text: string;
  /** The byte offset of its first character. */
  readonly offset: number;
}

const newline = 0x0a;

/**
 * The complete lines of a file written by {@link appendDurable}, last line first, read from the end in
 * chunks: a caller that needs the last few lines of a long file reads only those (a tail read). A torn
 * last line is skipped, and so are empty lines. Stop iterating to stop reading.
 *
 * @param chunkSize - bytes read at a time (default 64 KiB)
 */
export async function* readDurableLinesBackward(
  path: string,
  chunkSize = 65_536,
): AsyncGenerator<DurableLine, void, undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    let position = (await handle.stat()).size;
    // `pending` holds the bytes [position, end of the unread part): a run of whole lines once the torn
    // tail is gone, possibly preceded by the end of a line that starts before `position`.
    let pending = Buffer.alloc(0);
    let tornTailDropped = false;
    for (;;) {
      if (!tornTailDropped) {
        const last = pending.lastIndexOf(newline);
        if (last !== -1) {
          pending = pending.subarray(0, last + 1);
          tornTailDropped = true;
        }
      }
      if (tornTailDropped) {
        // Yield every line whose start is known (a newline before it, or the start of the file).
        for (;;) {
          const before = pending.length >= 2 ? pending.lastIndexOf(newline, pending.length - 2) : -1;
          if (before === -1 && position > 0) break;
          const text = pending.subarray(before + 1, pending.length - 1).toString("utf8");
          if (text !== "") yield { text, offset: position + before + 1 };
          pending = pending.subarray(0, before + 1);
          if (pending.length === 0) break;
        }
      }
      if (position === 0) return;
      const length = Math.min(chunkSize, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(chunk, read, length - read, position + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      pending = Buffer.concat([chunk.subarray(0, read), pending]);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Cuts a torn last line (bytes after the last newline, left by a crash mid-append) off a file written by
 * {@link appendDurable}, so the next append starts on a line of its own. Call it only while holding the
 * file's writer lock ({@link withFileLock}): an append in progress looks torn too.
 */
export async function trimTornTail(path: string): Promise<void> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDWR);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    let end = size;
    const chunk = Buffer.alloc(4096);
    while (end > 0) {
      const length = Math.min(chunk.length, end);
      const { bytesRead } = await handle.read(chunk, 0, length, end - length);
      const last = chunk.subarray(0, bytesRead).lastIndexOf(newline);
      if (last !== -1) {
        end = end - length + last + 1;
        break;
      }
      end -= length;
    }
    if (end < size) {
      await handle.truncate(end);
      await handle.sync();
    }
  } finally {
    await handle.close();
  }
}

/** One entry of {@link listNewestFirst}. */
export interface NewestEntry<T> {
  /** The entry's name in the directory (a run or conversation id). */
  readonly name: string;
  /** The modification time of its file, in milliseconds. */
  readonly mtime: number;
  /** What `describe` returned with the file. */
  readonly value: T;
}

/**
 * The entries of `directory` named like ids (`runIdPattern`, as the embedded stores name their
 * directories), most recently written first: `describe` names each entry's file (and a value to keep
 * with it) or returns `undefined` to leave the entry out; entries whose file is missing are left out,
 * ties go by name. `[]` when the directory does not exist.
 *
 * @param directory - the store's directory
 * @param describe - the file whose modification time orders an entry, and a value kept with it
 */
export async function listNewestFirst<T>(
  directory: string,
  describe: (name: string) => Promise<{ readonly file: string; readonly value: T } | undefined>,
): Promise<NewestEntry<T>[]> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const found: NewestEntry<T>[] = [];
  for (const name of names) {
    if (!runIdPattern.test(name)) continue;
    const described = await describe(name);
    if (described === undefined) continue;
    const stat = await fs.stat(described.file).catch(() => undefined);
    if (stat !== undefined) found.push({ name, mtime: stat.mtimeMs, value: described.value });
  }
  return found.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? -1 : 1));
}
