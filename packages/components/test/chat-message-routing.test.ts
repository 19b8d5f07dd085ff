import { ConditionalRouter, OutputAdapter } from "@junction/components";
import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { roundTrip } from "./support/round-trip.js";

/** Chat messages in CEL: read as data (`text`, `tool_calls`, `meta`...), routed as the original objects. */

const reply = ChatMessage.fromAssistant({
  text: "Let me look that up.",
  toolCalls: [{ toolName: "search", arguments: { query: "weather" }, id: "call_1" }],
  meta: { finish_reason: "tool_calls", model: "m" },
});
const conversation = [
  ChatMessage.fromSystem("Be brief."),
  ChatMessage.fromUser("Weather?"),
  reply,
  ChatMessage.fromTool("sunny", { toolName: "search", arguments: { query: "weather" }, id: "call_1" }),
];

function adapter(expression: string) {
  return new OutputAdapter({ expression, outputType: z.any() });
}

describe("a ChatMessage as CEL data", () => {
  test("text, role, name, meta and the size of a conversation", async () => {
    expect(await adapter("last_message.text").run({ last_message: reply })).toEqual({
      output: "Let me look that up.",
    });
    expect(await adapter("last_message.role").run({ last_message: reply })).toEqual({ output: "assistant" });
    expect(await adapter("last_message.meta.finish_reason").run({ last_message: reply })).toEqual({
      output: "tool_calls",
    });
    expect(await adapter("last_message.name").run({ last_message: reply })).toEqual({ output: null });
    expect(await adapter("size(messages) > 3").run({ messages: conversation })).toEqual({ output: true });
  });

  test("tool calls and tool results as snake_case data", async () => {
    expect(await adapter("m.tool_calls[0].tool_name").run({ m: reply })).toEqual({ output: "search" });
    expect(await adapter("m.tool_call.arguments.query").run({ m: reply })).toEqual({ output: "weather" });
    expect(await adapter("m.tool_call_result.result").run({ m: conversation[3] })).toEqual({
      output: "sunny",
    });
    expect(await adapter("m.tool_call_result.origin.id").run({ m: conversation[3] })).toEqual({
      output: "call_1",
    });
    expect(await adapter('messages.exists(m, m.role == "tool")').run({ messages: conversation })).toEqual({
      output: true,
    });
    expect(await adapter("m.texts").run({ m: conversation[1] })).toEqual({ output: ["Weather?"] });
    expect(await adapter("m.text == null").run({ m: conversation[3] })).toEqual({ output: true });
  });

  test("a message never exposes its methods", async () => {
    await expect(adapter("m.isFrom").run({ m: reply })).rejects.toThrow(/No such key: isFrom/);
    await expect(adapter("m.toJSON").run({ m: reply })).rejects.toThrow(/No such key: toJSON/);
  });
});

describe("routing agent results", () => {
  const router = new ConditionalRouter({
    routes: [
      {
        condition: 'exit_reason == "text" && size(last_message.text) > 0',
        output: "last_message",
        outputName: "answer",
        outputType: chatMessageSchema,
      },
      {
        condition: "true",
        output: 'messages.filter(m, m.role == "user")',
        outputName: "retry",
        outputType: z.array(chatMessageSchema),
      },
    ],
    validateOutputType: true,
  });

  test("a message comes out as the same ChatMessage, and passes validateOutputType", async () => {
    const answer = ChatMessage.fromAssistant("It is sunny.");
    const result = await router.run({ exit_reason: "text", last_message: answer, messages: conversation });
    expect(result.answer).toBe(answer);
  });

  test("messages selected by a filter are the original messages", async () => {
    const result = await router.run({
      exit_reason: "max_agent_steps",
      last_message: reply,
      messages: conversation,
    });
    expect(result.retry).toEqual([conversation[1]]);
    expect((result.retry as ChatMessage[])[0]).toBe(conversation[1]);
  });

  test("a ChatMessage output type is written by name and read back", async () => {
    const { initParameters, copy } = roundTrip(router);
    const routes = initParameters.routes as { outputType: unknown }[];
    expect(routes[0]?.outputType).toMatchObject({ "x-junction-type": "ChatMessage" });
    const answer = ChatMessage.fromAssistant("It is sunny.");
    expect((await copy.run({ exit_reason: "text", last_message: answer, messages: [] })).answer).toBe(answer);
    expect(copy.outputSockets.answer?.schema).toBe(chatMessageSchema);
  });
});
