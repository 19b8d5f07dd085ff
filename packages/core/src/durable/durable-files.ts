import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { JunctionError } from "../errors/errors.js";
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
  /**
   * A lock older than this is taken over (its holder is presumed dead). Default 30 s. A lock whose
   * holder is a process of this host that no longer runs is taken over at once, whatever its age.
   */
  readonly staleMs?: number | undefined;
  /** Give up after this long. Default 10 s. */
  readonly timeoutMs?: number | undefined;
}

/** Who holds a lock: what its file says (`<pid> <time> <host>`), `undefined` when it says nothing usable. */
function lockHolder(text: string): { pid: number; host: string | undefined } | undefined {
  const [pid, , host] = text.trim().split(" ");
  const number = Number(pid);
  return Number.isSafeInteger(number) && number > 0 ? { pid: number, host } : undefined;
}

/** True when `pid` is a process of this host that no longer runs. */
function isDeadHere(holder: { pid: number; host: string | undefined }): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Whether the lock at `path` can be taken over: its holder died (a process of this host that no longer
 * runs), or it is older than `staleMs`, or it is empty and a few seconds old (its writer died between
 * creating and filling it). The lock is then removed without ever removing a lock someone else just
 * took: it is renamed away, checked again, and put back when it turns out to be another one.
 */
async function takeOverAbandoned(path: string, staleMs: number): Promise<boolean> {
  const stat = await fs.stat(path).catch(() => undefined);
  if (stat === undefined) return true;
  const text = await fs.readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return true;
  const holder = lockHolder(text);
  const age = Date.now() - stat.mtimeMs;
  const abandoned = age > staleMs || (holder === undefined ? age > 5_000 : isDeadHere(holder));
  if (!abandoned) return false;
  const aside = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.abandoned`;
  try {
    await fs.rename(path, aside);
  } catch {
    return true; // gone already: someone else took it over
  }
  const moved = await fs.readFile(aside, "utf8").catch(() => undefined);
  if (moved !== text) {
    // Between our read and the rename, the lock changed hands: put the new holder's lock back.
    await fs.link(aside, path).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
  return true;
}

/**
 * Runs `fn` while holding an exclusive lock file at `path` (created with O_EXCL), across processes.
 * The lock file says who holds it (`<pid> <time> <host>`): a lock left by a process that died on this
 * host is taken over at once, any other after `staleMs`.
 *
 * @throws JunctionError `FILE_LOCK_TIMEOUT` when the lock cannot be taken within `timeoutMs`, naming
 *   the file and its holder
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
    try {
      const handle = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      try {
        await handle.writeFile(`${process.pid} ${Date.now()} ${hostname()}`);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (await takeOverAbandoned(path, staleMs)) continue;
      if (Date.now() > deadline) {
        const holder = await fs.readFile(path, "utf8").catch(() => "");
        throw new JunctionError(
          "FILE_LOCK_TIMEOUT",
          `withFileLock: could not lock "${path}" within ${timeoutMs} ms: another process holds it (${holder.trim() === "" ? "it names no holder" : `held by pid ${holder.trim().split(" ")[0]}`}) and it is not older than staleMs (${staleMs} ms). Wait for that process, or raise timeoutMs; a lock left by a process that died on this host is taken over at once.`,
        );
      }
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
