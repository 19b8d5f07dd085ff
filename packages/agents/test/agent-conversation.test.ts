import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { Agent, AgentRunError } from "@junction/agents";
import { createRegistry, deserializeComponent, RunSnapshot, serializeComponent } from "@junction/core";
import {
  ChatMessage,
  ConversationConflictError,
  type ConversationStore,
  FileConversationStore,
  MemoryConversationStore,
  ScriptedChatGenerator,
  tool,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { useTempDirs } from "../../../test/support/temp-dirs.js";
import { quiet, user } from "./helpers.js";
import { interruptOf, refunds, refundTool } from "./interrupt-helpers.js";

const tempDir = useTempDirs("agent-conversation");

/** `role:text` of each message (tool results by their result). */
function lines(messages: readonly ChatMessage[]): string[] {
  return messages.map((message) => {
    const calls = message.toolCalls.map((call) => `${call.toolName}(${call.id})`).join(",");
    return `${message.role}:${message.text ?? message.toolCallResult?.result ?? ""}${calls}`;
  });
}

/** A model that answers with what it was sent, and records every call's messages. */
function echoModel(seen: string[][] = []) {
  return new ScriptedChatGenerator({
    respond: (messages) => {
      seen.push(lines(messages));
      return `reply ${seen.length} to ${messages.at(-1)?.text}`;
    },
  });
}

const stores: [string, () => Promise<ConversationStore>][] = [
  ["MemoryConversationStore", async () => new MemoryConversationStore()],
  ["FileConversationStore", async () => new FileConversationStore(await tempDir())],
];

describe.each(stores)("conversation on a %s", (_name, make) => {
  test("three turns: each sees the history once, after one system prompt, and adds its messages", async () => {
    const store = await make();
    const seen: string[][] = [];
    const agent = new Agent({
      chatGenerator: echoModel(seen),
      systemPrompt: "Be brief.",
      conversation: { store, id: "chat-1" },
    });
    for (const text of ["hi", "my name is Ada", "what is my name?"]) {
      await agent.run({ messages: [user(text)] }, quiet());
    }
    expect(seen[2]).toEqual([
      "system:Be brief.",
      "user:hi",
      "assistant:reply 1 to hi",
      "user:my name is Ada",
      "assistant:reply 2 to my name is Ada",
      "user:what is my name?",
    ]);
    const stored = await store.read("chat-1");
    expect(stored.length).toBe(6);
    expect(lines(stored.messages)).toEqual(seen[2]?.slice(1).concat("assistant:reply 3 to what is my name?"));
  });

  test("the conversation_id input picks the conversation per run; without an id a run is stateless", async () => {
    const store = await make();
    const seen: string[][] = [];
    const agent = new Agent({ chatGenerator: echoModel(seen), conversation: { store } });
    await agent.run({ messages: [user("a1")], conversation_id: "a" }, quiet());
    await agent.run({ messages: [user("b1")], conversation_id: "b" }, quiet());
    await agent.run({ messages: [user("a2")], conversation_id: "a" }, quiet());
    await agent.run({ messages: [user("alone")] }, quiet());
    expect(seen[2]).toEqual(["user:a1", "assistant:reply 1 to a1", "user:a2"]);
    expect(seen[3]).toEqual(["user:alone"]);
    expect((await store.read("b")).length).toBe(2);
    const ids: string[] = [];
    for await (const { id } of store.list()) ids.push(id);
    expect(ids.sort()).toEqual(["a", "b"]);
  });

  test("concurrent turns on one conversation run one after another: the second sees the first", async () => {
    const store = await make();
    const seen: string[][] = [];
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        delayMs: 20,
        respond: (messages) => {
          seen.push(lines(messages));
          return `reply to ${messages.at(-1)?.text}`;
        },
      }),
      conversation: { store, id: "busy" },
    });
    await Promise.all([
      agent.run({ messages: [user("first")] }, quiet()),
      agent.run({ messages: [user("second")] }, quiet()),
    ]);
    expect(lines((await store.read("busy")).messages)).toEqual([
      "user:first",
      "assistant:reply to first",
      "user:second",
      "assistant:reply to second",
    ]);
    expect(seen[1]).toEqual(["user:first", "assistant:reply to first", "user:second"]);
  });

  test("an error mid-turn leaves the stored history as it was, and the next turn goes on from it", async () => {
    const store = await make();
    let fail = false;
    const flaky = tool({
      name: "flaky",
      description: "Fails when told to",
      parameters: z.object({}),
      function: () => {
        if (fail) throw new Error("backend down");
        return "ok";
      },
    });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        respond: (messages) =>
          messages.at(-1)?.role === "user"
            ? { toolCalls: [{ toolName: "flaky", arguments: {}, id: "f" }] }
            : "done",
      }),
      tools: [flaky],
      raiseOnToolInvocationFailure: true,
      conversation: { store, id: "c" },
    });
    await agent.run({ messages: [user("one")] }, quiet());
    const before = lines((await store.read("c")).messages);
    fail = true;
    await expect(agent.run({ messages: [user("two")] }, quiet())).rejects.toBeInstanceOf(AgentRunError);
    expect(lines((await store.read("c")).messages)).toEqual(before);
    fail = false;
    await agent.run({ messages: [user("three")] }, quiet());
    expect(lines((await store.read("c")).messages)).toEqual([
      ...before,
      "user:three",
      "assistant:flaky(f)",
      "tool:ok",
      "assistant:done",
    ]);
  });

  test("an interrupted turn is stored once, after its resume completes", async () => {
    const store = await make();
    const runs: { amount: number }[] = [];
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        script: [refunds(["c1", "A-1", 500]), "Refunded.", "You are welcome."] as never[],
      }),
      tools: [refundTool(runs)],
      conversation: { store, id: "refunds" },
    });
    const error = await interruptOf(agent.run({ messages: [user("refund A-1")] }, quiet()));
    expect((await store.read("refunds")).length).toBe(0);
    const snapshot = RunSnapshot.parse(JSON.parse(JSON.stringify(error.snapshot)));
    await agent.resume(snapshot, { "s1/c1": { action: "approve" } }, quiet());
    const stored = lines((await store.read("refunds")).messages);
    expect(stored).toEqual([
      "user:refund A-1",
      "assistant:refund(c1)",
      "tool:refunded 500 for A-1",
      "assistant:Refunded.",
    ]);
    await agent.run({ messages: [user("thanks")] }, quiet());
    expect(lines((await store.read("refunds")).messages)).toEqual([
      ...stored,
      "user:thanks",
      "assistant:You are welcome.",
    ]);
    expect(runs).toEqual([{ amount: 500 }]);
  });
});

