import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/**
 * A temporary directory per test, removed afterwards; `write(name, content)` puts a file in it and
 * returns its full path.
 */
export function useTempDir(): () => Promise<{
  dir: string;
  write: (name: string, content: string | Uint8Array) => Promise<string>;
}> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), "junction-converters-"));
    dirs.push(dir);
    return {
      dir,
      write: async (name, content) => {
        const path = join(dir, name);
        await writeFile(path, content);
        return path;
      },
    };
  };
}
