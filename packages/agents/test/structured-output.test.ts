import { Agent, AgentRunError, type State } from "@junction/agents";
import { ComponentError, defineComponent } from "@junction/core";
import {
  ChatMessage,
  chatGeneratorInputs,
  chatGeneratorOutputs,
  type JsonSchemaResponseFormat,
  ScriptedChatGenerator,
  type ScriptedReply,
  StreamingChunk,
  tool,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { callTools, quiet, runAgent, scripted, user } from "./helpers.js";

const Triage = z.object({
  category: z.enum(["billing", "shipping", "other"]),
  priority: z.enum(["low", "high"]),
  summary: z.string(),
});
const valid = { category: "shipping", priority: "high", summary: "Parcel is late" };
const json = (value: unknown) => JSON.stringify(value);

/** A chat generator with tools but no response_format input (so "auto" picks the tool strategy). */
const ToolsOnlyGenerator = defineComponent({
  type: "test.ToolsOnlyGenerator",
  params: z.object({ script: z.array(z.unknown()).default([]) }),
  inputs: chatGeneratorInputs,
  outputs: chatGeneratorOutputs,
  setup: (params) => new ScriptedChatGenerator({ script: params.script as never[] }),
  run: async ({ messages, tools, streaming_callback }, context) => {
    const result = await context.resources.run(
      { messages, tools, streaming_callback },
      { signal: context.signal, onEmit: context.emit },
    );
    return { replies: result.replies ?? [] };
  },
});

function toolsOnly(script: readonly (string | ScriptedReply)[]) {
  return new ToolsOnlyGenerator({ script: [...script] });
}

const lookupOrder = tool({
  name: "lookup_order",
  description: "Looks up an order",
  parameters: z.object({ id: z.string() }),
  function: ({ id }) => ({ id, status: "delayed" }),
});

function answer(args: Record<string, unknown>): ScriptedReply {
  return callTools(["final_answer", args]);
}

describe("structured answers with the response-format strategy", () => {
  test("a valid answer at once: structured_output holds the parsed value and the call carried the strict schema", async () => {
    const formats: (JsonSchemaResponseFormat | undefined)[] = [];
    const generator = new ScriptedChatGenerator({
      respond: (_messages, { responseFormat }) => {
        formats.push(responseFormat);
        return json(valid);
      },
    });
    const agent = new Agent({ chatGenerator: generator, outputSchema: Triage });
    const result = await runAgent(agent, { messages: [user("My parcel is late")] });
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(1);
    expect(result.structured_output).toEqual(valid);
    expect(result.output_issues).toBeUndefined();
    expect(formats[0]?.json_schema.strict).toBe(true);
    expect(formats[0]?.json_schema.schema).toMatchObject({
      type: "object",
      properties: { priority: { enum: ["low", "high"] } },
    });
  });

  test("invalid JSON, then a valid answer: the model is told and the retry is a step", async () => {
    const agent = new Agent({
      chatGenerator: scripted(["Sure! It's shipping, high.", `\`\`\`json\n${json(valid)}\n\`\`\``]),
      outputSchema: Triage,
    });
    const result = await runAgent(agent, { messages: [user("My parcel is late")] });
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(2);
    expect(result.structured_output).toEqual(valid);
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(result.messages[2]?.text).toContain("is not valid JSON");
  });

  test("a schema violation, then a valid answer: the problems go back with their paths", async () => {
    const agent = new Agent({
      chatGenerator: scripted([json({ ...valid, priority: "urgent" }), json(valid)]),
      outputSchema: Triage,
    });
    const result = await runAgent(agent, { messages: [user("My parcel is late")] });
    expect(result.structured_output).toEqual(valid);
    expect(result.step_count).toBe(2);
    expect(result.messages[2]?.text).toMatch(
      /does not match the required schema \(1 problem\):\n {2}- priority: /,
    );
    expect(result.output_issues).toBeUndefined();
  });

  test("retries used up: exit_reason invalid_output, the last problems in output_issues, no structured_output", async () => {
    const agent = new Agent({
      chatGenerator: scripted([json({ priority: "urgent" })], { onScriptEnd: "repeatLast" }),
      outputSchema: Triage,
      maxOutputRetries: 2,
    });
    const result = await runAgent(agent, { messages: [user("My parcel is late")] });
    expect(result.exit_reason).toBe("invalid_output");
    expect(result.step_count).toBe(3);
    expect(result.structured_output).toBeUndefined();
    expect(result.output_issues?.map((issue) => issue.path)).toEqual([
      ["category"],
      ["priority"],
      ["summary"],
    ]);
    expect(result.messages.at(-1)?.role).toBe("assistant");
  });

  test("raiseOnInvalidOutput throws an AgentRunError with the problems and the conversation", async () => {
    const agent = new Agent({
      chatGenerator: scripted(["not json"], { onScriptEnd: "repeatLast" }),
      outputSchema: Triage,
      maxOutputRetries: 0,
      raiseOnInvalidOutput: true,
    });
    const error = await runAgent(agent, { messages: [user("hi")] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentRunError);
    expect((error as AgentRunError).code).toBe("AGENT_INVALID_OUTPUT");
    expect((error as AgentRunError).issues[0]?.message).toContain("not valid JSON");
    expect((error as AgentRunError).messages).toHaveLength(2);
  });

  test("maxAgentSteps still bounds the retries", async () => {
    const agent = new Agent({
      chatGenerator: scripted(["nope"], { onScriptEnd: "repeatLast" }),
      outputSchema: Triage,
      maxOutputRetries: 10,
      maxAgentSteps: 2,
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.exit_reason).toBe("max_agent_steps");
    expect(result.step_count).toBe(2);
    expect(result.output_issues).toHaveLength(1);
  });

  test("a schema whose root is not an object is asked for as { value } and delivered unwrapped", async () => {
    const formats: (JsonSchemaResponseFormat | undefined)[] = [];
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        respond: (_messages, { responseFormat }) => {
          formats.push(responseFormat);
          return json({ value: ["a", "b"] });
        },
      }),
      outputSchema: z.array(z.string()),
    });
    const result = await runAgent(agent, { messages: [user("list")] });
    expect(result.structured_output).toEqual(["a", "b"]);
    expect(formats[0]?.json_schema.schema).toEqual({
      type: "object",
      properties: { value: { type: "array", items: { type: "string" } } },
      required: ["value"],
    });
  });

  test("a JSON Schema outputSchema validates the same way", async () => {
    const agent = new Agent({
      chatGenerator: scripted([json({ level: 11 }), json({ level: 3 })]),
      outputSchema: {
        type: "object",
        properties: { level: { type: "integer", maximum: 10 } },
        required: ["level"],
      },
    });
    const result = await runAgent(agent, { messages: [user("rate it")] });
    expect(result.structured_output).toEqual({ level: 3 });
    expect(result.messages[2]?.text).toContain("level:");
  });
});

