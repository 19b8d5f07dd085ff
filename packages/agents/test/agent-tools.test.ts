import { Agent, State } from "@junction/agents";
import { ChatMessage, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { callTools, quiet, runAgent, scripted, user } from "./helpers.js";

const agentOptions = (reader: ReturnType<typeof tool>) => ({
  tools: [reader],
  stateSchema: { value: { type: z.string() }, note: { type: z.string() } },
});

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

function retrievalTool() {
  let calls = 0;
  return tool({
    name: "retrieval_tool",
    description: "Reads and appends documents",
    parameters: z.object({ documents: z.array(z.string()).optional() }),
    inputsFromState: { documents: "documents" },
    outputsToState: { documents: { source: "documents" } },
    function: () => ({ documents: [`doc-${calls++}`] }),
  });
}

describe("tool execution in the agent", () => {
  test("two calls that read and write the same key run one after the other", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["retrieval_tool"], ["retrieval_tool"]), "done"]),
      tools: [retrievalTool()],
      stateSchema: { documents: { type: z.array(z.string()) } },
    });
    expect((await runAgent(agent, { messages: [user("go")] })).documents).toEqual(["doc-0", "doc-1"]);
  });

  test("a reader requested before its writer still sees the write", async () => {
    const seen: unknown[] = [];
    const reader = tool({
      name: "reader_tool",
      description: "reads",
      parameters: z.object({ value: z.string().optional() }),
      inputsFromState: { value: "value" },
      function: ({ value }) => {
        seen.push(value);
        return { ok: true };
      },
    });
    const writer = tool({
      name: "writer_tool",
      description: "writes",
      parameters: z.object({}),
      outputsToState: { value: { source: "out" } },
      function: () => ({ out: "written" }),
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["reader_tool"], ["writer_tool"]), "done"]),
      tools: [reader, writer],
      stateSchema: { value: { type: z.string() } },
    });
    const result = await runAgent(agent, { messages: [user("go")] });
    expect(seen).toEqual(["written"]);
    // Results stay in call order although the writer ran first.
    expect(
      result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult?.origin.toolName),
    ).toEqual(["reader_tool", "writer_tool"]);
  });

  test("a model-supplied argument wins over State", async () => {
    const seen: unknown[] = [];
    const reader = tool({
      name: "reader",
      description: "reads",
      parameters: z.object({ value: z.string() }),
      inputsFromState: { value: "value" },
      function: ({ value }) => void seen.push(value),
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["reader", { value: "from model" }]), "done"]),
      tools: [reader],
      stateSchema: { value: { type: z.string() } },
    });
    await runAgent(agent, { messages: [user("go")], value: "from state" });
    expect(seen).toEqual(["from model"]);
  });

  test("a required parameter filled from a State key with no value yet names the State key, not the argument", async () => {
    const seen: unknown[] = [];
    const reader = tool({
      name: "reader",
      description: "reads",
      parameters: z.object({ value: z.string(), note: z.string().optional() }),
      inputsFromState: { value: "value", note: "note" },
      function: ({ value, note }) => void seen.push([value, note]),
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["reader"]), "done"]),
      tools: [reader],
      stateSchema: { value: { type: z.string() }, note: { type: z.string() } },
    });
    const result = await runAgent(agent, { messages: [user("go")] });
    const text = result.messages.find((m) => m.role === "tool")?.toolCallResult?.result;
    expect(text).toContain('State key "value" has no value yet');
    expect(text).toContain('Give "value" a value before the tool runs');
    expect(seen).toEqual([]);
    // An optional parameter whose State key has no value is left out.
    await runAgent(
      new Agent({ ...agentOptions(reader), chatGenerator: scripted([callTools(["reader"]), "done"]) }),
      {
        messages: [user("go")],
        value: "v",
      },
    );
    expect(seen).toEqual([["v", undefined]]);
  });

  test("a function tool whose result lacks the outputsToState source is reported, naming the result's keys", async () => {
    const writer = tool({
      name: "writer",
      description: "writes",
      parameters: z.object({}),
      outputsToState: { documents: { source: "documents" } },
      function: () => ({ document: ["a"] }),
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["writer"]), "done"]),
      tools: [writer],
      stateSchema: { documents: { type: z.array(z.string()) } },
    });
    const options = quiet();
    const result = await runAgent(agent, { messages: [user("go")] }, options);
    expect(result.documents).toBeUndefined();
    expect(options.logger.messages("warn").join("\n")).toContain(
      'Tool "writer": its result has no key "documents", which outputsToState writes to State key "documents"; nothing was written. Did you mean "document"?',
    );
  });

  test("a misspelled State key in a tool's mappings gets the closest key", () => {
    const writer = tool({
      name: "writer",
      description: "writes",
      parameters: z.object({}),
      outputsToState: { documnets: { source: "documents" } },
      function: () => ({ documents: [] }),
    });
    expect(
      () =>
        new Agent({
          chatGenerator: scripted(["done"]),
          tools: [writer],
          stateSchema: { documents: { type: z.array(z.string()) } },
        }),
    ).toThrow(
      /writes State key "documnets", which the stateSchema does not define. Did you mean "documents"\?/,
    );
  });

  test("a needsState tool gets the live State", async () => {
    const counter = tool({
      name: "counter",
      description: "increments",
      parameters: z.object({}),
      needsState: true,
      function: (_args, context) => {
        const state = context.state!;
        state.set("count", ((state.get("count") as number | undefined) ?? 0) + 1);
        return "ok";
      },
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["counter"], ["counter"]), "done"]),
      tools: [counter],
      stateSchema: { count: { type: z.number() } },
    });
    expect((await runAgent(agent, { messages: [user("go")] })).count).toBe(2);
  });

  test("independent calls of one turn run concurrently", async () => {
    let active = 0;
    let maxActive = 0;
    const slow = tool({
      name: "slow",
      description: "slow",
      parameters: z.object({ i: z.number() }),
      function: async ({ i }, { signal }) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(5, signal);
        active--;
        return i;
      },
    });
    const calls = Array.from({ length: 4 }, (_, i) => ["slow", { i }] as [string, Record<string, unknown>]);
    const agent = new Agent({ chatGenerator: scripted([callTools(...calls), "done"]), tools: [slow] });
    const result = await runAgent(agent, { messages: [user("go")] });
    expect(maxActive).toBe(4);
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult?.result)).toEqual([
      "0",
      "1",
      "2",
      "3",
    ]);

    maxActive = 0;
    const limited = new Agent({
      chatGenerator: scripted([callTools(...calls), "done"]),
      tools: [slow],
      toolConcurrencyLimit: 1,
    });
    await runAgent(limited, { messages: [user("go")] });
    expect(maxActive).toBe(1);
  });

  test("write-write: results merge in call order, whichever finishes first", async () => {
    const writer = tool({
      name: "writer",
      description: "writes after a delay",
      parameters: z.object({ value: z.string(), delay: z.number() }),
      outputsToState: { answer: { source: "answer" } },
      function: async ({ value, delay }) => {
        await sleep(delay);
        return { answer: value };
      },
    });
    const agent = new Agent({
      chatGenerator: scripted([
        callTools(["writer", { value: "first", delay: 10 }], ["writer", { value: "second", delay: 0 }]),
        "done",
      ]),
      tools: [writer],
      stateSchema: { answer: { type: z.string() } },
    });
    expect((await runAgent(agent, { messages: [user("go")] })).answer).toBe("second");
  });

  test("lists read through inputsFromState cannot be mutated by the tool", async () => {
    const mutator = tool({
      name: "mutator",
      description: "tries to mutate its input",
      parameters: z.object({ docs: z.array(z.string()).optional() }),
      inputsFromState: { documents: "docs" },
      function: ({ docs }) => {
        docs?.push("sneaky");
        return "ok";
      },
    });
    const state = new State({
      schema: { documents: { type: z.array(z.string()) } },
      data: { documents: ["a"] },
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["mutator"]), "done"]),
      tools: [mutator],
      stateSchema: { documents: { type: z.array(z.string()) } },
    });
    const result = await runAgent(agent, {
      messages: [user("go")],
      documents: state.get("documents") as string[],
    });
    expect(result.documents).toEqual(["a"]);
    expect(state.get("documents")).toEqual(["a"]);
  });

  test("the tool receives the tool call it answers", async () => {
    const ids: (string | undefined)[] = [];
    const echo = tool({
      name: "echo",
      description: "echo",
      parameters: z.object({}),
      function: (_args, context) => void ids.push(context.toolCall?.id),
    });
    const agent = new Agent({
      chatGenerator: scripted([{ toolCalls: [{ toolName: "echo", arguments: {}, id: "call-7" }] }, "done"]),
      tools: [echo],
    });
    const result = await runAgent(agent, { messages: [user("go")] });
    expect(ids).toEqual(["call-7"]);
    expect(result.messages[2]).toBeInstanceOf(ChatMessage);
  });
});

