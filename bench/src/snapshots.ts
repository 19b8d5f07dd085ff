/**
 * W8: the cost of run snapshots (docs/interrupts.md). An agent whose last tool call needs approval pauses
 * after `steps` steps; we measure
 * - saving its snapshot to a `FileRunStore` (temp file, fsync, link, directory fsync) and loading it back
 *   (read, untrusted-data copy, schema), at two conversation lengths, with the bytes written;
 * - a resume from the store: claim (`running` snapshot), the paused step's tool, one model call, the
 *   `completed` snapshot;
 * - a run with a store and run id where nothing interrupts, against the same run without them (nothing
 *   is written: the figure must be ~equal);
 * - `durability: "steps"` on a FileRunStore: µs and bytes written per agent step at 10, 100 and 1,000
 *   steps (deltas: flat as the conversation grows), next to the same run in memory.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@junction/agents";
import { FileRunStore, MemoryRunStore, RunInterruptedError, type RunSnapshot } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";
import { type CompareOptions, compare, median } from "./harness.js";

/** One result line. */
export interface SnapshotRow {
  readonly measure: string;
  readonly value: number;
  readonly unit: string;
}

/** An agent that calls `increment` for `steps` steps; with `gateLast`, the last call needs approval. */
function countingAgent(steps: number, gateLast: boolean) {
  const increment = tool({
    name: "increment",
    description: "Adds one to a number.",
    parameters: z.object({ value: z.number() }),
    needsApproval: ({ value }) => gateLast && value === steps,
    function: ({ value }) => String(value + 1),
  });
  let turn = 0;
  const generator = new ScriptedChatGenerator({
    respond: (messages) => {
      // The turn is the number of tool results so far + 1 (so a resumed run continues the count).
      turn = messages.filter((message) => message.role === "tool").length + 1;
      return turn > steps
        ? { text: "done" }
        : { toolCalls: [{ toolName: "increment", arguments: { value: turn } }] };
    },
  });
  return new Agent({ chatGenerator: generator, tools: [increment], maxAgentSteps: steps + 1 });
}

const question = () => ({ messages: [ChatMessage.fromUser("count")] });

async function pausedSnapshot(steps: number): Promise<RunSnapshot> {
  try {
    await countingAgent(steps, true).run(question());
  } catch (error) {
    if (error instanceof RunInterruptedError && error.snapshot !== undefined) return error.snapshot;
    throw error;
  }
  throw new Error("the agent did not pause");
}

function timeMany(count: number, run: (index: number) => Promise<void>): () => Promise<number> {
  return async () => {
    const start = performance.now();
    for (let index = 0; index < count; index++) await run(index);
    return ((performance.now() - start) * 1000) / count;
  };
}

