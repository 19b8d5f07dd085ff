import { Agent } from "@junction/agents";
import {
  defineComponent,
  inProcessDurable,
  MemoryLogger,
  Pipeline,
  type PipelineOutputs,
  variadic,
} from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { JournalDurable, type JournalEntry } from "./support/journal-durable.js";

/** The durability seam: what a journaling backend sees, and that a replay repeats no finished work. */

let delays: number[] = [];
let cursor = 0;
const runs: string[] = [];

const Mix = defineComponent({
  type: "itest.durable.Mix",
  inputs: { parts: variadic(z.string().default("seed")) },
  outputs: { text: z.string() },
  run: async ({ parts }, { componentName }) => {
    runs.push(componentName!);
    const wait = delays.length === 0 ? 0 : delays[cursor++ % delays.length]!;
    await new Promise((resolve) => setTimeout(resolve, wait));
    return { text: `${componentName}(${parts.join(",")})` };
  },
});

/** A diamond with a side branch: members of one wave wait on different senders. */
function diamond(): Pipeline {
  const pipeline = new Pipeline({ logger: new MemoryLogger() });
  for (const name of ["a", "b", "c", "d", "e", "f"]) pipeline.addComponent(name, new Mix());
  pipeline.connect("a.text", "c.parts").connect("b.text", "d.parts").connect("a.text", "e.parts");
  pipeline.connect("c.text", "f.parts").connect("d.text", "f.parts").connect("e.text", "f.parts");
  return pipeline;
}

async function record(pipeline: Pipeline, concurrency: number, latencies: number[]) {
  delays = latencies;
  cursor = 0;
  runs.length = 0;
  const durable = new JournalDurable();
  const outputs = await pipeline.run({}, { durable, concurrency });
  return { outputs, journal: durable.entries };
}

describe("pipelines on a durable backend", () => {
  test("each component run is a step named component#visit, started in the same order whatever the timing", async () => {
    const pipeline = diamond();
    const plain = await pipeline.run({});
    const slowFirst = await record(pipeline, Number.POSITIVE_INFINITY, [9, 0, 3, 0, 5, 1]);
    const fastFirst = await record(pipeline, Number.POSITIVE_INFINITY, [0, 9, 0, 4, 0, 2]);
    const capped = await record(pipeline, 2, [3, 1, 0, 2]);
    expect(slowFirst.outputs).toEqual(plain);
    expect(slowFirst.journal.map((entry) => entry.name)).toEqual(["a#1", "b#1", "c#1", "d#1", "e#1", "f#1"]);
    expect(fastFirst.journal).toEqual(slowFirst.journal);
    expect(capped.journal).toEqual(slowFirst.journal);
  });

  test("random DAGs: the journal does not depend on latencies or concurrency, and replays with other latencies", async () => {
    const graphs = fc.integer({ min: 2, max: 7 }).chain((size) =>
      fc.record({
        size: fc.constant(size),
        edges: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: size * 2 }),
        latencies: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 10 }),
        cap: fc.integer({ min: 1, max: 4 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(graphs, async ({ size, edges, latencies, cap }) => {
        const pipeline = new Pipeline({ logger: new MemoryLogger() });
        for (let index = 0; index < size; index += 1) pipeline.addComponent(`n${index}`, new Mix());
        const seen = new Set<string>();
        for (const [a, b] of edges) {
          if (a < b && !seen.has(`${a},${b}`)) pipeline.connect(`n${a}.text`, `n${b}.parts`);
          seen.add(`${a},${b}`);
        }
        const reference = await record(pipeline, 1, []);
        const fast = await record(pipeline, Number.POSITIVE_INFINITY, latencies);
        expect(fast.journal).toEqual(reference.journal);
        expect((await record(pipeline, cap, latencies)).journal).toEqual(reference.journal);
        delays = [...latencies].reverse();
        const replay = new JournalDurable(reference.journal.slice(0, Math.floor(size / 2)));
        expect(await pipeline.run({}, { durable: replay })).toEqual(reference.outputs);
      }),
      { numRuns: 25 },
    );
  });

  test("a replay returns recorded results and runs only the step that was in flight", async () => {
    const pipeline = diamond();
    const first = await record(pipeline, Number.POSITIVE_INFINITY, [1, 0, 2]);
    // The run "crashed" while d was running: its completion is missing from the journal.
    const journal: JournalEntry[] = first.journal
      .slice(0, 4)
      .map((entry) => (entry.name === "d#1" ? { name: entry.name } : entry));
    delays = [0, 5, 1];
    runs.length = 0;
    const durable = new JournalDurable(journal);
    const outputs: PipelineOutputs = await pipeline.run({}, { durable });
    expect(outputs).toEqual(first.outputs);
    expect(durable.executed).toEqual(["d#1", "e#1", "f#1"]);
    expect(runs.sort()).toEqual(["d", "e", "f"]);
  });

  test("the in-process durable object behaves like no durable at all", async () => {
    const pipeline = diamond();
    delays = [];
    expect(await pipeline.run({}, { durable: inProcessDurable })).toEqual(await pipeline.run({}));
  });
});

