/**
 * `pnpm bench`: Junction and LangGraph.js side by side, with the plain-JavaScript floor.
 *
 * Each workload runs in this one process with the systems alternating round by round, after a warm-up,
 * and reports medians. `--quick` runs every workload once with tiny sizes (a smoke test for CI), and
 * `--json <file>` writes the results as JSON as well.
 */

import { setMaxListeners } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type ConversationRow, conversationBench } from "./conversations.js";
import { floorAgent, floorChain, floorFanOut, floorRouter } from "./floor.js";
import { compare, elapsedMs, peakRssGrowthMiB } from "./harness.js";
import { junctionAgent } from "./junction/agents.js";
import { inlineChain, nestedOne, wrappedChain } from "./junction/composition.js";
import { junctionChain, junctionFanOut } from "./junction/pipelines.js";
import { junctionRouter, routesPerRun } from "./junction/router.js";
import { langgraphAgent, langgraphChain, langgraphFanOut } from "./langgraph/workloads.js";
import { formatPgvector } from "./pgvector/format.js";
import { type PgvectorResults, pgvectorBench } from "./pgvector/pgvector-bench.js";
import { formatRetrieval, type RetrievalResults, retrievalBench } from "./retrieval/retrieval-bench.js";
import { type SnapshotRow, snapshotBench } from "./snapshots.js";

// LangGraph adds one abort listener per node to a shared signal; silence Node's leak heuristic.
setMaxListeners(0);

const argv = process.argv.slice(2);
if (argv.includes("--restate")) {
  // Junction on Restate needs Node 22 (the Restate SDK) and a restate-server: its own script.
  const { spawnSync } = await import("node:child_process");
  const script = new URL("./restate.ts", import.meta.url).pathname;
  const node22 = ["-y", "-p", "node@22", "node", "--conditions=@junction/source", "--import", "tsx", script];
  const result = spawnSync("npx", [...node22, ...argv.filter((arg) => arg !== "--restate")], {
    stdio: "inherit",
  });
  process.exit(result.status ?? 1);
}
const quick = argv.includes("--quick");
const jsonIndex = argv.indexOf("--json");
const jsonPath = jsonIndex >= 0 ? argv[jsonIndex + 1] : undefined;
const only = argv.find((arg) => /^W\d$/.test(arg) || arg === "retrieval" || arg === "pgvector");

/** One row of the results table. */
interface Row {
  workload: string;
  unit: string;
  junction: number;
  langgraph: number;
  floor: number;
  extra?: Record<string, number>;
}

const rows: Row[] = [];
const rounds = quick ? { warmup: 0, repeats: 1 } : { warmup: 3, repeats: 9 };
const minTrialMs = quick ? 0 : 50;

/**
 * A per-item figure (µs per component, per step): repeats the workload until at least `minTrialMs` has
 * passed, so short workloads are not measured at timer resolution, and divides by the items processed.
 */
function perItem(run: () => Promise<number>, items: number, expected: number): () => Promise<number> {
  return async () => {
    const start = performance.now();
    let repetitions = 0;
    do {
      const value = await run();
      if (value !== expected) throw new Error(`workload returned ${value}, expected ${expected}`);
      repetitions += 1;
    } while (elapsedMs(start) < minTrialMs);
    return (elapsedMs(start) * 1000) / (items * repetitions);
  };
}

function wall(run: () => Promise<number>, expected: number): () => Promise<number> {
  return async () => {
    const start = performance.now();
    const value = await run();
    const ms = elapsedMs(start);
    if (value !== expected) throw new Error(`workload returned ${value}, expected ${expected}`);
    return ms;
  };
}

async function w1(): Promise<void> {
  for (const n of quick ? [10] : [10, 100, 1000]) {
    const figures = await compare(
      {
        junction: perItem(junctionChain(n), n, n),
        langgraph: perItem(langgraphChain(n), n, n),
        floor: perItem(floorChain(n), n, n),
      },
      rounds,
    );
    rows.push({ workload: `W1 chain N=${n}`, unit: "µs/component", ...pick(figures) });
  }
}

async function w2(): Promise<void> {
  const branches = 50;
  const delay = 20;
  const figures = await compare(
    {
      junction: wall(junctionFanOut(branches, delay), branches),
      langgraph: wall(langgraphFanOut(branches, delay), branches),
      floor: wall(floorFanOut(branches, delay), branches),
    },
    rounds,
  );
  rows.push({ workload: `W2 fan-out ${branches}×${delay} ms`, unit: "wall ms", ...pick(figures) });
}