describe("tool calls whose arguments a generator could not parse", () => {
  const lookups: string[] = [];
  const lookup = tool({
    name: "lookup",
    description: "Looks a city up.",
    parameters: z.object({ city: z.string().optional() }),
    function: ({ city }) => {
      lookups.push(city ?? "(none)");
      return "found";
    },
  });
  const malformedCall = {
    toolName: "lookup",
    arguments: {},
    id: "call_1",
    extra: { malformed_arguments: '{"city": "Par', arguments_error: "Unexpected end of JSON input" },
  };

  test("never run the tool with empty arguments; the model sees an error result with the raw text", async () => {
    lookups.length = 0;
    const agent = new Agent({
      chatGenerator: scripted([{ toolCalls: [malformedCall] }, "sorry"]),
      tools: [lookup],
    });
    const result = await runAgent(agent, { messages: [user("weather?")] });
    expect(lookups).toEqual([]);
    const toolMessage = result.messages?.find((message) => message.role === "tool");
    expect(toolMessage?.toolCallResult?.error).toBe(true);
    expect(String(toolMessage?.toolCallResult?.result)).toContain(
      'not a usable JSON object (Unexpected end of JSON input): "{\\"city\\": \\"Par"',
    );
    expect(result.tool_call_counts).toEqual({ lookup: 1 });
  });

  test("raise with raiseOnToolInvocationFailure", async () => {
    const agent = new Agent({
      chatGenerator: scripted([{ toolCalls: [malformedCall] }, "sorry"]),
      tools: [lookup],
      raiseOnToolInvocationFailure: true,
    });
    await expect(runAgent(agent, { messages: [user("weather?")] })).rejects.toThrow(
      /not a usable JSON object/,
    );
  });
});
