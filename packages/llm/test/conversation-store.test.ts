import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  ChatMessage,
  ConversationConflictError,
  type ConversationStore,
  FileConversationStore,
  MemoryConversationStore,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { useTempDirs } from "../../../test/support/temp-dirs.js";

const tempDir = useTempDirs("conversations");

const texts = (messages: readonly ChatMessage[]) => messages.map((message) => message.text ?? "");
const call = { toolName: "lookup", arguments: { q: "x" }, id: "c1" };

const stores: [string, () => Promise<ConversationStore>][] = [
  ["MemoryConversationStore", async () => new MemoryConversationStore()],
  ["FileConversationStore", async () => new FileConversationStore(await tempDir())],
];

describe.each(stores)("%s", (_name, make) => {
  test("appends turns and reads them back whole, as a tail, or from a position", async () => {
    const store = await make();
    expect(await store.read("chat")).toEqual({ messages: [], from: 0, length: 0, summary: undefined });
    expect(await store.append("chat", [ChatMessage.fromUser("u1"), ChatMessage.fromAssistant("a1")])).toBe(2);
    const turn = [
      ChatMessage.fromUser("u2"),
      ChatMessage.fromAssistant({ toolCalls: [call] }),
      ChatMessage.fromTool("found", call),
      ChatMessage.fromAssistant({
        text: "a2",
        meta: { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
      }),
    ];
    expect(await store.append("chat", turn, { expectedLength: 2 })).toBe(6);
    const all = await store.read("chat");
    expect(all.length).toBe(6);
    expect(all.messages.map((message) => message.toJSON())).toEqual(
      [ChatMessage.fromUser("u1"), ChatMessage.fromAssistant("a1"), ...turn].map((message) =>
        message.toJSON(),
      ),
    );
    const tail = await store.read("chat", { last: 3 });
    expect({ from: tail.from, length: tail.length }).toEqual({ from: 3, length: 6 });
    expect(tail.messages[0]?.toolCalls).toEqual([call]);
    expect(texts((await store.read("chat", { from: 5 })).messages)).toEqual(["a2"]);
    expect((await store.read("chat", { last: 0 })).messages).toEqual([]);
    expect((await store.read("chat", { last: 100 })).from).toBe(0);
  });

  test("an append that started from an older length is refused, and nothing of it is stored", async () => {
    const store = await make();
    await store.append("chat", [ChatMessage.fromUser("first")], { expectedLength: 0 });
    const refused = store.append("chat", [ChatMessage.fromUser("second")], { expectedLength: 0 });
    await expect(refused).rejects.toBeInstanceOf(ConversationConflictError);
    await expect(refused).rejects.toMatchObject({
      code: "CONVERSATION_CONFLICT",
      length: 1,
      expectedLength: 0,
    });
    expect(texts((await store.read("chat")).messages)).toEqual(["first"]);
  });

  test("of several appends racing from the same length, exactly one is stored", async () => {
    const store = await make();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, index) =>
        store.append("race", [ChatMessage.fromUser(`u${index}`), ChatMessage.fromAssistant(`a${index}`)], {
          expectedLength: 0,
        }),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const stored = await store.read("race");
    expect(stored.length).toBe(2);
    expect(stored.messages[0]?.text?.slice(1)).toBe(stored.messages[1]?.text?.slice(1));
  });

  test("keeps a summary, lists conversations newest first, deletes one", async () => {
    const store = await make();
    await store.append("a", [ChatMessage.fromUser("x")]);
    await new Promise((resolve) => setTimeout(resolve, 15));
    await store.append("b", [ChatMessage.fromUser("y"), ChatMessage.fromUser("z")]);
    await store.setSummary("b", { message: ChatMessage.fromSystem("they said y"), covers: 1 });
    const summary = (await store.read("b")).summary;
    expect(summary?.covers).toBe(1);
    expect(summary?.message.text).toBe("they said y");
    const listed: { id: string; length: number }[] = [];
    for await (const { id, length } of store.list()) listed.push({ id, length });
    expect(listed).toEqual([
      { id: "b", length: 2 },
      { id: "a", length: 1 },
    ]);
    await store.delete("b");
    expect((await store.read("b")).length).toBe(0);
    const ids: string[] = [];
    for await (const { id } of store.list({ limit: 5 })) ids.push(id);
    expect(ids).toEqual(["a"]);
  });

  test("refuses ids that are not plain names and values that are not messages", async () => {
    const store = await make();
    await expect(store.read("../etc")).rejects.toThrow(/not a valid conversation id/);
    await expect(store.append(".hidden", [])).rejects.toThrow(/not a valid conversation id/);
    await expect(store.append("ok", [{ role: "user" } as never])).rejects.toThrow(/ChatMessage instances/);
  });
});

