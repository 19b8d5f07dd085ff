import { Agent, AgentTool } from "@junction/agents";
import { InMemoryTracer } from "@junction/core";
import {
  type ChatMessage,
  type StreamingChunk,
  ToolDefinitionError,
  Toolset,
  tool,
  toolFromJSON,
  toolResultToString,
  toolToJSON,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { quiet, scripted, user } from "./helpers.js";

const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

function researcher(script = [{ text: "Paris is the capital.", usage: usage(10, 5) }]) {
  return new Agent({
    chatGenerator: scripted(script, { onScriptEnd: "repeatLast" }),
    systemPrompt: "You research facts.",
    stateSchema: { sources: { type: z.array(z.string()) } },
  });
}

function lead(tool: AgentTool, extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
  return new Agent({
    chatGenerator: scripted(
      [
        {
          toolCalls: [{ toolName: tool.name, id: "call_r1", arguments: { request: "Capital of France?" } }],
          usage: usage(100, 20),
        },
        { text: "It is Paris.", usage: usage(200, 10) },
      ],
      { onScriptEnd: "repeatLast" },
    ),
    tools: [tool],
    ...extra,
  });
}

describe("AgentTool", () => {
  test("runs the sub-agent on the request and answers with its last message text", async () => {
    const research = new AgentTool({ agent: researcher(), name: "research", description: "Finds facts" });
    expect(research.spec.parameters).toMatchObject({ required: ["request"] });
    const result = await lead(research).run({ messages: [user("Where?")] }, quiet());
    const toolMessage = result.messages!.find((message) => message.role === "tool")!;
    expect(toolMessage.toolCallResult?.result).toBe("Paris is the capital.");
    expect(result.last_message?.text).toBe("It is Paris.");
  });

  test("gives the sub-agent a fresh State seeded from the arguments and the caller's State", async () => {
    const seen: unknown[] = [];
    const sub = new Agent({
      chatGenerator: scripted(["noted"]),
      stateSchema: { sources: { type: z.array(z.string()) }, topic: { type: z.string() } },
      hooks: {
        beforeRun: (state) => void seen.push(state.get("messages"), state.get("topic"), state.get("sources")),
      },
    });
    const tool = new AgentTool({
      agent: sub,
      name: "notes",
      description: "Takes notes",
      inputsFromState: { topic: "topic" },
      outputsToState: { sources: { source: "sources" } },
    });
    const parent = new Agent({
      chatGenerator: scripted([
        { toolCalls: [{ toolName: "notes", arguments: { request: "note it", sources: ["a"] } }] },
        "ok",
      ]),
      tools: [tool],
      stateSchema: { topic: { type: z.string() }, sources: { type: z.array(z.string()) } },
    });
    const result = await parent.run({ messages: [user("go")], topic: "rivers", sources: ["x"] }, quiet());
    expect((seen[0] as ChatMessage[]).map((message) => message.text)).toEqual(["note it"]);
    expect(seen.slice(1)).toEqual(["rivers", ["a"]]);
    // outputsToState lifts the sub-agent's "sources" into the caller's State (appended: a list key).
    expect(result.sources).toEqual(["x", "a"]);
  });

  test("a sub-agent with an outputSchema answers with its structured output as JSON", async () => {
    const Triage = z.object({ category: z.enum(["billing", "shipping"]), summary: z.string() });
    const answer = { category: "shipping", summary: "Parcel is late" };
    const triage = new AgentTool({
      agent: new Agent({ chatGenerator: scripted([JSON.stringify(answer)]), outputSchema: Triage }),
      name: "triage",
      description: "Classifies a ticket",
    });
    const output = (await triage.invoke({ request: "My parcel is late" }, quiet())) as Record<
      string,
      unknown
    >;
    expect(output.structured_output).toEqual(answer);
    expect(JSON.parse(toolResultToString(triage, output) as string)).toEqual(answer);

    const failing = new AgentTool({
      agent: new Agent({
        chatGenerator: scripted(['{"category":"space"}'], { onScriptEnd: "repeatLast" }),
        outputSchema: Triage,
        maxOutputRetries: 0,
      }),
      name: "triage",
      description: "Classifies a ticket",
    });
    const bad = (await failing.invoke({ request: "?" }, quiet())) as Record<string, unknown>;
    expect(bad.exit_reason).toBe("invalid_output");
    expect(toolResultToString(failing, bad)).toMatch(/did not match its output schema: .*category/);
  });

  test("notes when the sub-agent stopped at its step limit", async () => {
    const looping = new Agent({
      chatGenerator: scripted([{ toolCalls: [{ toolName: "noop", arguments: {} }] }], {
        onScriptEnd: "repeatLast",
      }),
      tools: [
        new AgentTool({
          agent: new Agent({ chatGenerator: scripted(["x"]) }),
          name: "noop",
          description: "does nothing",
        }),
      ],
      maxAgentSteps: 1,
    });
    const tool = new AgentTool({ agent: looping, name: "looper", description: "loops" });
    const output = (await tool.invoke({ request: "go" }, quiet())) as Record<string, unknown>;
    expect(output.exit_reason).toBe("max_agent_steps");
    expect(toolResultToString(tool, output)).toMatch(/step limit \(max_agent_steps\)/);
  });

  test("adds the sub-agent's token usage to the caller's, and keeps it per tool", async () => {
    const research = new AgentTool({ agent: researcher(), name: "research", description: "Finds facts" });
    const result = await lead(research).run({ messages: [user("Where?")] }, quiet());
    expect(result.token_usage).toEqual({
      prompt_tokens: 310,
      completion_tokens: 35,
      total_tokens: 345,
      by_tool: { research: usage(10, 5) },
    });
  });

  test("streams the sub-agent's chunks to the caller's callback, tagged with the tool call", async () => {
    const sub = new Agent({ chatGenerator: scripted(["Paris"], { stream: true }) });
    const research = new AgentTool({ agent: sub, name: "research", description: "Finds facts" });
    const chunks: StreamingChunk[] = [];
    await lead(research).run(
      { messages: [user("Where?")], streaming_callback: (chunk) => void chunks.push(chunk) },
      quiet(),
    );
    const inner = chunks.filter((chunk) => chunk.meta.tool_name === "research");
    expect(inner.map((chunk) => chunk.content).join("")).toBe("Paris");
    expect(inner.every((chunk) => chunk.meta.tool_call_id === "call_r1")).toBe(true);
    expect(inner[0]!.meta.tool_call_path).toEqual([{ id: "call_r1", tool_name: "research" }]);
  });

  test("nests the sub-agent's spans under the tool call's span", async () => {
    const tracer = new InMemoryTracer();
    const research = new AgentTool({ agent: researcher(), name: "research", description: "Finds facts" });
    await lead(research).run({ messages: [user("Where?")] }, { ...quiet(), tracer });
    const toolSpan = tracer.find("junction.agent.tool")[0]!;
    const runs = tracer.find("junction.agent.run");
    expect(runs).toHaveLength(2);
    expect(runs[1]!.parent).toBe(toolSpan);
  });

  test("aborting the caller aborts the sub-agent", async () => {
    let subSignal: AbortSignal | undefined;
    const wait = tool({
      name: "wait",
      description: "waits until aborted",
      parameters: z.object({}),
      function: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          subSignal = signal;
          signal?.addEventListener("abort", () => reject(signal.reason));
        }),
    });
    const slow = new Agent({
      chatGenerator: scripted([{ toolCalls: [{ toolName: "wait", arguments: {} }] }, "never"]),
      tools: [wait],
    });
    const research = new AgentTool({ agent: slow, name: "research", description: "slow" });
    const controller = new AbortController();
    const run = lead(research).run({ messages: [user("Where?")] }, quiet({ signal: controller.signal }));
    while (subSignal === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort(new Error("user left"));
    await expect(run).rejects.toThrow(/aborted/);
    expect(subSignal.aborted).toBe(true);
  });

  test("an agent cannot be its own tool", async () => {
    const toolset = new Toolset([]);
    const agent = new Agent({
      chatGenerator: scripted([
        { toolCalls: [{ toolName: "self", arguments: { request: "again" } }] },
        "done",
      ]),
      tools: toolset,
    });
    const self = new AgentTool({ agent, name: "self", description: "me" });
    toolset.add(self);
    expect(() => new AgentTool({ agent, name: "outer", description: "x" })).toThrow(ToolDefinitionError);
    expect(() => new AgentTool({ agent, name: "outer", description: "x" })).toThrow(/its own tool/);
    const result = await agent.run({ messages: [user("go")] }, quiet());
    const toolMessage = result.messages!.find((message) => message.role === "tool")!;
    expect(toolMessage.toolCallResult?.error).toBe(true);
    expect(toolMessage.text ?? String(toolMessage.toolCallResult?.result)).toMatch(/its own tool/);
  });

  test("bounds nesting with maxDepth, with a clear error", () => {
    let agent = new Agent({ chatGenerator: scripted(["leaf"]) });
    for (let level = 0; level < 3; level++) {
      agent = new Agent({
        chatGenerator: scripted(["x"]),
        tools: [new AgentTool({ agent, name: `level${level}`, description: "nested" })],
      });
    }
    expect(() => new AgentTool({ agent, name: "top", description: "x", maxDepth: 3 })).toThrow(
      /would run 4 deep, more than maxDepth \(3\)/,
    );
    expect(new AgentTool({ agent, name: "top", description: "x", maxDepth: 4 }).maxDepth).toBe(4);
  });

  test("refuses a sub-agent call deeper than maxDepth at run time", async () => {
    const research = new AgentTool({ agent: researcher(), name: "research", description: "x", maxDepth: 1 });
    await expect(research.invoke({ request: "hi" }, { depth: 1 })).rejects.toThrow(
      /would run 2 levels deep, more than maxDepth \(1\)/,
    );
  });

  test("round-trips through a tool document, inside an agent document", async () => {
    const research = new AgentTool({
      agent: researcher(),
      name: "research",
      description: "Finds facts",
      outputsToState: { found: { source: "sources" } },
      maxDepth: 3,
    });
    const doc = toolToJSON(research);
    expect(doc.type).toBe("junction.AgentTool");
    expect(doc.data).toMatchObject({ name: "research", max_depth: 3, outputs_to_string: null });
    const loaded = toolFromJSON(JSON.parse(JSON.stringify(doc)));
    expect(loaded).toBeInstanceOf(AgentTool);
    expect(toolToJSON(loaded)).toEqual(doc);
    const parent = lead(loaded as AgentTool, { stateSchema: { found: { type: z.array(z.string()) } } });
    const result = await parent.run({ messages: [user("Where?")] }, quiet());
    expect(result.last_message?.text).toBe("It is Paris.");
  });

  test("reports an invalid nested agent document with its path", () => {
    const doc = toolToJSON(
      new AgentTool({ agent: researcher(), name: "research", description: "x" }),
    ) as unknown as {
      data: { agent: { init_parameters: { chatGenerator: { type: string } } } };
    };
    doc.data.agent.init_parameters.chatGenerator.type = "evil.Generator";
    expect(() => toolFromJSON(doc)).toThrow(
      /data\.agent\.init_parameters\.chatGenerator\.type: unknown component type "evil\.Generator"/,
    );
  });

  test("refuses a document that nests agent tools deeper than max_depth", () => {
    let agent = new Agent({ chatGenerator: scripted(["leaf"]) });
    for (let level = 0; level < 3; level++) {
      agent = new Agent({
        chatGenerator: scripted(["x"]),
        tools: [new AgentTool({ agent, name: `level${level}`, description: "nested" })],
      });
    }
    const doc = toolToJSON(
      new AgentTool({ agent, name: "top", description: "x", maxDepth: 4 }),
    ) as unknown as {
      data: { max_depth: number };
    };
    doc.data.max_depth = 2;
    expect(() => toolFromJSON(doc)).toThrow(/more than maxDepth \(2\)/);
  });
});