describe("structured answers with the tool strategy", () => {
  test("other tools run first; a valid final_answer call ends the run with its value", async () => {
    const agent = new Agent({
      chatGenerator: toolsOnly([callTools(["lookup_order", { id: "A1" }]), answer(valid)]),
      tools: [lookupOrder],
      outputSchema: Triage,
    });
    const result = await runAgent(agent, { messages: [user("Where is order A1?")] });
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(2);
    expect(result.structured_output).toEqual(valid);
    expect(result.tool_call_counts).toEqual({ lookup_order: 1 });
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(result.last_message?.toolCallResult?.result).toBe(json(valid));
  });

  test("the final-answer tool is offered next to the user's tools; auto picks it when tools are in play", async () => {
    const offered: string[][] = [];
    const formats: unknown[] = [];
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        respond: (_messages, { tools, responseFormat }) => {
          offered.push(tools.map((item) => item.name));
          formats.push(responseFormat);
          return answer(valid);
        },
      }),
      tools: [lookupOrder],
      outputSchema: Triage,
    });
    await runAgent(agent, { messages: [user("hi")] });
    expect(offered).toEqual([["lookup_order", "final_answer"]]);
    expect(formats).toEqual([undefined]);
  });

  test("an invalid final_answer call gets an error result listing the problems; the next call succeeds", async () => {
    const agent = new Agent({
      chatGenerator: toolsOnly([answer({ ...valid, category: "refund" }), answer(valid)]),
      outputSchema: Triage,
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(2);
    const rejected = result.messages[2]?.toolCallResult;
    expect(rejected?.error).toBe(true);
    expect(rejected?.result).toMatch(/Invalid final answer \(1 problem\):\n {2}- category: /);
    expect(result.structured_output).toEqual(valid);
  });

  test("invalid calls until the retries are used up end with invalid_output", async () => {
    const agent = new Agent({
      chatGenerator: toolsOnly([answer({ category: "refund" })]),
      outputSchema: Triage,
      maxOutputRetries: 0,
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.exit_reason).toBe("invalid_output");
    expect(result.step_count).toBe(1);
    expect(result.output_issues?.map((issue) => issue.path[0])).toEqual(["category", "priority", "summary"]);
  });

  test("a text reply is accepted when it is valid JSON, else the model is asked to call final_answer", async () => {
    const agent = new Agent({
      chatGenerator: toolsOnly(["Let me think about it.", json(valid)]),
      tools: [lookupOrder],
      outputSchema: Triage,
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.structured_output).toEqual(valid);
    expect(result.messages[2]?.text).toBe(
      'To give your final answer, call the "final_answer" tool with the answer as its arguments.',
    );
  });

  test("explicit outputStrategy tool is used even when the generator supports response formats", async () => {
    const formats: unknown[] = [];
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        respond: (_messages, { responseFormat }) => {
          formats.push(responseFormat);
          return answer(valid);
        },
      }),
      outputSchema: Triage,
      outputStrategy: "tool",
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.structured_output).toEqual(valid);
    expect(formats).toEqual([undefined]);
  });

  test("a user exit-condition tool still ends the run, without a structured answer", async () => {
    const agent = new Agent({
      chatGenerator: toolsOnly([callTools(["lookup_order", { id: "A1" }])]),
      tools: [lookupOrder],
      exitConditions: ["text", "lookup_order"],
      outputSchema: Triage,
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.exit_reason).toBe("lookup_order");
    expect(result.structured_output).toBeUndefined();
  });
});

