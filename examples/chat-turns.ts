/**
 * A chat with memory: three turns of the tip agent on one conversation, offline. Each turn sends only
 * the new question; the agent loads the stored history (a `FileConversationStore`), and appends the
 * turn's messages when it completes. Follow-ups ("And in Japan?") work because the model sees the
 * earlier question.
 *
 * The history sent to the model is bounded (`historyLimit: { messages: 8 }`, whole turns only), and
 * what falls out of the window is replaced by a summary written by a second scripted model — so the
 * third turn still knows the amount from the first, through the summary.
 *
 * Run: npx tsx --conditions=@junction/source examples/chat-turns.ts [directory]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@junction/agents";
import { ChatMessage, FileConversationStore, ScriptedChatGenerator } from "@junction/llm";
import { type ExampleIO, runIfMain } from "./io.js";
import { offlineTipModel } from "./tip-agent/offline-model.js";
import { tipSystemPrompt } from "./tip-agent/pipeline.js";
import { calculator, search, tipStateSchema } from "./tip-agent/tools.js";

/** The questions, one per turn. */
export const questions = [
  "Calculate the appropriate tip for an €85 meal in France",
  "And in Japan?",
  "What about the United States?",
];

/** A scripted "summarizer model": it keeps the questions asked so far (and the previous summary). */
const summarizer = new ScriptedChatGenerator({
  respond: (messages) => {
    const asked = messages
      .filter((message) => message.role === "user")
      .map((message) => `"${message.text}"`)
      .join(", ");
    const before = messages.find(
      (message) => message.role === "system" && message.text?.startsWith("Earlier"),
    );
    return `Earlier in this conversation the user asked: ${[before?.text?.replace(/^Earlier in this conversation the user asked: /, ""), asked].filter(Boolean).join(", ")}.`;
  },
});

/** Runs three turns and returns the answers and what was stored. */
export async function main(
  io: ExampleIO,
  options: { directory?: string } = {},
): Promise<{ answers: string[]; sent: number[]; stored: number; summary: string | undefined }> {
  const directory = options.directory ?? process.argv[2] ?? mkdtempSync(join(tmpdir(), "junction-chat-"));
  const store = new FileConversationStore(directory);
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({ respond: offlineTipModel }),
    tools: [search, calculator],
    stateSchema: tipStateSchema,
    systemPrompt: tipSystemPrompt,
    conversation: { store, id: "trip" },
    historyLimit: {
      messages: 8,
      summarize: async ({ messages, summary, signal }) => {
        const { replies } = await summarizer.run(
          { messages: [...(summary === undefined ? [] : [summary]), ...messages] },
          { signal },
        );
        return ChatMessage.fromSystem(replies?.[0]?.text ?? "");
      },
    },
  });
  const answers: string[] = [];
  const sent: number[] = [];
  for (const question of questions) {
    const before = (await store.read("trip")).length;
    const result = await agent.run({ messages: [ChatMessage.fromUser(question)] });
    const answer = result.last_message?.text ?? "";
    // The messages the model saw on its first call of the turn: system prompt, history window, question.
    const added = (await store.read("trip")).length - before;
    sent.push(result.messages.length - added);
    answers.push(answer);
    io.write(
      `> ${question}\n${answer}\n(sent with it: the system prompt and ${(sent.at(-1) ?? 1) - 1} messages of history; stored: ${before + added})\n\n`,
    );
  }
  const stored = await store.read("trip");
  io.write(`${stored.length} messages kept in ${join(directory, "trip", "messages.jsonl")}\n`);
  if (stored.summary !== undefined)
    io.write(`summary of the first ${stored.summary.covers}: ${stored.summary.message.text}\n`);
  return { answers, sent, stored: stored.length, summary: stored.summary?.message.text };
}

runIfMain(import.meta.url, main);
