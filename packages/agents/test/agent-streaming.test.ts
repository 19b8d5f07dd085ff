import { Agent, AgentRunError } from "@junction/agents";
import { InMemoryTracer, type RecordedSpan } from "@junction/core";
import { ScriptedChatGenerator, type StreamingChunk, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { callTools, quiet, runAgent, scripted, user, weatherTool } from "./helpers.js";

describe("streaming", () => {
  test("model chunks and one tool-result chunk per tool reach the streaming callback", async () => {
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({
      chatGenerator: scripted([
        callTools(["weather_tool", { location: "A" }], ["weather_tool", { location: "B" }]),
        "It is sunny.",
      ]),
      tools: [weatherTool],
      streamingCallback: (chunk) => void chunks.push(chunk),
    });
    await runAgent(agent, { messages: [user("Weather?")] });
    const toolResults = chunks.filter((chunk) => chunk.toolCallResult !== undefined);
    expect(toolResults.map((chunk) => chunk.toolCallResult?.origin.arguments)).toEqual([
      { location: "A" },
      { location: "B" },
    ]);
    expect(chunks.filter((chunk) => chunk.finishReason === "tool_call_results")).toHaveLength(1);
    expect(chunks.map((chunk) => chunk.content).join("")).toBe("It is sunny.");
    expect(chunks.some((chunk) => chunk.toolCalls !== undefined)).toBe(true);
  });

  test("a run-time callback replaces the configured one; async callbacks are awaited", async () => {
    const configured: StreamingChunk[] = [];
    const runtime: StreamingChunk[] = [];
    const agent = new Agent({
      chatGenerator: scripted(["Hello world"]),
      streamingCallback: (c) => void configured.push(c),
    });
    await runAgent(agent, {
      messages: [user("hi")],
      streaming_callback: async (chunk) => {
        await Promise.resolve();
        runtime.push(chunk);
      },
    });
    expect(configured).toEqual([]);
    expect(runtime.map((chunk) => chunk.content).join("")).toBe("Hello world");
  });

  test("chunks also go to the run's emit target (how Pipeline.stream surfaces them), once each", async () => {
    const emitted: unknown[] = [];
    const viaCallback: StreamingChunk[] = [];
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather_tool", { location: "A" }]), "Sunny."]),
      tools: [weatherTool],
      streamingCallback: (chunk) => void viaCallback.push(chunk),
    });
    await agent.run(
      { messages: [user("hi")] },
      { ...quiet(), onEmit: (payload) => void emitted.push(payload) },
    );
    expect(emitted).toEqual(viaCallback);
    expect(emitted.length).toBeGreaterThan(3);
  });
});

describe("cancellation", () => {
  test("aborting during a tool rejects promptly, stops the tool, and carries the messages so far", async () => {
    const controller = new AbortController();
    const events: string[] = [];
    const slow = tool({
      name: "slow",
      description: "waits until aborted",
      parameters: z.object({}),
      function: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          events.push("started");
          signal?.addEventListener("abort", () => {
            events.push("aborted");
            reject(signal.reason);
          });
          setTimeout(() => controller.abort(new Error("user cancelled")), 1);
        }),
    });
    const agent = new Agent({ chatGenerator: scripted([callTools(["slow"], ["slow"])]), tools: [slow] });
    const error = (await runAgent(
      agent,
      { messages: [user("go")] },
      quiet({ signal: controller.signal }),
    ).catch((caught: unknown) => caught)) as AgentRunError;
    expect(error).toBeInstanceOf(AgentRunError);
    expect(error.code).toBe("AGENT_ABORTED");
    expect((error.cause as Error).message).toBe("user cancelled");
    expect(error.messages.map((m) => (m as { role: string }).role)).toEqual(["user", "assistant"]);
    expect(events).toEqual(["started", "started", "aborted", "aborted"]);
  });

  test("aborting during the model call rejects even if the model ignores the signal", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    let calls = 0;
    let answer: ((reply: string) => void) | undefined;
    // The model ignores the signal and only replies when the test lets it, after the run has settled.
    const generator = new ScriptedChatGenerator({
      respond: () => {
        calls++;
        return new Promise<string>((resolve) => {
          answer = resolve;
          setTimeout(() => controller.abort(reason), 1);
        });
      },
    });
    const agent = new Agent({ chatGenerator: generator });
    const error = (await runAgent(
      agent,
      { messages: [user("go")] },
      quiet({ signal: controller.signal }),
    ).catch((caught: unknown) => caught)) as AgentRunError;
    expect(error).toBeInstanceOf(AgentRunError);
    expect(error.code).toBe("AGENT_ABORTED");
    expect(error.cause).toBe(reason);
    // The run did not wait for the model: its reply is still owed. Once it comes, nothing runs on.
    expect(answer).toBeDefined();
    answer!("late");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toBe(1);
  });

  test("an already-aborted signal rejects before any model call", async () => {
    let calls = 0;
    const generator = new ScriptedChatGenerator({
      respond: () => {
        calls++;
        return "x";
      },
    });
    const agent = new Agent({ chatGenerator: generator });
    await expect(
      runAgent(agent, { messages: [user("go")] }, quiet({ signal: AbortSignal.abort() })),
    ).rejects.toThrow();
    expect(calls).toBe(0);
  });
});

describe("tracing", () => {
  test("spans for the run, each step, the model call, each tool call (siblings) and hooks", async () => {
    const tracer = new InMemoryTracer();
    const agent = new Agent({
      chatGenerator: scripted([
        callTools(["weather_tool", { location: "A" }], ["weather_tool", { location: "B" }]),
        "done",
      ]),
      tools: [weatherTool],
      hooks: { beforeLlm: function budget() {} },
    });
    await runAgent(agent, { messages: [user("go")] }, { ...quiet(), tracer });
    const [run] = tracer.find("junction.agent.run");
    const steps = tracer.find("junction.agent.step");
    const tools = tracer.find("junction.agent.tool");
    const hooks = tracer.find("junction.agent.hook");
    expect(run?.tags["junction.agent.steps_taken"]).toBe(2);
    expect(run?.tags["junction.agent.exit_reason"]).toBe("text");
    expect(steps.map((span) => span.parent)).toEqual([run, run]);
    expect(tracer.find("junction.agent.llm").map((span) => span.parent)).toEqual(steps);
    expect(tools.map((span) => span.parent)).toEqual([steps[0], steps[0]]);
    expect(tools.map((span) => span.tags["junction.tool.name"])).toEqual(["weather_tool", "weather_tool"]);
    expect(hooks.map((span) => [span.parent, span.tags["junction.agent.hook.name"]])).toEqual([
      [steps[0], "budget"],
      [steps[1], "budget"],
    ]);
    expect(tracer.spans.every((span: RecordedSpan) => span.ended)).toBe(true);
  });
});
