import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ChatMessage, FileConversationStore } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { useTempDirs } from "../../../test/support/temp-dirs.js";

const tempDir = useTempDirs("conversation-crash");
const writer = join(import.meta.dirname, "fixtures", "conversation-writer.ts");

/** Starts the writer; resolves `appended(turn)` once it reported that turn, `closed` with the last one. */
function startWriter(dir: string, first: number, mode?: string) {
  const args = ["--import", "tsx", "--conditions=@junction/source", writer, dir, String(first)];
  const child: ChildProcess = spawn(process.execPath, mode === undefined ? args : [...args, mode], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let last = first - 1;
  let errors = "";
  const waiting: (() => void)[] = [];
  child.stdout?.on("data", (chunk: Buffer) => {
    for (const match of chunk.toString().matchAll(/appended (\d+)/g)) last = Number(match[1]);
    for (const wake of waiting.splice(0)) wake();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  // "close", not "exit": every line printed before the process died has been read.
  const closed = new Promise<number>((resolve) => child.on("close", () => resolve(last)));
  const appended = (turn: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (last >= turn ? resolve() : waiting.push(check));
      check();
      void closed.then(() => reject(new Error(`the writer exited before turn ${turn}: ${errors}`)));
    });
  return { child, appended, closed };
}

/** Turn `turn`'s messages, as the writer appends them. */
function turnMessages(turn: number): ChatMessage[] {
  return [
    ChatMessage.fromUser(`question ${turn} `.padEnd(4000, "q")),
    ChatMessage.fromAssistant(`answer ${turn} `.padEnd(4000, "a")),
  ];
}

/** Checks that the messages are whole turns 0…n-1, every text as written; returns n. */
function wholeTurns(messages: readonly ChatMessage[]): number {
  expect(messages.length % 2).toBe(0);
  for (let turn = 0; turn < messages.length / 2; turn++) {
    expect(messages[2 * turn]?.role).toBe("user");
    expect(messages[2 * turn]?.text).toBe(`question ${turn} `.padEnd(4000, "q"));
    expect(messages[2 * turn + 1]?.role).toBe("assistant");
    expect(messages[2 * turn + 1]?.text).toBe(`answer ${turn} `.padEnd(4000, "a"));
  }
  return messages.length / 2;
}

describe("FileConversationStore: a process killed with SIGKILL while appending turns", () => {
  test("wherever the kill lands, the conversation reads back as whole turns, every reported one included, and takes the next append", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    let turns = 0;
    for (let trial = 0; trial < 3; trial++) {
      const child = startWriter(dir, turns);
      await child.appended(turns + 2);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      child.child.kill("SIGKILL");
      const reported = await child.closed;
      // A killed append may leave its lock file: a store that takes over a dead writer's lock after
      // 300 ms (instead of the default 30 s) appends here.
      const store = new FileConversationStore(dir, { lock: { staleMs: 300 } });
      const history = await store.read("chat");
      turns = wholeTurns(history.messages);
      expect(history.length).toBe(turns * 2);
      expect(turns).toBeGreaterThanOrEqual(reported + 1);
      expect(turns).toBeLessThanOrEqual(reported + 2);
      // The next turn goes in after the last whole one, in this process.
      expect(await store.append("chat", turnMessages(turns), { expectedLength: turns * 2 })).toBe(
        turns * 2 + 2,
      );
      turns += 1;
      expect(wholeTurns((await store.read("chat")).messages)).toBe(turns);
    }
  });

  test("killed mid-line: the torn line is ignored on read and cut off by the next append", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    const turns = 2;
    const before = new FileConversationStore(dir);
    for (let turn = 0; turn < turns; turn++) await before.append("chat", turnMessages(turn));

    const dying = startWriter(dir, turns, "die-mid-line");
    await dying.closed;
    expect(dying.child.signalCode).toBe("SIGKILL");
    const file = join(dir, "chat", "messages.jsonl");
    expect((await readFile(file, "utf8")).endsWith("\n")).toBe(false);

    const store = new FileConversationStore(dir, { lock: { staleMs: 300 } });
    expect(wholeTurns((await store.read("chat")).messages)).toBe(turns);
    expect(
      await store.append("chat", [ChatMessage.fromUser("after the crash")], { expectedLength: turns * 2 }),
    ).toBe(turns * 2 + 1);
    const after = await store.read("chat");
    expect(after.messages.at(-1)?.text).toBe("after the crash");
    wholeTurns(after.messages.slice(0, -1));
    expect((await readFile(file, "utf8")).split("\n").filter((line) => line !== "")).toHaveLength(turns + 1);
  });

  // The lock file of a writer killed inside an append names its pid and host: a process restarted right
  // after the crash takes it over at once (before, only after staleMs, 30 s — longer than an append
  // waits, so appends failed for half a minute).
  test("killed inside an append: the next append with default options takes over the dead writer's lock", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    const dying = startWriter(dir, 0, "die-mid-line");
    await dying.closed;
    const store = new FileConversationStore(dir, { lock: { timeoutMs: 2_000 } });
    expect(await store.append("chat", [ChatMessage.fromUser("after the crash")])).toBe(1);
  });
});
