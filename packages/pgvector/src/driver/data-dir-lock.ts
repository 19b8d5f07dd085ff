import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { PgvectorStoreError } from "../errors.js";

/** Who holds a data directory: written as JSON into `<dataDir>.lock`. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** A held lock; `release()` removes the lock file (only if it is still ours). */
export interface DataDirLock {
  readonly path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid === "number" && typeof parsed.host === "string") {
      return { pid: parsed.pid, host: parsed.host, since: String(parsed.since ?? "") };
    }
  } catch {
    // A torn or foreign file: treated as held by an unknown process.
  }
  return undefined;
}

let temporaryCounter = 0;

/** Filesystems without hard links (some network and FAT volumes) answer `link` with one of these. */
const noHardLinks = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Creates the lock file with the holder in it, or returns `false` when it exists. The holder is written to
 * a temporary file first and hard-linked into place (`link` fails when the lock exists), so a process
 * killed at any moment leaves either no lock file or a whole one: never an empty lock file, which would
 * name no holder and could not be taken over.
 */
function tryCreate(path: string, holder: LockHolder): boolean {
  const temporary = `${path}.${process.pid}.${++temporaryCounter}.tmp`;
  writeFileSync(temporary, JSON.stringify(holder));
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return false;
    if (!noHardLinks.has(code)) throw error;
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // Already gone.
    }
  }
  return tryCreateInPlace(path, holder);
}

/** {@link tryCreate} without hard links: exclusive create, then write (a kill in between leaves it empty). */
function tryCreateInPlace(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Puts a lock renamed away back in place, unless another lock is there now. */
function restore(moved: string, path: string): void {
  try {
    linkSync(moved, path);
  } catch (error) {
    if (!noHardLinks.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
    renameSync(moved, path);
  }
}

/**
 * Removes the lock file of `stale` (a dead holder). Deleting by name would race: two processes that both
 * saw the dead holder could each delete the lock, the second deleting the lock the first has just
 * taken, and both would open the database. So the lock is renamed away (atomic: of several renames one
 * wins) and checked: when it is not the dead holder's after all, it is put back.
 *
 * @param path - the lock file
 * @param stale - the dead holder read from it
 */
export function takeOverStaleLock(path: string, stale: LockHolder): void {
  const moved = `${path}.${process.pid}.${++temporaryCounter}.stale`;
  try {
    renameSync(path, moved);
  } catch {
    return; // Another process took it over first; the next attempt reports it.
  }
  try {
    const found = readHolder(moved);
    const same = found?.pid === stale.pid && found.host === stale.host && found.since === stale.since;
    if (!same) restore(moved, path);
  } catch {
    // The live holder's lock could not be put back because yet another process has locked meanwhile.
  } finally {
    try {
      unlinkSync(moved);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Takes the lock of an embedded data directory, so a second process (or a second store in this process)
 * gets a clear error instead of corrupting the database: PGlite has no lock of its own (pglite#1106). A
 * lock left by a dead process on this host is taken over.
 *
 * @param dataDir - the PGlite data directory
 * @throws PgvectorStoreError (`PGVECTOR_STORE_LOCKED`) naming the holder's pid and host
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = `${dataDir}.lock`;
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(path, me)) {
      return {
        path,
        release() {
          const holder = readHolder(path);
          if (holder?.pid === me.pid && holder.host === me.host) {
            try {
              unlinkSync(path);
            } catch {
              // Already gone.
            }
          }
        },
      };
    }
    const holder = readHolder(path);
    const stale = holder !== undefined && holder.host === me.host && !isAlive(holder.pid);
    if (!stale) {
      const who =
        holder === undefined
          ? "an unknown process (the lock file is unreadable)"
          : `process ${holder.pid} on host "${holder.host}"${holder.pid === me.pid && holder.host === me.host ? " (this process: another PgvectorDocumentStore is open on it)" : ""} since ${holder.since}`;
      throw new PgvectorStoreError(
        "PGVECTOR_STORE_LOCKED",
        `PgvectorDocumentStore: the data directory "${dataDir}" is in use by ${who}. An embedded database serves one process; close the other store first, or run a Postgres server and connect both to it with connectionString. If that process is gone, delete "${path}".`,
      );
    }
    takeOverStaleLock(path, holder);
  }
  throw new PgvectorStoreError(
    "PGVECTOR_STORE_LOCKED",
    `PgvectorDocumentStore: the data directory "${dataDir}" was taken over by another process while this one was taking over a stale lock ("${path}").`,
  );
}
