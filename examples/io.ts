/**
 * How examples print: to the terminal when run directly, to a buffer when a test runs them.
 */

/** Where an example writes. */
export interface ExampleIO {
  write(text: string): void;
}

/** Runs `main` when the file is executed directly (`tsx examples/x.ts`), printing to stdout. */
export function runIfMain(importMetaUrl: string, main: (io: ExampleIO) => Promise<unknown>): void {
  if (importMetaUrl !== `file://${process.argv[1]}`) return;
  main({ write: (text) => process.stdout.write(text) }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
