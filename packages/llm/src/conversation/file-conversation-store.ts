import { promises as fs } from "node:fs";
import { join } from "node:path";
import {
  appendDurable,
  DeserializationError,
  type FileLockOptions,
  fsyncDirectory,
  listNewestFirst,
  readDurableLinesBackward,
  trimTornTail,
  withFileLock,
  writeFileAtomic,
} from "@junction/core";
import type { ChatMessage } from "../messages/chat-message.js";
import {
  type ConversationRecord,
  checkSequence,
  parseConversationRecord,
  parseConversationSummary,
} from "./conversation-records.js";
import {
  type ConversationAppendOptions,
  type ConversationHistory,
  type ConversationInfo,
  type ConversationListQuery,
  type ConversationReadOptions,
  type ConversationStore,
  type ConversationSummary,
  checkAppend,
  checkConversationId,
  checkExpectedLength,
  checkSummary,
  readStart,
} from "./conversation-store.js";

/** Options of {@link FileConversationStore}. */
export interface FileConversationStoreOptions {
  /** How long an append waits for another process's append, and when a dead writer's lock is taken over. */
  readonly lock?: FileLockOptions | undefined;
}

const messagesFile = "messages.jsonl";
const summaryFile = "summary.json";
const lockFile = ".append.lock";

/** Where a line starts, as a 1-based line number (counted only when a line is reported). */
async function lineNumber(path: string, offset: number): Promise<number> {
  const handle = await fs.open(path, "r");
  try {
    const buffer = Buffer.alloc(offset);
    await handle.read(buffer, 0, offset, 0);
    let count = 1;
    for (const byte of buffer) if (byte === 0x0a) count++;
    return count;
  } finally {
    await handle.close();
  }
}

/**
 * The embedded {@link ConversationStore}, laid out and written like the `FileRunStore`: one directory
 * per conversation (`<dir>/<id>/`), the messages in `messages.jsonl`, one line per append.
 *
 * Durability comes from core's file primitives: each append is one fsynced line (`appendDurable`), made
 * under a lock file (`withFileLock`) that several processes share, so the `expectedLength` check and
 * the append are one step. A torn last line left by a crash is ignored when reading and cut off before
 * the next append. Reads of the last N messages read the file from its end (`readDurableLinesBackward`):
 * a turn's cost does not grow with the conversation, and the history is never rewritten. The summary
 * is `summary.json`, replaced atomically.
 *
 * A stored file is untrusted data: every line is parsed as JSON, bounded and checked; a bad one fails
 * the read with a `DeserializationError` naming the file and line.
 *
 * @example
 * ```ts
 * const store = new FileConversationStore(".junction/conversations");
 * const agent = new Agent({ chatGenerator, conversation: { store } });
 * await agent.run({ messages: [ChatMessage.fromUser("Hi")], conversation_id: "chat-1" });
 * ```
 */
export class FileConversationStore implements ConversationStore {
  /** The store's directory. */
  readonly directory: string;
  readonly #lock: FileLockOptions;

  /** @param directory - where conversations are kept (created on first write) @param options - locking */
  constructor(directory: string, options: FileConversationStoreOptions = {}) {
    if (typeof directory !== "string" || directory === "")
      throw new TypeError("FileConversationStore: directory must be a non-empty path.");
    this.directory = directory;
    this.#lock = options.lock ?? {};
  }