describe("hooks, streaming and the step limit", () => {
  test("onExit hooks see the structured value and can veto it", async () => {
    const seen: unknown[] = [];
    const agent = new Agent({
      chatGenerator: scripted([json({ ...valid, priority: "low" }), json(valid)]),
      outputSchema: Triage,
      hooks: {
        onExit: (state: State, control) => {
          const value = state.get("structured_output") as { priority: string };
          seen.push(value);
          if (value.priority === "low") {
            control.continueRun();
            state.set("messages", ChatMessage.fromUser("A late parcel is always high priority."));
          }
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("My parcel is late")] });
    expect(seen).toEqual([{ ...valid, priority: "low" }, valid]);
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(2);
    expect(result.structured_output).toEqual(valid);
  });

  test("an onExit veto of invalid_output gives the model another try", async () => {
    let vetoes = 0;
    const agent = new Agent({
      chatGenerator: scripted(["no", json(valid)]),
      outputSchema: Triage,
      maxOutputRetries: 0,
      hooks: {
        onExit: (_state, control) => {
          if (control.exitReason === "invalid_output" && vetoes++ === 0) control.continueRun();
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.exit_reason).toBe("text");
    expect(result.structured_output).toEqual(valid);
  });

  test("streaming streams the final call: the answer's JSON arrives as chunks, the value on the output", async () => {
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({
      chatGenerator: scripted([json(valid)]),
      outputSchema: Triage,
      streamingCallback: (chunk) => {
        chunks.push(chunk);
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(chunks.every((chunk) => chunk instanceof StreamingChunk)).toBe(true);
    expect(chunks.map((chunk) => chunk.content).join("")).toBe(json(valid));
    expect(result.structured_output).toEqual(valid);
  });

  test("streaming with the tool strategy: argument deltas of final_answer, then its result chunk", async () => {
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({
      chatGenerator: toolsOnly([answer(valid)]),
      outputSchema: Triage,
      streamingCallback: (chunk) => {
        chunks.push(chunk);
      },
    });
    await runAgent(agent, { messages: [user("hi")] });
    const deltas = chunks
      .flatMap((chunk) => (chunk.toolCalls ?? []).map((call) => call.arguments ?? ""))
      .join("");
    expect(JSON.parse(deltas)).toEqual(valid);
    expect(chunks.find((chunk) => chunk.toolCallResult !== undefined)?.toolCallResult?.result).toBe(
      json(valid),
    );
    expect(chunks.at(-1)?.finishReason).toBe("tool_call_results");
  });

  test.each([
    ["tool", [["lookup_order", "final_answer"], ["final_answer"]], [false, false]],
    ["auto", [["lookup_order", "final_answer"], []], [false, true]],
  ] as const)(
    "finalAnswerOnMaxSteps asks for a structured answer (%s strategy)",
    async (strategy, tools, formats) => {
      const offered: string[][] = [];
      const withFormat: boolean[] = [];
      const agent = new Agent({
        chatGenerator: new ScriptedChatGenerator({
          respond: (_messages, { tools, call, responseFormat }) => {
            offered.push(tools.map((item) => item.name));
            withFormat.push(responseFormat !== undefined);
            if (call === 1) return callTools(["lookup_order", { id: "A1" }]);
            return responseFormat === undefined ? answer(valid) : json(valid);
          },
        }),
        tools: [lookupOrder],
        outputSchema: Triage,
        outputStrategy: strategy,
        maxAgentSteps: 1,
        finalAnswerOnMaxSteps: true,
      });
      const result = await runAgent(agent, { messages: [user("hi")] });
      expect(offered).toEqual(tools);
      expect(withFormat).toEqual(formats);
      expect(result.exit_reason).toBe("max_agent_steps");
      expect(result.step_count).toBe(2);
      expect(result.structured_output).toEqual(valid);
    },
  );

  test("finalAnswerOnMaxSteps with an invalid last answer ends with invalid_output", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["lookup_order", { id: "A1" }]), "I could not decide."], {}),
      tools: [lookupOrder],
      outputSchema: Triage,
      outputStrategy: "responseFormat",
      maxAgentSteps: 1,
      finalAnswerOnMaxSteps: true,
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.exit_reason).toBe("invalid_output");
    expect(result.output_issues?.[0]?.message).toContain("not valid JSON");
  });
});

describe("options are checked at construction", () => {
  function issuesOf(make: () => unknown): string[] {
    try {
      make();
    } catch (error) {
      expect(error).toBeInstanceOf(ComponentError);
      return (error as ComponentError).issues.map(
        (issue) => `${issue.path.slice(1).join(".")}: ${issue.message}`,
      );
    }
    throw new Error("expected the constructor to throw");
  }

  test("responseFormat needs a generator that declares it; final_answer is reserved; so are the output keys", () => {
    const finalAnswer = tool({
      name: "final_answer",
      description: "mine",
      parameters: z.object({}),
      function: () => "x",
    });
    const issues = issuesOf(
      () =>
        new Agent({
          chatGenerator: toolsOnly([]),
          tools: [finalAnswer],
          outputSchema: Triage,
          outputStrategy: "responseFormat",
          stateSchema: { structured_output: { type: z.string() } },
        }),
    );
    expect(issues).toEqual([
      expect.stringContaining("stateSchema.structured_output: "),
      expect.stringContaining(
        'outputStrategy: "responseFormat" needs a chat generator that declares a "response_format" input',
      ),
    ]);
    expect(
      issuesOf(() => new Agent({ chatGenerator: toolsOnly([]), tools: [finalAnswer], outputSchema: Triage })),
    ).toEqual([
      expect.stringContaining('tools.final_answer: the tool name "final_answer" is used by the Agent'),
    ]);
  });

  test("an outputSchema that cannot be described to a model is refused with its path", () => {
    expect(
      issuesOf(() => new Agent({ chatGenerator: scripted([]), outputSchema: z.object({ when: z.date() }) })),
    ).toEqual([expect.stringContaining("outputSchema.properties.when: ")]);
    expect(
      issuesOf(() => new Agent({ chatGenerator: scripted([]), outputSchema: { type: "frobnicate" } })),
    ).toEqual([expect.stringContaining("outputSchema")]);
  });

  test("without an outputSchema there are no structured-output sockets", () => {
    const plain = new Agent({ chatGenerator: scripted([]) });
    expect(Object.keys(plain.outputSockets)).not.toContain("structured_output");
    const structured = new Agent({ chatGenerator: scripted([]), outputSchema: Triage });
    expect(Object.keys(structured.outputSockets)).toEqual(
      expect.arrayContaining(["structured_output", "output_issues"]),
    );
  });
});

test("runs stay independent: concurrent runs of one agent keep their own retry counts", async () => {
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) => (messages.length === 1 ? "bad" : json(valid)),
    }),
    outputSchema: Triage,
    maxOutputRetries: 1,
  });
  const results = await Promise.all([1, 2, 3].map(() => agent.run({ messages: [user("hi")] }, quiet())));
  expect(results.map((result) => result.exit_reason)).toEqual(["text", "text", "text"]);
});