describe("FileConversationStore files", () => {
  async function storeWith(lines: string): Promise<{ store: FileConversationStore; file: string }> {
    const dir = await tempDir();
    await mkdir(join(dir, "c"), { recursive: true });
    const file = join(dir, "c", "messages.jsonl");
    await writeFile(file, lines);
    return { store: new FileConversationStore(dir), file };
  }
  const good = (at: number, text: string) =>
    JSON.stringify({ v: 1, at, messages: [ChatMessage.fromUser(text)] });

  test("one line per append in <dir>/<id>/messages.jsonl, as ChatMessage JSON", async () => {
    const dir = await tempDir();
    const store = new FileConversationStore(dir);
    await store.append("c", [ChatMessage.fromUser("hi"), ChatMessage.fromAssistant("hello")]);
    await store.append("c", [ChatMessage.fromUser("again")]);
    const lines = (await readFile(join(dir, "c", "messages.jsonl"), "utf8")).trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        v: 1,
        at: 0,
        messages: [ChatMessage.fromUser("hi").toJSON(), ChatMessage.fromAssistant("hello").toJSON()],
      },
      { v: 1, at: 2, messages: [ChatMessage.fromUser("again").toJSON()] },
    ]);
  });

  test("a torn last line (a crash mid-append) is ignored, then cut off by the next append", async () => {
    const { store, file } = await storeWith(`${good(0, "one")}\n{"v":1,"at":1,"messa`);
    expect(texts((await store.read("c")).messages)).toEqual(["one"]);
    await store.append("c", [ChatMessage.fromUser("two")], { expectedLength: 1 });
    expect(texts((await store.read("c")).messages)).toEqual(["one", "two"]);
    expect((await readFile(file, "utf8")).split("\n")).toHaveLength(3);
  });

  test("a second store on the same directory (another process) sees every append", async () => {
    const dir = await tempDir();
    const first = new FileConversationStore(dir);
    const second = new FileConversationStore(dir);
    await first.append("c", [ChatMessage.fromUser("from first")]);
    await second.append("c", [ChatMessage.fromUser("from second")], { expectedLength: 1 });
    await expect(first.append("c", [ChatMessage.fromUser("stale")], { expectedLength: 1 })).rejects.toThrow(
      /has 2 messages, not the 1/,
    );
    expect(texts((await first.read("c")).messages)).toEqual(["from first", "from second"]);
  });

  test("of three processes appending from the same length, exactly one is stored, whole", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    const script = `
      import { ChatMessage, FileConversationStore } from "@junction/llm";
      const store = new FileConversationStore(${JSON.stringify(dir)});
      const text = "x".repeat(100000) + process.pid;
      try {
        await store.append("race", [ChatMessage.fromUser(text), ChatMessage.fromAssistant(text)], { expectedLength: 0 });
        console.log("stored");
      } catch (error) {
        console.log(error.code);
      }
    `;
    const run = promisify(execFile);
    const outcomes = await Promise.all(
      Array.from({ length: 3 }, () =>
        run(
          process.execPath,
          ["--import", "tsx", "--conditions=@junction/source", "--input-type=module", "-e", script],
          { cwd: import.meta.dirname },
        ).then((result) => result.stdout.trim()),
      ),
    );
    expect(outcomes.sort()).toEqual(["CONVERSATION_CONFLICT", "CONVERSATION_CONFLICT", "stored"]);
    const stored = await new FileConversationStore(dir).read("race");
    expect(stored.length).toBe(2);
    expect(stored.messages[0]?.text).toBe(stored.messages[1]?.text);
  });

  const hostile: [string, string, RegExp][] = [
    ["not JSON", `${good(0, "ok")}\nnot json at all\n`, /line 2: not JSON/],
    [
      "an unknown version",
      `${JSON.stringify({ v: 2, at: 0, messages: [] })}\n`,
      /line 1: unknown record version 2/,
    ],
    ["a list", "[1,2,3]\n", /line 1: expected an object/],
    [
      "unknown fields",
      `${JSON.stringify({ v: 1, at: 0, messages: [ChatMessage.fromUser("x")], run: "rm -rf /" })}\n`,
      /line 1: not a valid conversation record:\n.*run: unknown field/,
    ],
    [
      "a message that is not one",
      `${JSON.stringify({ v: 1, at: 0, messages: [{ role: "wizard", content: "x" }] })}\n`,
      /line 1: not a valid conversation record:\n.*messages\[0\]/,
    ],
    [
      "a gap between records",
      `${good(0, "a")}\n${good(5, "b")}\n`,
      /line 1: the record starts at message 5, but the one before it ends at 1/,
    ],
    ["a missing beginning", `${good(3, "a")}\n`, /line 1 starts at message 3, not 0/],
    [
      "nesting far too deep",
      `{"v":1,"at":0,"messages":[${"[".repeat(5000)}${"]".repeat(5000)}]}\n`,
      /line 1: the record is refused/,
    ],
  ];

  test.each(hostile)(
    "a stored file with %s fails the read with an error naming the file and line",
    async (_case, lines, message) => {
      const { store, file } = await storeWith(lines);
      const read = store.read("c");
      await expect(read).rejects.toMatchObject({ code: "DESERIALIZATION_ERROR" });
      await expect(read).rejects.toThrow(message);
      await expect(read).rejects.toThrow(file);
    },
  );

  test("keys such as __proto__ and constructor in a stored file are plain data", async () => {
    const message =
      '{"role":"user","content":[{"text":"hi"}],"name":null,"meta":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}';
    const { store } = await storeWith(
      `{"v":1,"at":0,"messages":[${message}],"__proto__":{"polluted":true}}\n`,
    );
    await expect(store.read("c")).rejects.toThrow(/__proto__/);
    await writeFile(join(store.directory, "c", "messages.jsonl"), `{"v":1,"at":0,"messages":[${message}]}\n`);
    await store.read("c").catch(() => undefined);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a corrupt summary file fails the read naming the file; a valid one is checked too", async () => {
    const { store } = await storeWith(`${good(0, "a")}\n`);
    const summary = join(store.directory, "c", "summary.json");
    await writeFile(summary, '{"v":1,"covers":"all","message":{}}');
    await expect(store.read("c")).rejects.toThrow(
      new RegExp(`${summary.replaceAll("/", "\\/")}.*\\n.*covers`),
    );
  });
});