describe("agents on a durable backend", () => {
  const executions: string[] = [];
  const lookup = tool({
    name: "lookup",
    description: "Looks a word up",
    parameters: z.object({ word: z.string() }),
    outputsToState: { notes: {} },
    function: async ({ word }) => {
      executions.push(`lookup:${word}`);
      await new Promise((resolve) => setTimeout(resolve, word === "slow" ? 5 : 0));
      return `${word} means ${word.length}`;
    },
  });
  let modelCalls = 0;
  /** Replies from the conversation, not from a counter, so a fresh process answers the same. */
  function agent(): InstanceType<typeof Agent> {
    return new Agent({
      chatGenerator: new ScriptedChatGenerator({
        respond: (messages) => {
          modelCalls += 1;
          const turns = messages.filter((message) => message.role === "assistant").length;
          return turns === 0
            ? {
                toolCalls: [
                  { toolName: "lookup", arguments: { word: "slow" }, id: "call_1" },
                  { toolName: "lookup", arguments: { word: "ok" }, id: "call_2" },
                ],
              }
            : `done after ${messages.filter((message) => message.role === "tool").length} results`;
        },
      }),
      tools: [lookup],
      stateSchema: { notes: { type: z.array(z.string()) } },
    });
  }

  test("model calls and tool calls are steps; a replay repeats neither the model call nor finished tools", async () => {
    const inputs = { messages: [ChatMessage.fromUser("define")] };
    const plain = await agent().run(inputs, { logger: new MemoryLogger() });
    executions.length = 0;
    modelCalls = 0;
    const durable = new JournalDurable();
    const recorded = await agent().run(inputs, { durable, logger: new MemoryLogger() });
    expect(durable.entries.map((entry) => entry.name)).toEqual([
      "llm#0",
      "tool#0/call_1",
      "tool#0/call_2",
      "llm#1",
    ]);
    expect(JSON.stringify(recorded)).toEqual(JSON.stringify(plain));
    // Crash while call_1 (the slow one) was running: call_2 had finished.
    const journal = durable.entries
      .slice(0, 3)
      .map((entry) => (entry.name === "tool#0/call_1" ? { name: entry.name } : entry));
    executions.length = 0;
    modelCalls = 0;
    const replay = new JournalDurable(journal);
    const resumed = await agent().run(inputs, { durable: replay, logger: new MemoryLogger() });
    expect(JSON.stringify(resumed)).toEqual(JSON.stringify(plain));
    expect(executions).toEqual(["lookup:slow"]);
    expect(modelCalls).toBe(1);
    expect(replay.executed).toEqual(["tool#0/call_1", "llm#1"]);
  });

  test("an agent inside a pipeline records its steps under its own name and runs on its own", async () => {
    const pipeline = new Pipeline({ logger: new MemoryLogger() });
    pipeline
      .addComponent("before", new Mix())
      .addComponent("agent", agent())
      .addComponent("after", new Mix());
    delays = [];
    const durable = new JournalDurable();
    await pipeline.run(
      { agent: { messages: [ChatMessage.fromUser("define")] } },
      { durable, includeOutputsFrom: ["agent"] },
    );
    expect(durable.entries.map((entry) => entry.name)).toEqual([
      "after#1",
      "agent#1/llm#0",
      "agent#1/tool#0/call_1",
      "agent#1/tool#0/call_2",
      "agent#1/llm#1",
      "before#1",
    ]);
  });
});
