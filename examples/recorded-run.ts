/**
 * Recording a model run once and replaying it offline: `RecordingChatGenerator` writes each model call
 * to a JSONL cassette; `ReplayChatGenerator` answers from it, exactly, and names what changed when a
 * request was never recorded.
 *
 * A scripted model stands in for the real one so the example runs offline; in a project you would
 * record with `OpenAIChatGenerator` or an AI SDK model once, commit the cassette, and replay in CI.
 *
 * Run: npx tsx --conditions=@junction/source examples/recorded-run.ts
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@junction/agents";
import {
  ChatMessage,
  RecordingChatGenerator,
  ReplayChatGenerator,
  ScriptedChatGenerator,
  tool,
} from "@junction/llm";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

const add = tool({
  name: "add",
  description: "Adds two numbers",
  parameters: z.object({ a: z.number(), b: z.number() }),
  function: ({ a, b }) => a + b,
});

/** Records, replays, then asks something new; returns what the replay answered and the error. */
export async function main(
  io: ExampleIO,
  cassette = join(mkdtempSync(join(tmpdir(), "junction-cassette-")), "add.jsonl"),
): Promise<{ recorded: string | undefined; replayed: string | undefined; error: string }> {
  const question = [ChatMessage.fromUser("What is 2 + 3?")];
  const realModel = new ScriptedChatGenerator({
    model: "stand-in",
    script: [{ toolCalls: [{ toolName: "add", arguments: { a: 2, b: 3 } }] }, "2 + 3 = 5."],
  });
  const recording = new Agent({
    chatGenerator: new RecordingChatGenerator({ generator: realModel, cassette }),
    tools: [add],
  });
  const recorded = await recording.run({ messages: question });
  const lines = readFileSync(cassette, "utf8").trim().split("\n").length;
  io.write(`recorded ${lines} model calls to ${cassette}\n`);

  const replaying = new Agent({ chatGenerator: new ReplayChatGenerator({ cassette }), tools: [add] });
  const replayed = await replaying.run({ messages: question });
  io.write(`replayed answer: ${replayed.last_message?.text}\n`);

  let error = "";
  try {
    await replaying.run({ messages: [ChatMessage.fromUser("What is 2 + 4?")] });
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    io.write(`a new question is refused:\n${error}\n`);
  }
  return { recorded: recorded.last_message?.text, replayed: replayed.last_message?.text, error };
}

runIfMain(import.meta.url, main);