async function w3(): Promise<void> {
  const steps = quick ? 5 : 50;
  // Messages: user + (assistant + tool) per step + final answer.
  const expected = 1 + steps * 2 + 1;
  const shape = { steps, callsPerStep: 1, toolDelayMs: 0 };
  const figures = await compare(
    {
      junction: perItem(junctionAgent(shape), steps, expected),
      langgraph: perItem(langgraphAgent(shape), steps, expected),
      floor: perItem(floorAgent(shape), steps, expected),
    },
    rounds,
  );
  rows.push({ workload: `W3 agent ${steps} steps`, unit: "µs/step", ...pick(figures) });
}

async function w4(): Promise<void> {
  const calls = 16;
  const shape = { steps: 1, callsPerStep: calls, toolDelayMs: 50 };
  const expected = 1 + 1 + calls + 1;
  const figures = await compare(
    {
      junction: wall(junctionAgent(shape), expected),
      langgraph: wall(langgraphAgent(shape), expected),
      floor: wall(floorAgent(shape), expected),
    },
    rounds,
  );
  rows.push({ workload: `W4 ${calls} parallel tools × 50 ms`, unit: "wall ms", ...pick(figures) });
}

async function w5(): Promise<void> {
  const steps = quick ? 200 : 2000;
  const window = quick ? 20 : 100;
  const expected = 1 + steps * 2 + 1;
  const results: Record<string, { totalMs: number; growth: number; peakMiB: number }> = {};
  const systems = {
    junction: junctionAgent,
    langgraph: langgraphAgent,
    floor: floorAgent,
  };
  // One run per system (a 2000-step run is long); the systems still alternate and share the process.
  for (const [name, make] of Object.entries(systems)) {
    const stamps: number[] = [];
    const run = make({
      steps,
      callsPerStep: 1,
      toolDelayMs: 0,
      onToolCall: () => stamps.push(performance.now()),
    });
    await make({ steps: 5, callsPerStep: 1, toolDelayMs: 0 })(); // warm the code paths
    const start = performance.now();
    const { result, peakMiB } = await peakRssGrowthMiB(run);
    const totalMs = elapsedMs(start);
    if (result !== expected) throw new Error(`${name} W5 returned ${result}, expected ${expected}`);
    const gaps = stamps.slice(1).map((stamp, index) => stamp - stamps[index]!);
    const first = gaps.slice(0, window).reduce((a, b) => a + b, 0);
    const last = gaps.slice(-window).reduce((a, b) => a + b, 0);
    results[name] = { totalMs, growth: last / first, peakMiB };
  }
  for (const [metric, unit] of [
    ["totalMs", "total ms"],
    ["growth", "last/first 100 steps"],
    ["peakMiB", "peak RSS growth MiB"],
  ] as const) {
    rows.push({
      workload: `W5 ${steps} steps`,
      unit,
      junction: results.junction![metric],
      langgraph: results.langgraph![metric],
      floor: results.floor![metric],
    });
  }
}

async function w6(): Promise<void> {
  const runs = quick ? 10 : 1000;
  for (const variant of ["plain", "regex"] as const) {
    const items = runs * routesPerRun;
    const figures = await compare(
      {
        junction: perItem(junctionRouter(variant, runs), items, runs),
        floor: perItem(floorRouter(variant, runs), items, runs),
      },
      rounds,
    );
    // LangGraph.js has no expression router to compare with.
    rows.push({
      workload: `W6 router, ${variant === "plain" ? "comparisons" : "matches()"}`,
      unit: "µs/route",
      junction: figures.junction!,
      langgraph: Number.NaN,
      floor: figures.floor!,
    });
  }
}

/** W7 figures (Junction only: inline chain vs SuperComponent-wrapped). */
const composition: { workload: string; inline: number; wrapped: number; overhead: number }[] = [];

async function w7(): Promise<void> {
  for (const n of quick ? [10] : [10, 100]) {
    const figures = await compare(
      { inline: perItem(inlineChain(n), n, n), wrapped: perItem(wrappedChain(n), n, n) },
      rounds,
    );
    composition.push({
      workload: `W7 chain N=${n}, each component in a SuperComponent (µs/component)`,
      inline: figures.inline!,
      wrapped: figures.wrapped!,
      overhead: figures.wrapped! - figures.inline!,
    });
  }
  const depth = quick ? 3 : 20;
  const figures = await compare(
    { inline: perItem(nestedOne(0), 1, 1), wrapped: perItem(nestedOne(depth), depth, 1) },
    rounds,
  );
  composition.push({
    workload: `W7 one component nested ${depth} SuperComponents deep (µs/level; inline = whole run)`,
    inline: figures.inline!,
    wrapped: figures.wrapped!,
    overhead: figures.wrapped!,
  });
}

