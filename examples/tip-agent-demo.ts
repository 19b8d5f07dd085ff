/**
 * The showcase (`npm run demo`): an Agent with a `search` tool over a bundled knowledge base and a
 * `calculator` tool answers a tip question inside a Pipeline whose ConditionalRouter routes on the
 * agent's `exit_reason`. It streams what happens, saves the pipeline to `demo-output/pipeline.json`, loads it back,
 * runs it again, checks the result is the same, and prints the mermaid diagram.
 *
 * Uses OpenAIChatGenerator when OPENAI_API_KEY or OPENAI_BASE_URL is set, else an offline
 * ScriptedChatGenerator that plays the same conversation.
 *
 * Flags: --model <name>, --question <text>, --max-steps <n>, --json, --help.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type AnyComponent, type LogFields, type Logger, Pipeline, type PipelineEvent } from "@junction/core";
import type { Document } from "@junction/documents";
import { ChatMessage, ScriptedChatGenerator, StreamingChunk } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { createKnowledgeBase } from "./tip-agent/knowledge-base.js";
import { offlineTipModel } from "./tip-agent/offline-model.js";
import { buildTipPipeline, createTipRegistry } from "./tip-agent/pipeline.js";

const defaultQuestion = "Calculate the appropriate tip for an €85 meal in France";

const usage = `Usage: npm run demo -- [options]

  --question <text>   the question to ask (default: "${defaultQuestion}")
  --model <name>      the OpenAI model (only with OPENAI_API_KEY / OPENAI_BASE_URL set)
  --max-steps <n>     the agent's step limit (default 6; try 1 to see the fallback route)
  --json              print one machine-readable JSON object instead of the narrated run
  --help              show this help
`;

/** What one run of the pipeline produced. */
export interface DemoRunSummary {
  readonly answer: string | undefined;
  readonly route: "answer" | "fallback";
  readonly exit_reason: string;
  readonly step_count: number;
  readonly token_usage: Record<string, unknown>;
  readonly tool_call_counts: Record<string, number>;
  /** The documents the search tool retrieved (State key `documents`): fact id and BM25 score. */
  readonly documents: readonly { fact_id: string; score: number }[];
  readonly never_ran: readonly { componentName: string; reason: string }[];
  /** Whether the answer text was streamed to the terminal as it was generated. */
  readonly streamed: boolean;
}

/** Where the demo writes (the terminal, or a test's buffer). */
export interface DemoIO {
  write(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Where to save the pipeline document (default `demo-output/pipeline.json`, under the current folder). */
  pipelinePath?: string;
}

function chooseGenerator(
  model: string | undefined,
  env: DemoIO["env"],
): { generator: AnyComponent; label: string } {
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    // `stream: true` makes the generator stream even without a callback; chunks reach Pipeline.stream.
    const generator = new OpenAIChatGenerator({
      ...(model === undefined ? {} : { model }),
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      generationKwargs: { stream: true },
    });
    const where = env.OPENAI_BASE_URL
      ? `the OpenAI-compatible server at ${env.OPENAI_BASE_URL}`
      : "the OpenAI API";
    return { generator, label: `OpenAIChatGenerator (model "${generator.params.model}", ${where})` };
  }
  return {
    generator: new ScriptedChatGenerator({
      respond: offlineTipModel,
      model: "offline-tip-model",
      stream: true,
    }),
    label:
      "ScriptedChatGenerator — offline: a deterministic script plays the model (set OPENAI_API_KEY or OPENAI_BASE_URL to use a real one)",
  };
}

/** A logger that narrates the agent's tool plans and forwards warnings. */
function narratingLogger(io: DemoIO, quiet: boolean, plans: unknown[]): Logger {
  const print = (level: string, message: string, fields?: LogFields) => {
    if (message === "tool plan") {
      plans.push(fields);
      if (!quiet) {
        const batches = (fields?.batches ?? []) as string[][];
        const calls = (fields?.calls ?? []) as string[];
        io.write(`\nstep ${String(fields?.step)}: the model calls ${calls.join(", ")}\n`);
        io.write(
          `  plan: ${batches.map((batch, index) => `batch ${index + 1} [${batch.join(", ")}]${batch.length > 1 ? " (concurrent)" : ""}`).join(" → ")}\n`,
        );
      }
      return;
    }
    // Warnings are not narrated: the one a finished run logs (components that never ran) is printed
    // from the run_end event below.
    if (!quiet && level === "error") io.write(`  error: ${message}\n`);
  };
  return {
    debug: () => {},
    info: (message, fields) => print("info", message, fields),
    warn: (message, fields) => print("warn", message, fields),
    error: (message, fields) => print("error", message, fields),
  };
}

function short(value: unknown, limit = 160): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