  #file(id: string, name: string): string {
    return join(this.directory, id, name);
  }

  /** The records from the end back to the one holding message `start`, oldest first, and the length. */
  async #tail(
    id: string,
    start: (length: number) => number,
  ): Promise<{ records: ConversationRecord[]; length: number }> {
    const path = this.#file(id, messagesFile);
    const records: ConversationRecord[] = [];
    let length: number | undefined;
    let first = 0;
    let reached = false;
    for await (const line of readDurableLinesBackward(path)) {
      let record: ConversationRecord;
      try {
        record = parseConversationRecord(line.text, `"${path}" line ?`);
      } catch (error) {
        throw await this.#located(error, path, line.offset);
      }
      const next = records[0];
      if (next !== undefined) {
        try {
          checkSequence(record, next, `"${path}" line ?`);
        } catch (error) {
          throw await this.#located(error, path, line.offset);
        }
      }
      records.unshift(record);
      if (length === undefined) {
        length = record.at + record.messages.length;
        first = start(length);
      }
      if (record.at <= first) {
        reached = true;
        break;
      }
    }
    // Read to the beginning without finding message `first`: the first line does not start at 0.
    if (records.length > 0 && !reached) {
      throw new DeserializationError(
        `FileConversationStore.read("${id}"): "${path}" line 1 starts at message ${records[0]!.at}, not 0; the file's beginning is missing.`,
      );
    }
    return { records, length: length ?? 0 };
  }

  /** Re-throws a record error with its line number in place of `line ?`. */
  async #located(error: unknown, path: string, offset: number): Promise<unknown> {
    if (!(error instanceof DeserializationError)) return error;
    const line = await lineNumber(path, offset);
    return new DeserializationError(error.message.replace("line ?", `line ${line}`), {
      issues: error.issues,
    });
  }

  async append(
    id: string,
    messages: readonly ChatMessage[],
    options: ConversationAppendOptions = {},
  ): Promise<number> {
    const where = `FileConversationStore.append("${id}")`;
    checkAppend(where, id, messages, options);
    const dir = join(this.directory, id);
    await fs.mkdir(dir, { recursive: true });
    return withFileLock(
      this.#file(id, lockFile),
      async () => {
        const path = this.#file(id, messagesFile);
        await trimTornTail(path);
        const { length } = await this.#tail(id, (total) => total);
        checkExpectedLength(where, id, options, length);
        if (messages.length === 0) return length;
        await appendDurable(path, JSON.stringify({ v: 1, at: length, messages }));
        if (length === 0) {
          await fsyncDirectory(dir);
          await fsyncDirectory(this.directory);
        }
        return length + messages.length;
      },
      this.#lock,
    );
  }

  async read(id: string, options: ConversationReadOptions = {}): Promise<ConversationHistory> {
    const where = `FileConversationStore.read("${id}")`;
    checkConversationId(where, id);
    let from = 0;
    const { records, length } = await this.#tail(id, (total) => {
      from = readStart(where, options, total);
      return from;
    });
    readStart(where, options, length); // checks the options of an empty conversation too
    const messages: ChatMessage[] = [];
    for (const record of records) {
      const skip = Math.max(0, from - record.at);
      for (let index = skip; index < record.messages.length; index++) messages.push(record.messages[index]!);
    }
    return { messages, from, length, summary: await this.#summary(id, length) };
  }

  async #summary(id: string, length: number): Promise<ConversationSummary | undefined> {
    const path = this.#file(id, summaryFile);
    let text: string;
    try {
      text = await fs.readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const summary = parseConversationSummary(text, `FileConversationStore.read("${id}"): "${path}"`);
    return summary.covers <= length ? summary : undefined;
  }

  async setSummary(id: string, summary: ConversationSummary): Promise<void> {
    checkSummary(`FileConversationStore.setSummary("${id}")`, id, summary);
    await fs.mkdir(join(this.directory, id), { recursive: true });
    await writeFileAtomic(
      this.#file(id, summaryFile),
      JSON.stringify({ v: 1, covers: summary.covers, message: summary.message }),
    );
  }

  async *list(query: ConversationListQuery = {}): AsyncIterable<ConversationInfo> {
    // Each conversation by its messages file.
    const found = await listNewestFirst(this.directory, async (id) => ({
      file: this.#file(id, messagesFile),
      value: undefined,
    }));
    let count = 0;
    for (const { name: id, mtime } of found) {
      if (count++ >= (query.limit ?? Number.POSITIVE_INFINITY)) return;
      const { length } = await this.#tail(id, (total) => total);
      yield { id, length, updatedAt: new Date(mtime).toISOString() };
    }
  }

  async delete(id: string): Promise<void> {
    checkConversationId(`FileConversationStore.delete("${id}")`, id);
    await fs.rm(join(this.directory, id), { recursive: true, force: true });
  }
}