/** W8: run snapshots (Junction only; LangGraph's checkpointers are a different contract). */
const snapshotRows: SnapshotRow[] = [];
async function w8(): Promise<void> {
  snapshotRows.push(...(await snapshotBench(quick, rounds)));
}

/** W9: agent memory (Junction only): turn overhead as the conversation grows. */
const conversationRows: ConversationRow[] = [];
async function w9(): Promise<void> {
  conversationRows.push(...(await conversationBench(quick, rounds)));
}

function pick(figures: Record<string, number>): { junction: number; langgraph: number; floor: number } {
  return { junction: figures.junction!, langgraph: figures.langgraph!, floor: figures.floor! };
}

function format(value: number): string {
  if (!Number.isFinite(value)) return "—";
  if (value !== 0 && Math.abs(value) < 0.1) return value.toPrecision(2);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** The retrieval group (`pnpm bench retrieval`): BM25 vs MiniSearch and Orama, exact embedding top-k vs the floor. */
let retrievalResults: RetrievalResults | undefined;
async function retrieval(): Promise<void> {
  retrievalResults = await retrievalBench(quick);
}

/** The pgvector group (`pnpm bench pgvector`): PgvectorDocumentStore on PGlite vs the in-memory store, HNSW recall. */
let pgvectorResults: PgvectorResults | undefined;
async function pgvector(): Promise<void> {
  pgvectorResults = await pgvectorBench(quick);
}

const workloads: Record<string, () => Promise<void>> = {
  W1: w1,
  W2: w2,
  W3: w3,
  W4: w4,
  W5: w5,
  W6: w6,
  W7: w7,
  W8: w8,
  W9: w9,
  retrieval,
  pgvector,
};
const started = performance.now();
for (const [name, run] of Object.entries(workloads)) {
  if (only !== undefined && only !== name) continue;
  await run();
}

const table = rows.map((row) => ({
  workload: row.workload,
  unit: row.unit,
  Junction: format(row.junction),
  "LangGraph.js": format(row.langgraph),
  floor: format(row.floor),
  "Junction/LangGraph": format(row.junction / row.langgraph),
  "Junction/floor": format(row.junction / row.floor),
}));
const header = Object.keys(table[0] ?? {});
const widths = header.map((key) =>
  Math.max(key.length, ...table.map((row) => String(row[key as keyof typeof row]).length)),
);
const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join("  ");
if (table.length > 0) {
  process.stdout.write(`${line(header)}\n${line(widths.map((width) => "-".repeat(width)))}\n`);
  for (const row of table)
    process.stdout.write(`${line(header.map((key) => String(row[key as keyof typeof row])))}\n`);
}
if (snapshotRows.length > 0) {
  const width = Math.max(...snapshotRows.map((row) => row.measure.length));
  process.stdout.write("\nW8 run snapshots (Junction)\n");
  for (const row of snapshotRows)
    process.stdout.write(`${row.measure.padEnd(width)}  ${format(row.value)} ${row.unit}\n`);
}
if (conversationRows.length > 0) {
  const width = Math.max(...conversationRows.map((row) => row.measure.length));
  process.stdout.write("\nW9 conversations (Junction, FileConversationStore; median per turn)\n");
  for (const row of conversationRows)
    process.stdout.write(`${row.measure.padEnd(width)}  ${format(row.value)} ${row.unit}\n`);
}
if (retrievalResults !== undefined) process.stdout.write(formatRetrieval(retrievalResults));
if (pgvectorResults !== undefined) process.stdout.write(formatPgvector(pgvectorResults));
for (const row of composition) {
  process.stdout.write(
    `${row.workload}: inline ${format(row.inline)}, wrapped ${format(row.wrapped)}, SuperComponent overhead ${format(row.overhead)} µs\n`,
  );
}
process.stdout.write(
  `\n${quick ? "quick smoke run" : `medians of ${rounds.repeats} alternating rounds after ${rounds.warmup} warm-up rounds`}; node ${process.version}; ${(elapsedMs(started) / 1000).toFixed(1)} s\n`,
);

if (jsonPath !== undefined) {
  mkdirSync(dirname(jsonPath), { recursive: true });
  writeFileSync(
    jsonPath,
    `${JSON.stringify({ node: process.version, quick, date: new Date().toISOString(), rows, composition, snapshots: snapshotRows, conversations: conversationRows, retrieval: retrievalResults, pgvector: pgvectorResults }, null, 2)}\n`,
  );
}