async function runOnce(
  pipeline: Pipeline,
  question: string,
  io: DemoIO,
  quiet: boolean,
  plans: unknown[],
): Promise<DemoRunSummary> {
  const logger = narratingLogger(io, quiet, plans);
  let streaming = false;
  let result: PipelineEvent | undefined;
  const inputs = { agent: { messages: [ChatMessage.fromUser(question)] } };
  // The agent's own outputs are consumed by the router; includeOutputsFrom keeps them in the result too.
  for await (const event of pipeline.stream(inputs, { logger, includeOutputsFrom: ["agent"] })) {
    if (event.type === "chunk" && event.chunk instanceof StreamingChunk && !quiet) {
      const chunk = event.chunk;
      if (chunk.toolCallResult !== undefined) {
        const { origin, result: toolResult, error } = chunk.toolCallResult;
        io.write(
          `  ${origin.toolName}(${short(origin.arguments)}) ${error ? "failed:" : "→"} ${short(toolResult)}\n`,
        );
      } else if (chunk.content !== "") {
        if (!streaming) io.write("\nanswer (streamed): ");
        streaming = true;
        io.write(chunk.content);
      }
    }
    if (event.type === "run_end") result = event;
  }
  if (streaming) io.write("\n");
  const streamedAnswer = streaming;
  if (result?.type !== "run_end") throw new Error("The pipeline stream ended without a run_end event.");
  const outputs = result.outputs as Record<string, Record<string, unknown> | undefined>;
  const agent = (outputs.agent ?? {}) as Record<string, unknown>;
  const answer = (outputs.router?.answer ?? outputs.fallback?.answer) as string | undefined;
  return {
    answer,
    route: outputs.router?.answer !== undefined ? "answer" : "fallback",
    exit_reason: String(agent.exit_reason),
    step_count: Number(agent.step_count),
    token_usage: (agent.token_usage ?? {}) as Record<string, unknown>,
    tool_call_counts: (agent.tool_call_counts ?? {}) as Record<string, number>,
    documents: ((agent.documents ?? []) as readonly Document[]).map((document) => ({
      fact_id: String(document.meta.fact_id),
      score: Math.round((document.score ?? 0) * 1000) / 1000,
    })),
    never_ran: result.neverRan,
    streamed: streamedAnswer,
  };
}

/**
 * Runs the demo.
 * @param argv - command-line arguments (without `node` and the script)
 * @param io - where to write, the environment, and where to save the pipeline
 * @returns the process exit code
 */
export async function main(argv: readonly string[], io: DemoIO): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      model: { type: "string" },
      question: { type: "string" },
      "max-steps": { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.write(usage);
    return 0;
  }
  const question = values.question ?? defaultQuestion;
  const maxSteps = values["max-steps"] === undefined ? 6 : Number(values["max-steps"]);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    io.write(`--max-steps must be a positive integer, got "${values["max-steps"]}".\n`);
    return 2;
  }
  const quiet = values.json === true;
  const { generator, label } = chooseGenerator(values.model, io.env);
  const path = io.pipelinePath ?? join("demo-output", "pipeline.json");
  mkdirSync(dirname(path), { recursive: true });
  // The knowledge base keeps its documents in a file beside the pipeline, so the saved pipeline reloads with them.
  const knowledgeBase = await createKnowledgeBase({
    path: join(dirname(resolve(path)), "knowledge-base.json"),
  });
  const pipeline = buildTipPipeline({ chatGenerator: generator, knowledgeBase, maxAgentSteps: maxSteps });
  const registry = createTipRegistry();
  const plans: unknown[] = [];

  if (!quiet) io.write(`Junction demo — model: ${label}\n\nquestion: ${question}\n`);
  const first = await runOnce(pipeline, question, io, quiet, plans);
  if (!quiet) {
    io.write(`\nexit_reason:      ${first.exit_reason}\n`);
    io.write(`step_count:       ${first.step_count}\n`);
    io.write(`token_usage:      ${JSON.stringify(first.token_usage)}\n`);
    io.write(`tool_call_counts: ${JSON.stringify(first.tool_call_counts)}\n`);
    io.write(
      `documents:        ${first.documents.map((document) => `${document.fact_id} (BM25 ${document.score})`).join(", ")}\n`,
    );
    io.write(
      `route taken:      ${first.route === "answer" ? 'router.answer (exit_reason == "text")' : "router.fallback → fallback"}\n`,
    );
    for (const report of first.never_ran)
      io.write(`not run:          ${report.componentName} — ${report.reason}\n`);
    if (first.route === "fallback" || !first.streamed) {
      io.write(
        `\n${first.route === "answer" ? "answer" : "fallback answer"}:\n${first.answer ?? "(none)"}\n`,
      );
    }
  }

  const document = pipeline.toJSON({ registry });
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
  const reloaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(document)), { registry });
  const second = await runOnce(reloaded, question, io, true, []);
  // The reloaded run is silent, so it streams nothing to the terminal; compare everything else.
  const same =
    JSON.stringify({ ...first, streamed: false }) === JSON.stringify({ ...second, streamed: false });
  const mermaid = pipeline.toMermaid();

  if (quiet) {
    io.write(
      `${JSON.stringify({ model: label, question, ...first, tool_plans: plans, pipeline_file: path, reloaded_run_same: same, mermaid }, null, 2)}\n`,
    );
  } else {
    io.write(
      `\nsaved the pipeline to ${resolve(path)}, loaded it back with a registry that knows the demo's functions, and ran it again: ${same ? "same result ✓" : "DIFFERENT result ✗"}\n`,
    );
    if (!same) io.write(`second run: ${JSON.stringify(second)}\n`);
    io.write(`\nmermaid diagram:\n${mermaid}\n`);
  }
  return same ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), { write: (text) => process.stdout.write(text), env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
