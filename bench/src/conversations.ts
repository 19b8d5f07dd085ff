/**
 * W9: the cost of agent memory (docs/conversations.md). One agent turn (a scripted one-reply model) on a
 * `FileConversationStore` conversation that already holds 10, 1,000 and 10,000 messages, with
 * `historyLimit: { messages: 20 }`: loading is a tail read from the file's end and storing is one
 * appended line, so the turn's cost must stay flat as the conversation grows. Also: the same turn with
 * no conversation (the baseline), the store's append + tail read alone, and — for contrast — a read of
 * the whole history.
 *
 * Conversations are seeded by writing the store's own file format (one line per two-message turn),
 * which is what thousands of appended turns leave behind, without thousands of fsyncs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@junction/agents";
import { ChatMessage, FileConversationStore, ScriptedChatGenerator } from "@junction/llm";
import { type CompareOptions, median } from "./harness.js";

/** One result line. */
export interface ConversationRow {
  readonly measure: string;
  readonly value: number;
  readonly unit: string;
}

/** Writes a conversation of `length` messages (user/assistant pairs) in the file store's format. */
function seed(directory: string, id: string, length: number): void {
  mkdirSync(join(directory, id), { recursive: true });
  const lines: string[] = [];
  for (let at = 0; at < length; at += 2) {
    const messages = [
      ChatMessage.fromUser(`question ${at / 2}: what is ${at} plus two?`),
      ChatMessage.fromAssistant(`It is ${at + 2}. Anything else I can compute for you today?`),
    ];
    lines.push(JSON.stringify({ v: 1, at, messages }));
  }
  writeFileSync(join(directory, id, "messages.jsonl"), lines.length === 0 ? "" : `${lines.join("\n")}\n`);
}

/** Times `count` calls one by one; the median in ms. */
async function medianMs(count: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Runs W9 and returns its rows. */
export async function conversationBench(quick: boolean, rounds: CompareOptions): Promise<ConversationRow[]> {
  const rows: ConversationRow[] = [];
  const directory = mkdtempSync(join(tmpdir(), "junction-bench-conversations-"));
  const turns = quick ? 2 : 10 * (rounds.warmup + rounds.repeats);
  try {
    const store = new FileConversationStore(directory);
    const chatGenerator = new ScriptedChatGenerator({ script: ["Noted."], onScriptEnd: "repeatLast" });
    const agent = new Agent({ chatGenerator, conversation: { store }, historyLimit: { messages: 20 } });
    const stateless = new Agent({ chatGenerator });
    const question = () => [ChatMessage.fromUser("And what is 2 plus 2?")];
    const sizes = quick ? [10, 1_000] : [10, 1_000, 10_000];
    for (const size of sizes) seed(directory, `c${size}`, size);
    // Warm the code paths (untimed).
    for (let index = 0; index < 3; index++) {
      await agent.run({ messages: question(), conversation_id: "c10" });
      await stateless.run({ messages: question() });
    }
    rows.push({
      measure: "agent turn, no conversation (baseline)",
      value: await medianMs(turns, () => stateless.run({ messages: question() })),
      unit: "ms",
    });
    for (const size of sizes) {
      rows.push({
        measure: `agent turn, ${size.toLocaleString("en")}-message conversation, historyLimit 20`,
        value: await medianMs(turns, () => agent.run({ messages: question(), conversation_id: `c${size}` })),
        unit: "ms",
      });
    }
    for (const size of sizes) {
      const id = `s${size}`;
      seed(directory, id, size);
      rows.push({
        measure: `store: append 2 + read last 20, ${size.toLocaleString("en")} messages`,
        value: await medianMs(turns, async () => {
          const { length } = await store.read(id, { last: 20 });
          await store.append(id, question(), { expectedLength: length });
        }),
        unit: "ms",
      });
    }
    const whole = sizes.at(-1)!;
    rows.push({
      measure: `store: read the whole history, ${whole.toLocaleString("en")} messages (no limit)`,
      value: await medianMs(quick ? 1 : 10, () => store.read(`s${whole}`)),
      unit: "ms",
    });
    return rows;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
