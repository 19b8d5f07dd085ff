/**
 * An agent whose tools share State: `save_note` writes the `notes` key (`outputsToState`), and
 * `summarize_notes` reads it (`inputsFromState`). The model asks for the reader *before* the writer in
 * one turn; the scheduler runs the writer first so the reader sees the new note. The plan is printed.
 *
 * Run: npx tsx --conditions=@junction/source examples/shared-state-agent.ts
 */
import { Agent, planToolCalls } from "@junction/agents";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

/** Writes a note into State. */
export const saveNote = tool({
  name: "save_note",
  description: "Saves a note.",
  parameters: z.object({ note: z.string() }),
  function: ({ note }) => ({ saved: note }),
  outputsToState: { notes: { source: "saved" } },
});

/** Reads every note from State (the model does not pass `notes`; State does). */
export const summarizeNotes = tool({
  name: "summarize_notes",
  description: "Summarizes the saved notes.",
  parameters: z.object({ notes: z.array(z.string()) }),
  function: ({ notes }) => `${notes.length} note(s): ${notes.join("; ")}`,
  inputsFromState: { notes: "notes" },
});

/** Runs the agent and prints the plan and the outcome. */
export async function main(io: ExampleIO): Promise<{ notes: unknown; answer: string | undefined }> {
  const calls = [
    { toolName: "summarize_notes", arguments: {} },
    { toolName: "save_note", arguments: { note: "buy milk" } },
  ];
  const tools = [saveNote, summarizeNotes];
  const batches = planToolCalls(calls, tools);
  io.write(
    `plan for [${calls.map((call, index) => `${index}:${call.toolName}`).join(", ")}]: ${batches.map((batch) => `[${batch.join(", ")}]`).join(" → ")}\n`,
  );
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({ script: [{ toolCalls: calls }, "Noted."] }),
    tools,
    stateSchema: { notes: { type: z.array(z.string()) } },
  });
  const result = await agent.run({
    messages: [ChatMessage.fromUser("Remember to buy milk, then summarize.")],
    notes: ["call mom"],
  });
  for (const message of result.messages ?? []) {
    if (message.role === "tool")
      io.write(`${message.toolCallResult?.origin.toolName} → ${String(message.toolCallResult?.result)}\n`);
  }
  io.write(`notes in State: ${JSON.stringify(result.notes)}\nanswer: ${result.last_message?.text}\n`);
  return { notes: result.notes, answer: result.last_message?.text };
}

runIfMain(import.meta.url, main);
