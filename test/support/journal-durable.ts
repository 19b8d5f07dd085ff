import { type Durable, fromDurableJSON, toDurableJSON } from "@junction/core";

/** One journal entry: the step's name and, once it completed, its result as JSON text. */
export interface JournalEntry {
  readonly name: string;
  readonly json?: string | undefined;
}

/**
 * A test double of a journaling backend (like Restate): records each step's name in start order and
 * its result as JSON; given an earlier journal, matches steps by position (a different name is a
 * journal mismatch) and returns recorded results without running the step. An entry without `json`
 * was in flight when the run "crashed": it runs again.
 */
export class JournalDurable implements Durable {
  readonly entries: JournalEntry[] = [];
  /** Names of the steps that actually ran, in start order. */
  readonly executed: string[] = [];
  readonly #replay: readonly JournalEntry[];

  constructor(replay: readonly JournalEntry[] = []) {
    this.#replay = replay;
  }

  step<T>(name: string, run: () => Promise<T>): Promise<T> {
    const position = this.entries.length;
    const recorded = this.#replay[position];
    if (recorded !== undefined && recorded.name !== name) {
      return Promise.reject(
        new Error(
          `journal mismatch at ${position}: the journal has "${recorded.name}", the run asked for "${name}"`,
        ),
      );
    }
    this.entries.push({ name });
    if (recorded?.json !== undefined) {
      this.entries[position] = recorded;
      return Promise.resolve(fromDurableJSON(JSON.parse(recorded.json)) as T);
    }
    this.executed.push(name);
    return run().then((value) => {
      const json = JSON.stringify(toDurableJSON(value));
      this.entries[position] = { name, json };
      return fromDurableJSON(JSON.parse(json)) as T;
    });
  }

  all<T>(steps: readonly Promise<T>[]): Promise<T[]> {
    return Promise.all(steps);
  }

  now(): Promise<number> {
    return Promise.resolve(1_700_000_000_000);
  }
}
