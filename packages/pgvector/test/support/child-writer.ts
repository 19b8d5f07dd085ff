import { type ChildProcess, spawn } from "node:child_process";

/** A writer process started by a crash test, and what it has reported. */
export interface ChildWriter {
  readonly child: ChildProcess;
  /** Resolves with the pid it printed with `ready`, once it is ready. */
  ready(): Promise<number>;
  /** Resolves once the writer has reported batch `batch` written. */
  wrote(batch: number): Promise<void>;
  /** Resolves with the last batch reported written (`first - 1` for none) once the process is gone. */
  readonly closed: Promise<number>;
}

/**
 * Starts `script` (TypeScript, run with tsx on the workspace sources) with `args`; it prints
 * `ready <pid>` and `wrote <batch>` lines.
 */
export function startChildWriter(script: string, args: readonly string[], first: number): ChildWriter {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@junction/source", script, ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let last = first - 1;
  let pid: number | undefined;
  let errors = "";
  const waiting: (() => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    for (const match of text.matchAll(/wrote (\d+)/g)) last = Number(match[1]);
    pid ??= Number(/ready (\d+)/.exec(text)?.[1] ?? Number.NaN) || undefined;
    for (const wake of waiting.splice(0)) wake();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  // "close", not "exit": every line printed before the process died has been read.
  const closed = new Promise<number>((resolve) => child.on("close", () => resolve(last)));
  const until = <T>(value: () => T | undefined, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = value();
        if (found !== undefined) resolve(found);
        else waiting.push(check);
      };
      check();
      void closed.then(() => reject(new Error(`the writer exited before ${what}: ${errors}`)));
    });
  return {
    child,
    ready: () => until(() => pid, "it was ready"),
    wrote: (batch) => until(() => (last >= batch ? true : undefined), `batch ${batch}`).then(() => undefined),
    closed,
  };
}
