import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@junction/agents";
import { ComponentError, createRegistry, deserializeComponent, serializeComponent } from "@junction/core";
import {
  ChatMessage,
  RecordingChatGenerator,
  ReplayChatGenerator,
  ScriptedChatGenerator,
  type StreamingChunk,
  tool,
} from "@junction/llm";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const dir = mkdtempSync(join(tmpdir(), "junction-cassette-"));
let count = 0;
const cassettePath = () => join(dir, `run-${++count}.jsonl`);

const add = tool({
  name: "add",
  description: "Adds two numbers",
  parameters: z.object({ a: z.number(), b: z.number() }),
  function: ({ a, b }) => a + b,
});

function scriptedModel() {
  return new ScriptedChatGenerator({
    model: "real-model-stand-in",
    stream: true,
    script: [
      { toolCalls: [{ toolName: "add", arguments: { a: 2, b: 3 }, id: "c1" }], reasoning: "Use the tool." },
      { text: "2 + 3 = 5.", usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } },
    ],
  });
}

describe("RecordingChatGenerator and ReplayChatGenerator", () => {
  it("record an agent run once and replay it exactly, offline, chunks included", async () => {
    const cassette = cassettePath();
    const question = [ChatMessage.fromUser("What is 2 + 3?")];
    const recordedChunks: StreamingChunk[] = [];
    const recording = new Agent({
      chatGenerator: new RecordingChatGenerator({ generator: scriptedModel(), cassette }),
      tools: [add],
      streamingCallback: (chunk) => {
        recordedChunks.push(chunk);
      },
    });
    const recorded = await recording.run({ messages: question });
    const lines = readFileSync(cassette, "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      version: 1,
      generator: "junction.ScriptedChatGenerator",
      request: {
        messages: [{ role: "user", content: [{ text: "What is 2 + 3?" }] }],
        tools: [{ name: "add" }],
      },
    });

    const replayedChunks: StreamingChunk[] = [];
    const replaying = new Agent({
      chatGenerator: new ReplayChatGenerator({ cassette }),
      tools: [add],
      streamingCallback: (chunk) => {
        replayedChunks.push(chunk);
      },
    });
    const replayed = await replaying.run({ messages: question });
    expect(replayed.messages?.map((message) => message.toJSON())).toEqual(
      recorded.messages?.map((message) => message.toJSON()),
    );
    expect(replayed.token_usage).toEqual(recorded.token_usage);
    expect(
      replayedChunks.map((chunk) => [chunk.content, chunk.index, chunk.toolCalls, chunk.finishReason]),
    ).toEqual(
      recordedChunks.map((chunk) => [chunk.content, chunk.index, chunk.toolCalls, chunk.finishReason]),
    );
  });

  it("fails clearly on a request it has not seen, with a diff against the closest recorded one", async () => {
    const cassette = cassettePath();
    const recording = new RecordingChatGenerator({
      generator: new ScriptedChatGenerator({ script: ["Paris."] }),
      cassette,
    });
    await recording.run({
      messages: [ChatMessage.fromSystem("Be brief."), ChatMessage.fromUser("Capital of France?")],
    });

    const replay = new ReplayChatGenerator({ cassette });
    const run = replay.run({
      messages: [ChatMessage.fromSystem("Be brief."), ChatMessage.fromUser("Capital of Italy?")],
      generation_kwargs: { temperature: 0 },
    });
    await expect(run).rejects.toThrow(ComponentError);
    await expect(run).rejects.toThrow(
      /no recorded reply for this request .*closest recorded request \(line 1\) differs in:\n {2}- generation_kwargs\.temperature: recorded undefined, now 0\n {2}- messages\[1\]\.content\[0\]\.text: recorded "Capital of France\?", now "Capital of Italy\?"/s,
    );
  });

  it("never writes credentials or headers into a cassette", async () => {
    const cassette = cassettePath();
    const recording = new RecordingChatGenerator({
      generator: new ScriptedChatGenerator({ script: ["ok"] }),
      cassette,
    });
    await recording.run({
      messages: [ChatMessage.fromUser("hi")],
      generation_kwargs: {
        temperature: 0,
        api_key: "sk-live-123",
        extra_headers: { Authorization: "Bearer tok-456" },
        providerOptions: { openai: { apiKey: "sk-live-789", user: "u1" } },
      },
    });
    const text = readFileSync(cassette, "utf8");
    expect(text).not.toMatch(/sk-live|tok-456|Bearer/);
    expect(JSON.parse(text).request.generation_kwargs).toEqual({
      temperature: 0,
      providerOptions: { openai: { user: "u1" } },
    });
  });

  it("replays a request seen twice in recorded order", async () => {
    const cassette = cassettePath();
    const recording = new RecordingChatGenerator({
      generator: new ScriptedChatGenerator({ script: ["first", "second"] }),
      cassette,
    });
    const ask = { messages: [ChatMessage.fromUser("again?")] };
    await recording.run(ask);
    await recording.run(ask);
    const replay = new ReplayChatGenerator({ cassette });
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await replay.run(ask)).replies?.[0]?.text);
    expect(texts).toEqual(["first", "second", "second"]);
  });

  it("saves the recording generator with its wrapped generator", () => {
    const generator = new RecordingChatGenerator({
      generator: new ScriptedChatGenerator({ script: ["x"] }),
      cassette: "c.jsonl",
    });
    const registry = createRegistry();
    const doc = serializeComponent(generator, { registry });
    expect(doc).toMatchObject({
      type: "junction.RecordingChatGenerator",
      init_parameters: { cassette: "c.jsonl", generator: { type: "junction.ScriptedChatGenerator" } },
    });
    expect(serializeComponent(deserializeComponent(doc, { registry }), { registry })).toEqual(doc);
    expect(serializeComponent(new ReplayChatGenerator({ cassette: "c.jsonl" }), { registry })).toEqual({
      type: "junction.ReplayChatGenerator",
      init_parameters: { cassette: "c.jsonl" },
    });
  });
});