describe("historyLimit", () => {
  /** A conversation whose turns each hold a tool call and its result. */
  async function toolConversation(store: ConversationStore, turns: number) {
    for (let index = 1; index <= turns; index++) {
      const call = { toolName: "lookup", arguments: { n: index }, id: `t${index}` };
      await store.append("c", [
        user(`q${index}`),
        ChatMessage.fromAssistant({ toolCalls: [call] }),
        ChatMessage.fromTool(`r${index}`, call),
        ChatMessage.fromAssistant(`a${index}`),
      ]);
    }
  }

  test("a message limit never starts the window inside a turn, so tool calls keep their results", async () => {
    const store = new MemoryConversationStore();
    await toolConversation(store, 3);
    const seen: string[][] = [];
    // The last 6 stored messages begin with turn 2's tool result; the window starts at turn 3.
    const agent = new Agent({
      chatGenerator: echoModel(seen),
      conversation: { store, id: "c" },
      historyLimit: { messages: 6 },
    });
    await agent.run({ messages: [user("q4")] }, quiet());
    expect(seen[0]).toEqual(["user:q3", "assistant:lookup(t3)", "tool:r3", "assistant:a3", "user:q4"]);
    // Everything stays stored; only what is sent is bounded.
    expect((await store.read("c")).length).toBe(14);
  });

  test("a token budget keeps the newest whole turns that fit", async () => {
    const store = new MemoryConversationStore();
    await toolConversation(store, 4);
    const seen: string[][] = [];
    const agent = new Agent({
      chatGenerator: echoModel(seen),
      conversation: { store, id: "c" },
      historyLimit: { tokens: 9, countTokens: () => 1 },
    });
    await agent.run({ messages: [user("q5")] }, quiet());
    expect(seen[0]).toEqual([
      "user:q3",
      "assistant:lookup(t3)",
      "tool:r3",
      "assistant:a3",
      "user:q4",
      "assistant:lookup(t4)",
      "tool:r4",
      "assistant:a4",
      "user:q5",
    ]);
  });

  test("summarize replaces what falls out of the window with one stored summary, updated as it moves", async () => {
    const store = new MemoryConversationStore();
    const seen: string[][] = [];
    const summaries: string[][] = [];
    const summarizer = new ScriptedChatGenerator({
      respond: (messages) => `summary of ${messages.at(-1)?.text}`,
    });
    const agent = new Agent({
      chatGenerator: echoModel(seen),
      conversation: { store, id: "c" },
      historyLimit: {
        messages: 2,
        summarize: async ({ messages, summary }) => {
          summaries.push(lines(messages));
          const prompt = [...(summary === undefined ? [] : [summary]), ...messages]
            .map((message) => message.text)
            .join(" | ");
          const { replies } = await summarizer.run({ messages: [ChatMessage.fromUser(prompt)] });
          return ChatMessage.fromSystem(`Earlier: ${replies?.[0]?.text}`);
        },
      },
    });
    for (const text of ["one", "two", "three", "four"]) await agent.run({ messages: [user(text)] }, quiet());
    // Turn 3 drops turn 1 (the window holds 2 messages); turn 4 drops turn 2, summarized with the summary so far.
    expect(summaries).toEqual([
      ["user:one", "assistant:reply 1 to one"],
      ["user:two", "assistant:reply 2 to two"],
    ]);
    expect(seen[2]).toEqual([
      "system:Earlier: summary of one | reply 1 to one",
      "user:two",
      "assistant:reply 2 to two",
      "user:three",
    ]);
    expect(seen[3]).toEqual([
      "system:Earlier: summary of Earlier: summary of one | reply 1 to one | two | reply 2 to two",
      "user:three",
      "assistant:reply 3 to three",
      "user:four",
    ]);
    const stored = await store.read("c");
    expect(stored.summary?.covers).toBe(4);
    // The summary is never stored as a message.
    expect(stored.length).toBe(8);
    expect(lines(stored.messages).some((line) => line.startsWith("system:"))).toBe(false);
  });
});