/** Runs W8 and returns its rows. */
export async function snapshotBench(quick: boolean, rounds: CompareOptions): Promise<SnapshotRow[]> {
  const rows: SnapshotRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), "junction-bench-snapshots-"));
  try {
    let runs = 0;
    for (const steps of quick ? [5] : [10, 100]) {
      const snapshot = await pausedSnapshot(steps);
      const store = new FileRunStore(join(dir, `store-${steps}`), { keep: 1 });
      const count = quick ? 2 : 20;
      const saved: string[] = [];
      const save = timeMany(count, async () => {
        const runId = `r${runs++}`;
        await store.save({ ...snapshot, runId }, null);
        saved.push(runId);
      });
      const load = timeMany(count, async (index) => {
        await store.load(saved[index % saved.length]!);
      });
      const figures = await compare({ save, load }, rounds);
      const bytes = statSync(join(store.directory, saved[0]!, "0000000001.json")).size;
      rows.push(
        { measure: `save, ${steps}-step conversation (FileRunStore)`, value: figures.save!, unit: "µs" },
        { measure: `load, ${steps}-step conversation (FileRunStore)`, value: figures.load!, unit: "µs" },
        { measure: `snapshot size, ${steps}-step conversation`, value: bytes / 1024, unit: "KiB" },
      );
    }

    // A resume from the store: pause a fresh run (untimed), then time the resume alone.
    const resumeSteps = quick ? 5 : 10;
    const resumeStore = new FileRunStore(join(dir, "resume"), { keep: 3 });
    const agent = countingAgent(resumeSteps, true);
    const resumes: number[] = [];
    for (let index = 0; index < (quick ? 1 : rounds.warmup + rounds.repeats); index++) {
      const runId = `resume-${index}`;
      const paused = await agent.run(question(), { store: resumeStore, runId }).catch((error: unknown) => {
        if (error instanceof RunInterruptedError) return error;
        throw error;
      });
      if (!(paused instanceof RunInterruptedError)) throw new Error("the agent did not pause");
      const start = performance.now();
      await agent.resume(
        runId,
        { [paused.interrupts[0]!.id]: { action: "approve" } },
        { store: resumeStore },
      );
      resumes.push(performance.now() - start);
    }
    rows.push({
      measure: `resume from FileRunStore, ${resumeSteps}-step conversation`,
      value: median(resumes.slice(quick ? 0 : rounds.warmup)),
      unit: "ms",
    });

    // Nothing interrupts: a store and a run id cost nothing (nothing is written).
    const steps = quick ? 5 : 50;
    const plainAgent = countingAgent(steps, false);
    const memory = new MemoryRunStore();
    const file = new FileRunStore(join(dir, "idle"));
    let id = 0;
    const perStep = (options: () => object) => async () => {
      const start = performance.now();
      let repetitions = 0;
      do {
        await plainAgent.run(question(), options());
        repetitions++;
      } while (performance.now() - start < (quick ? 0 : 50));
      return ((performance.now() - start) * 1000) / (steps * repetitions);
    };
    const idle = await compare(
      {
        plain: perStep(() => ({})),
        memory: perStep(() => ({ store: memory, runId: `m${id++}` })),
        file: perStep(() => ({ store: file, runId: `f${id++}` })),
      },
      rounds,
    );
    rows.push(
      { measure: `agent ${steps} steps, nothing interrupts, no store`, value: idle.plain!, unit: "µs/step" },
      { measure: "  … with a MemoryRunStore", value: idle.memory!, unit: "µs/step" },
      { measure: "  … with a FileRunStore", value: idle.file!, unit: "µs/step" },
    );

    // durability "steps": a delta per model call and per tool call, so the cost and the bytes written per
    // step stay flat as the conversation grows (a full snapshot per step would grow with it).
    for (const steps of quick ? [5, 20] : [10, 100, 1000]) {
      const stepsAgent = countingAgent(steps, false);
      const times: number[] = [];
      const plainTimes: number[] = [];
      let deltaBytes = 0;
      for (let round = 0; round < (quick || steps >= 1000 ? 1 : 3); round++) {
        const store = new FileRunStore(join(dir, `steps-${steps}-${round}`));
        const runId = `steps-${steps}`;
        let start = performance.now();
        await stepsAgent.run(question(), { store, runId, durability: "steps" });
        times.push(((performance.now() - start) * 1000) / steps);
        deltaBytes = statSync(join(store.directory, runId, "0000000001.deltas.jsonl")).size;
        start = performance.now();
        await stepsAgent.run(question());
        plainTimes.push(((performance.now() - start) * 1000) / steps);
      }
      // A takeover of that run after a "crash" at its end: the same start snapshot and deltas, left by a
      // process that no longer exists. Every step is replayed (no model call, no tool), then it ends.
      const crashedStore = new FileRunStore(join(dir, `steps-${steps}-crashed`));
      const finished = new FileRunStore(join(dir, `steps-${steps}-0`));
      const runId = `steps-${steps}`;
      const start = (await finished.load(runId, 1))!;
      await crashedStore.save({ ...start, lease: { ...start.lease!, pid: 2 ** 22 + 1 } }, null);
      for (const delta of await finished.deltas(runId, 1)) await crashedStore.appendDelta(runId, 1, delta);
      const takeoverStart = performance.now();
      await stepsAgent.resume(runId, {}, { store: crashedStore });
      const takeover = performance.now() - takeoverStart;
      rows.push(
        {
          measure: `durability "steps", ${steps}-step run (FileRunStore)`,
          value: median(times),
          unit: "µs/step",
        },
        { measure: "  … the same run in memory", value: median(plainTimes), unit: "µs/step" },
        { measure: "  … bytes written per step (deltas)", value: deltaBytes / steps, unit: "B/step" },
        { measure: "  … takeover after a crash at the end (all replayed)", value: takeover, unit: "ms" },
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
