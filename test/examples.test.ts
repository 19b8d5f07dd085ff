/**
 * Every example in examples/ runs here, and what it prints or returns is checked.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main as aiSdkModel } from "../examples/ai-sdk-model.js";
import { main as approveRefund, activity as refundActivity } from "../examples/approve-refund.js";
import { main as cancelRun } from "../examples/cancel-run.js";
import { main as chatTurns } from "../examples/chat-turns.js";
import { main as evaluateRetrieval } from "../examples/evaluate-retrieval.js";
import { main as mcpTools } from "../examples/mcp-tools.js";
import { main as multiAgentPipeline } from "../examples/multi-agent-pipeline.js";
import { main as openaiCompatible } from "../examples/openai-compatible-server.js";
import { main as opentelemetry } from "../examples/opentelemetry.js";
import { main as pgvectorRag } from "../examples/pgvector-rag.js";
import { main as recordedRun } from "../examples/recorded-run.js";
import { main as selfCorrectingLoop } from "../examples/self-correcting-loop.js";
import { main as serializationRegistry } from "../examples/serialization-registry.js";
import { main as sharedStateAgent } from "../examples/shared-state-agent.js";
import { main as streamingEvents } from "../examples/streaming-events.js";
import { main as structuredTriage } from "../examples/structured-triage.js";
import { main as tipDemo } from "../examples/tip-agent-demo.js";
import { startFakeEmbeddingsServer } from "../packages/openai/test/support/fake-embeddings-server.js";
import {
  completion,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
  textStream,
} from "../packages/openai/test/support/fake-openai-server.js";
import { outputBuffer } from "./support/output-buffer.js";

describe("the showcase demo (npm run demo)", () => {
  const dir = mkdtempSync(join(tmpdir(), "junction-demo-"));

  it("answers the tip question offline, routes on exit_reason, and reloads the saved pipeline", async () => {
    const out = outputBuffer();
    // The output folder is created when missing, and the message says where the file went.
    const pipelinePath = join(dir, "demo-output", "pipeline.json");
    const code = await tipDemo([], { ...out, env: {}, pipelinePath });
    const text = out.text();
    expect(code).toBe(0);
    expect(text).toContain(`saved the pipeline to ${pipelinePath}`);
    expect(text).toContain("ScriptedChatGenerator — offline");
    expect(text).toContain('search({"query":"France tipping customs"})');
    expect(text).toContain("plan: batch 1 [calculator#0, calculator#1] (concurrent)");
    expect(text).toContain('"result":4.25');
    expect(text).toContain("€4.25 to €8.50");
    expect(text).toMatch(/exit_reason:\s+text/);
    expect(text).toMatch(/tool_call_counts: \{"search":1,"calculator":2\}/);
    // The search tool is a BM25 retriever over the knowledge base; what it found is in State `documents`.
    expect(text).toMatch(/documents: +fr-tipping \(BM25 \d+\.\d+\)/);
    expect(text).toContain('route taken:      router.answer (exit_reason == "text")');
    expect(text).toContain("same result ✓");
    expect(text).toContain("flowchart LR");
    const saved = JSON.parse(readFileSync(pipelinePath, "utf8")) as {
      components: Record<string, { type: string }>;
    };
    expect(saved.components.agent?.type).toBe("junction.Agent");
    expect(saved.components.fallback?.type).toBe("tip_agent.Fallback");
    // The store is saved beside the pipeline and referenced by path, so the reload found its documents.
    expect(JSON.stringify(saved)).toContain('"type":"junction.InMemoryDocumentStore"');
    const knowledgeBase = JSON.parse(readFileSync(join(dir, "demo-output", "knowledge-base.json"), "utf8"));
    expect(JSON.stringify(knowledgeBase)).toContain("service compris");
  });

  it("takes the fallback route when the agent runs out of steps", async () => {
    const out = outputBuffer();
    const code = await tipDemo(["--max-steps", "1"], {
      ...out,
      env: {},
      pipelinePath: join(dir, "p1.json"),
    });
    expect(code).toBe(0);
    expect(out.text()).toMatch(/exit_reason:\s+max_agent_steps/);
    expect(out.text()).toContain("router.fallback → fallback");
    expect(out.text()).toContain("The agent reached its step limit before answering.");
  });

  it("prints machine-readable JSON with --json", async () => {
    const out = outputBuffer();
    await tipDemo(["--json", "--question", "What tip for a $60 meal in the United States?"], {
      ...out,
      env: {},
      pipelinePath: join(dir, "p2.json"),
    });
    const result = JSON.parse(out.text()) as Record<string, unknown>;
    expect(result.exit_reason).toBe("text");
    expect(result.route).toBe("answer");
    expect(result.answer).toContain("$9.00 to $12.00");
    expect(result.reloaded_run_same).toBe(true);
    expect(result.tool_call_counts).toEqual({ search: 1, calculator: 2 });
  });

  it("explains its flags with --help and rejects a bad --max-steps", async () => {
    const help = outputBuffer();
    expect(await tipDemo(["--help"], { ...help, env: {} })).toBe(0);
    expect(help.text()).toContain("--question <text>");
    const bad = outputBuffer();
    expect(await tipDemo(["--max-steps", "zero"], { ...bad, env: {} })).toBe(2);
    expect(bad.text()).toContain("--max-steps must be a positive integer");
  });

  describe("with OPENAI_BASE_URL set", () => {
    let server: FakeOpenAIServer | undefined;
    afterEach(async () => server?.close());

    it("uses OpenAIChatGenerator against that server and says so", async () => {
      server = await startFakeOpenAIServer();
      server.enqueue(
        textStream(["In France service is included; ", "leave €4-8."]),
        textStream(["In France service is included; ", "leave €4-8."]),
      );
      const out = outputBuffer();
      const code = await tipDemo(["--model", "local-model"], {
        ...out,
        env: { OPENAI_BASE_URL: server.baseURL },
        pipelinePath: join(dir, "p3.json"),
      });
      expect(out.text()).toContain(
        `OpenAIChatGenerator (model "local-model", the OpenAI-compatible server at ${server.baseURL})`,
      );
      expect(out.text()).toContain("answer (streamed): In France service is included; leave €4-8.");
      expect(code).toBe(0);
      expect(server.requests[0]?.body.model).toBe("local-model");
      expect(server.requests[0]?.body.tools).toHaveLength(2);
    });
  });
});

describe("examples", () => {
  it("self-correcting-loop: retries until the reply is valid JSON", async () => {
    const out = outputBuffer();
    const result = await selfCorrectingLoop(out);
    expect(result).toEqual({ router: { person: { name: "Ada Lovelace", born: 1815 } } });
    expect(out.text()).toMatch(/attempt 1: invalid/);
    expect(out.text()).toContain("attempt 2: valid JSON");
  });

  it("shared-state-agent: the writer runs before the reader that was requested first", async () => {
    const out = outputBuffer();
    const result = await sharedStateAgent(out);
    expect(out.text()).toContain("plan for [0:summarize_notes, 1:save_note]: [1] → [0]");
    expect(out.text()).toContain("summarize_notes → 2 note(s): call mom; buy milk");
    expect(result.notes).toEqual(["call mom", "buy milk"]);
  });

  it("serialization-registry: YAML round trip gives the same result; tampered documents are refused", async () => {
    const out = outputBuffer();
    const result = await serializationRegistry(out);
    expect(result.same).toBe(true);
    expect(result.yaml).toContain("type: examples.Echo");
    expect(out.text()).toContain('unknown component type "child_process.exec"');
    expect(out.text()).toContain("components.second.init_parameters.times");
  });

  it("streaming-events: starts, chunks, ends and a final event, in order", async () => {
    const out = outputBuffer();
    const kinds = await streamingEvents(out);
    expect(kinds[0]).toBe("component_start");
    expect(kinds.at(-1)).toBe("run_end");
    expect(kinds.filter((kind) => kind === "chunk").length).toBeGreaterThan(1);
    expect(out.text()).toContain('chunk: "Ada! "');
  });

  it("structured-triage: routes typed answers on priority, and invalid answers to a human", async () => {
    const out = outputBuffer();
    const outcomes = await structuredTriage(out, {});
    expect(outcomes.map((outcome) => outcome.route)).toEqual(["on_call", "queue", "human"]);
    expect(outcomes[0]?.value).toEqual({
      category: "shipping",
      priority: "high",
      summary: "Order A1 is lost in transit, 12 days late.",
    });
    expect(outcomes[2]?.value).toEqual([
      { path: [], message: 'the model replied in text instead of calling the "final_answer" tool.' },
    ]);
    expect(out.text()).toContain("exit_reason invalid_output after 2 step(s)");
    expect(out.text()).toContain("exit_reason text after 2 step(s)");
  });

  it("approve-refund: the run pauses at the refund, is saved, and a later invocation approves or rejects it", async () => {
    const store = mkdtempSync(join(tmpdir(), "junction-refund-"));
    const first = outputBuffer();
    const paused = await approveRefund(["--store", store, "Refund order A-17: 250 EUR"], first);
    expect(paused).toEqual({ status: "interrupted", interrupts: ["s1/refund_A-17"], answer: undefined });
    expect(first.text()).toContain(
      'waiting for approval: s1/refund_A-17 — refund({"order":"A-17","amount":250})',
    );
    expect(readdirSync(join(store, "refund-demo"))).toContain("0000000001.json");
    expect(refundActivity.refunds).toEqual([]);
    const callsBefore = refundActivity.modelCalls;

    const approved = await approveRefund(["--store", store, "--approve", "s1/refund_A-17"], outputBuffer());
    expect(approved.answer).toBe("Done: refunded 250 EUR for order A-17.");
    expect(refundActivity.refunds).toEqual([{ order: "A-17", amount: 250 }]);
    expect(refundActivity.modelCalls - callsBefore).toBe(1); // only the reply after the tool; the paused step is not asked again
    await expect(
      approveRefund(["--store", store, "--approve", "s1/refund_A-17"], outputBuffer()),
    ).rejects.toThrow(/is completed, not interrupted/);

    await approveRefund(["--store", store, "--run", "r2", "Refund order B-2: 300 EUR"], outputBuffer());
    const rejected = await approveRefund(
      ["--store", store, "--run", "r2", "--reject", "s1/refund_B-2", "--message", "Needs a receipt"],
      outputBuffer(),
    );
    expect(rejected.answer).toBe("The refund was not made: Needs a receipt");
    const small = await approveRefund(
      ["--store", store, "--run", "r3", "Refund order C-3: 20 EUR"],
      outputBuffer(),
    );
    expect(small).toMatchObject({ status: "completed", answer: "Done: refunded 20 EUR for order C-3." });
    expect(refundActivity.refunds.map((item) => item.order)).toEqual(["A-17", "C-3"]);
  });

  it("chat-turns: three turns on one stored conversation; follow-ups use the history, then its summary", async () => {
    const out = outputBuffer();
    const directory = mkdtempSync(join(tmpdir(), "junction-chat-turns-"));
    const result = await chatTurns(out, { directory });
    expect(result.answers[0]).toContain("€4.25 to €8.50");
    expect(result.answers[1]).toContain("For a €85.00 meal in Japan");
    expect(result.answers[2]).toContain("For a €85.00 meal in the United States");
    // System prompt only; then with turn 1 (7 messages); then the summary and turn 2.
    expect(result.sent).toEqual([1, 8, 9]);
    expect(result.stored).toBe(21);
    expect(result.summary).toContain("€85 meal in France");
    expect(
      readFileSync(join(directory, "trip", "messages.jsonl"), "utf8")
        .trimEnd()
        .split("\n"),
    ).toHaveLength(3);
  });

  it("cancel-run: rejects with the abort reason and leaves nothing running", async () => {
    const out = outputBuffer();
    const result = await cancelRun(out);
    expect(result.reason).toBe("the user pressed stop");
    expect(result.stillRunning).toBe(0);
  });

  describe("openai-compatible-server", () => {
    let server: FakeOpenAIServer | undefined;
    afterEach(async () => server?.close());

    it("talks to the server named by OPENAI_BASE_URL without an API key", async () => {
      server = await startFakeOpenAIServer();
      server.enqueue(completion({ content: "A pipeline is a graph of components.", model: "tiny" }));
      const out = outputBuffer();
      const text = await openaiCompatible(out, { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: "tiny" });
      expect(text).toBe("A pipeline is a graph of components.");
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
      const messages = server.requests[0]?.body.messages as { content: unknown }[];
      expect(JSON.stringify(messages[0]?.content)).toContain("what is a pipeline?");
    });

    it("explains what to set when no server is configured", async () => {
      const out = outputBuffer();
      expect(await openaiCompatible(out, {})).toBeUndefined();
      expect(out.text()).toContain("Set OPENAI_BASE_URL");
    });
  });
});

describe("ecosystem adapter examples", { timeout: 30_000 }, () => {
  it("opentelemetry: prints the GenAI span tree; parallel tool calls are siblings; no content by default", async () => {
    const out = outputBuffer();
    const lines = await opentelemetry(out);
    expect(lines[0]).toBe("invoke_agent agent");
    expect(lines).toContain('      chat gpt-5-mini (CLIENT; 42 in / 12 out; finish ["tool_calls"])');
    expect(lines.filter((line) => line.startsWith("    execute_tool weather"))).toEqual([
      "    execute_tool weather (call-paris)",
      "    execute_tool weather (call-rome)",
    ]);
    expect(out.text()).toContain("message content recorded: no");
  });

  it("recorded-run: records a run, replays it exactly, and refuses a new question with a diff", async () => {
    const out = outputBuffer();
    const result = await recordedRun(out);
    expect(result.replayed).toBe(result.recorded);
    expect(result.replayed).toBe("2 + 3 = 5.");
    expect(result.error).toContain(
      'messages[0].content[0].text: recorded "What is 2 + 3?", now "What is 2 + 4?"',
    );
  });

  it("mcp-tools: an agent uses the filtered tools of a stdio MCP server; bad arguments are a tool error", async () => {
    const out = outputBuffer();
    const result = await mcpTools(out);
    expect(result.offered).toEqual(["add_note", "list_notes"]);
    expect(out.text()).toContain('add_note({"text":"buy milk"}) → saved note 1');
    expect(out.text()).toContain('add_note({"text":""}) → error: Tool "add_note": invalid arguments');
    expect(out.text()).toContain("list_notes({}) → 1. buy milk");
    expect(result.answer).toBe("Your notebook has one note: buy milk.");
  });

  it("ai-sdk-model: an AI SDK model answers through an agent, streamed, with usage totalled", async () => {
    const out = outputBuffer();
    const result = await aiSdkModel(out);
    expect(result.answer).toBe("The forecast: sunny and 24 °C in Paris.");
    expect(out.text()).toContain("The forecast: sunny and 24 °C in Paris.");
    expect(result.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 });
  });
});

describe("multi-agent-pipeline", () => {
  it("routes to support, which uses its research agent and knowledge base; the saved copy answers the same", async () => {
    const out = outputBuffer();
    const result = await multiAgentPipeline(out, {});
    const text = out.text();
    expect(text).toContain("(triage exit_reason: to_support)");
    expect(text).toContain("[support] → search_kb → research");
    expect(text).toContain("[support › research] Crashes on start are usually a corrupt cache");
    expect(result.answer).toContain("Clear the cache under Settings → Storage");
    expect(result.reloaded).toBe(result.answer);
    expect(text).toContain("same answer ✓");
    const doc = result.document as {
      components: Record<string, { type: string; init_parameters: { tools?: { type: string }[] } }>;
    };
    expect(doc.components.support?.init_parameters.tools?.map((item) => item.type)).toEqual([
      "junction.PipelineTool",
      "junction.AgentTool",
    ]);
  });
});

describe("evaluate-retrieval", () => {
  it("scores BM25 on the docs questions offline and says why embedding and hybrid are skipped", async () => {
    const out = outputBuffer();
    const [bm25] = await evaluateRetrieval(out, {});
    expect(out.text()).toContain("52 questions over 397 passages of docs/, top 10");
    expect(out.text()).toContain("embedding and hybrid: skipped");
    // The figures quoted in docs/evaluation.md.
    expect(bm25?.aggregatedReport().score.map((score) => score.toFixed(3))).toEqual([
      "0.481",
      "0.885",
      "0.942",
      "0.653",
      "0.724",
      "0.653",
    ]);
    expect(bm25?.errors).toEqual([]);
  });

  it("with an OpenAI-compatible server it also scores embedding and hybrid retrieval side by side", async () => {
    const server = await startFakeEmbeddingsServer();
    vi.stubEnv("OPENAI_BASE_URL", server.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "sk-test");
    try {
      const out = outputBuffer();
      const runs = await evaluateRetrieval(out, { OPENAI_BASE_URL: server.baseURL });
      expect(runs.map((run) => run.runName)).toEqual(["bm25", "embedding", "hybrid"]);
      expect(runs.every((run) => run.errors.length === 0)).toBe(true);
      expect(out.text()).toMatch(/\nhybrid\s+\d\.\d{3}/);
      expect(out.text()).toMatch(/hybrid vs bm25, recall@5: \d+ questions better, \d+ worse/);
    } finally {
      vi.unstubAllEnvs();
      await server.close();
    }
  }, 60_000);
});

describe("pgvector-rag", () => {
  it("indexes docs into embedded Postgres, answers from them, finds more with match any, and reopens the data", async () => {
    const out = outputBuffer();
    const result = await pgvectorRag(out);
    expect(result.written).toBeGreaterThan(10);
    expect(result.answer).toMatch(/^From \S+\.md: /);
    expect(result.anyMatches).toBeGreaterThan(result.allMatches);
    expect(result.afterReopen).toBe(result.written);
    expect(out.text()).toContain("passages are still there");
  }, 180_000);
});