describe("conversation across processes (FileConversationStore)", () => {
  const fixture = join(import.meta.dirname, "fixtures", "chat-turn.ts");
  const run = promisify(execFile);
  const turnInChild = async (dir: string, text: string) =>
    (
      await run(process.execPath, [
        "--import",
        "tsx",
        "--conditions=@junction/source",
        fixture,
        dir,
        "shared",
        text,
      ])
    ).stdout.trim();

  test("three turns, in a child process, this one, and another child, make one conversation", {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    const first = await turnInChild(dir, "one");
    expect(first).toMatch(/^pid \d+ saw: one$/);
    const seen: string[][] = [];
    const agent = new Agent({
      chatGenerator: echoModel(seen),
      systemPrompt: "You are terse.",
      conversation: { store: new FileConversationStore(dir) },
    });
    await agent.run({ messages: [user("two")], conversation_id: "shared" }, quiet());
    expect(seen[0]).toEqual(["system:You are terse.", "user:one", `assistant:${first}`, "user:two"]);
    expect(await turnInChild(dir, "three")).toMatch(/ saw: one, two, three$/);
    expect((await new FileConversationStore(dir).read("shared")).length).toBe(6);
  });

  test("a turn whose history another process extended meanwhile is refused, and nothing of it is stored", async () => {
    const dir = await tempDir();
    const other = new FileConversationStore(dir);
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        respond: async () => {
          // Another process stores a turn while this one waits for its model.
          await other.append("c", [user("elsewhere"), ChatMessage.fromAssistant("answered elsewhere")]);
          return "late";
        },
      }),
      conversation: { store: new FileConversationStore(dir), id: "c" },
    });
    const refused = agent.run({ messages: [user("here")] }, quiet());
    await expect(refused).rejects.toBeInstanceOf(ConversationConflictError);
    await expect(refused).rejects.toThrow(/has 2 messages, not the 0 this turn started from/);
    expect(lines((await other.read("c")).messages)).toEqual([
      "user:elsewhere",
      "assistant:answered elsewhere",
    ]);
  });
});

describe("conversation options", () => {
  test("are checked when the Agent is built", () => {
    const chatGenerator = echoModel();
    expect(() => new Agent({ chatGenerator, historyLimit: { messages: 10 } })).toThrow(
      /historyLimit: limits the stored history, but the Agent has no conversation option/,
    );
    expect(() => new Agent({ chatGenerator, conversation: { store: {} as never } })).toThrow(
      /conversation\.store: must be a ConversationStore/,
    );
    expect(
      () =>
        new Agent({
          chatGenerator,
          conversation: { store: new MemoryConversationStore() },
          historyLimit: { messages: 0 },
        }),
    ).toThrow(/historyLimit\.messages/);
  });

  test("a FileConversationStore and the history limit are written to a document and read back", async () => {
    const dir = await tempDir();
    const summarize = ({ messages }: { messages: readonly ChatMessage[] }) =>
      ChatMessage.fromSystem(`${messages.length} earlier messages`);
    const reply = () => "ok";
    const registry = createRegistry()
      .registerFunction("test.summarize", summarize)
      .registerFunction("test.reply", reply);
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({ respond: reply }),
      conversation: { store: new FileConversationStore(dir), id: "doc" },
      historyLimit: { messages: 20, summarize },
    });
    const doc = serializeComponent(agent, { registry });
    expect(doc.init_parameters.conversation).toEqual({
      store: { type: "junction.FileConversationStore", directory: dir },
      id: "doc",
    });
    expect(doc.init_parameters.historyLimit).toEqual({ messages: 20, summarize: "test.summarize" });
    const loaded = deserializeComponent(JSON.parse(JSON.stringify(doc)), { registry }) as typeof agent;
    await loaded.run({ messages: [user("hello")] }, quiet());
    expect((await new FileConversationStore(dir).read("doc")).length).toBe(2);
    expect(() =>
      serializeComponent(
        new Agent({
          chatGenerator: new ScriptedChatGenerator({ respond: reply }),
          conversation: { store: new MemoryConversationStore() },
        }),
        { registry },
      ),
    ).toThrow(/MemoryConversationStore\) cannot be written to a document/);
  });
});
