/**
 * Structured answers end to end: an Agent with an outputSchema against the local OpenAI-compatible
 * test server (the request carries the strict schema), and a ConditionalRouter routing on the answer.
 */
import { Agent } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { MemoryLogger, Pipeline } from "@junction/core";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import {
  completion,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
  textStream,
} from "../packages/openai/test/support/fake-openai-server.js";

const Triage = z.object({
  category: z.enum(["billing", "shipping", "other"]),
  priority: z.enum(["low", "high"]),
  summary: z.string(),
});
const valid = { category: "shipping", priority: "high", summary: "Parcel is late" };

const lookupOrder = tool({
  name: "lookup_order",
  description: "Looks up an order",
  parameters: z.object({ id: z.string() }),
  function: ({ id }) => ({ id, status: "delayed" }),
});

describe("against an OpenAI-compatible server", () => {
  let server: FakeOpenAIServer;
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
  });
  afterEach(async () => server.close());

  function generator() {
    return new OpenAIChatGenerator({ baseURL: server.baseURL, model: "local", maxRetries: 0 });
  }

  test("the response-format strategy sends the strict schema; an invalid answer is repaired", async () => {
    server.enqueue(
      completion({ content: JSON.stringify({ ...valid, priority: "urgent" }) }),
      completion({ content: JSON.stringify(valid) }),
    );
    const agent = new Agent({ chatGenerator: generator(), outputSchema: Triage });
    const result = await agent.run({ messages: [ChatMessage.fromUser("My parcel is late")] });
    expect(result.exit_reason).toBe("text");
    expect(result.structured_output).toEqual(valid);
    expect(result.token_usage).toMatchObject({ total_tokens: 30 });
    const first = server.requests[0]?.body;
    expect(first?.tools).toBeUndefined();
    expect(first?.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "final_answer",
        strict: true,
        schema: {
          type: "object",
          properties: {
            category: { type: "string", enum: ["billing", "shipping", "other"] },
            priority: { type: "string", enum: ["low", "high"] },
            summary: { type: "string" },
          },
          required: ["category", "priority", "summary"],
          additionalProperties: false,
        },
      },
    });
    const retry = server.requests[1]?.body.messages as { role: string; content: unknown }[];
    expect(retry.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(retry[2]?.content)).toContain("priority");
  });

  test("the response-format strategy streams the final call", async () => {
    server.enqueue(textStream(['{"category":"shipping",', '"priority":"high","summary":"Parcel is late"}']));
    const streamed: string[] = [];
    const agent = new Agent({
      chatGenerator: generator(),
      outputSchema: Triage,
      streamingCallback: (chunk) => {
        if (chunk.content !== "") streamed.push(chunk.content);
      },
    });
    const result = await agent.run({ messages: [ChatMessage.fromUser("My parcel is late")] });
    expect(streamed.join("")).toBe(JSON.stringify(valid));
    expect(result.structured_output).toEqual(valid);
    expect(server.requests[0]?.body.stream).toBe(true);
  });

  test("with tools, auto uses the final-answer tool; its JSON arguments are the answer", async () => {
    server.enqueue(
      completion({ toolCalls: [{ id: "c1", name: "lookup_order", arguments: '{"id":"A1"}' }] }),
      completion({ toolCalls: [{ id: "c2", name: "final_answer", arguments: '{"category":"shipping",' }] }),
      completion({ toolCalls: [{ id: "c3", name: "final_answer", arguments: JSON.stringify(valid) }] }),
    );
    const agent = new Agent({
      chatGenerator: generator(),
      tools: [lookupOrder],
      outputSchema: Triage,
    });
    const result = await agent.run(
      { messages: [ChatMessage.fromUser("Where is order A1?")] },
      { logger: new MemoryLogger() },
    );
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(3);
    expect(result.structured_output).toEqual(valid);
    const tools = server.requests[0]?.body.tools as { function: { name: string; parameters: unknown } }[];
    expect(tools.map((item) => item.function.name)).toEqual(["lookup_order", "final_answer"]);
    expect(tools[1]?.function.parameters).toMatchObject({ required: ["category", "priority", "summary"] });
    expect(server.requests[0]?.body.response_format).toBeUndefined();
    const third = server.requests[2]?.body.messages as { role: string; content: unknown }[];
    expect(third.at(-1)).toMatchObject({ role: "tool", tool_call_id: "c2" });
    expect(String(third.at(-1)?.content)).toContain("not valid JSON");
  });
});

describe("in a pipeline", () => {
  function triagePipeline(script: string[]) {
    return new Pipeline({ logger: new MemoryLogger() })
      .addComponent(
        "agent",
        new Agent({
          chatGenerator: new ScriptedChatGenerator({ script }),
          outputSchema: Triage,
          maxOutputRetries: 0,
        }),
      )
      .addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'exit_reason == "text" && structured_output.priority == "high"',
              output: "structured_output",
              outputName: "urgent",
              outputType: z.record(z.string(), z.unknown()),
            },
            {
              condition: 'exit_reason == "text" && structured_output.priority != "high"',
              output: "structured_output",
              outputName: "queue",
              outputType: z.record(z.string(), z.unknown()),
            },
            {
              condition: 'exit_reason == "invalid_output"',
              output: "output_issues",
              outputName: "human",
              outputType: z.array(z.unknown()),
            },
          ],
          optionalVariables: ["structured_output", "output_issues"],
        }),
      )
      .connect("agent.exit_reason", "router.exit_reason")
      .connect("agent.structured_output", "router.structured_output")
      .connect("agent.output_issues", "router.output_issues");
  }

  test("a ConditionalRouter routes on structured_output.priority", async () => {
    const outputs = await triagePipeline([JSON.stringify(valid)]).run({
      agent: { messages: [ChatMessage.fromUser("My parcel is late")] },
    });
    expect(outputs.router).toEqual({ urgent: valid });
  });

  test('and sends exit_reason == "invalid_output" elsewhere, with the issues', async () => {
    const outputs = await triagePipeline(["I am not sure"]).run({
      agent: { messages: [ChatMessage.fromUser("My parcel is late")] },
    });
    expect(outputs.router).toEqual({
      human: [{ path: [], message: expect.stringContaining("not valid JSON") }],
    });
  });
});
