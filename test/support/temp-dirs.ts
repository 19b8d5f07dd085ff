import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/**
 * Temporary directories for the tests of one file: call at the top of the file; each call of the
 * returned function makes a new directory `junction-<prefix>-…`, and all are removed after each test.
 */
export function useTempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), `junction-${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}
