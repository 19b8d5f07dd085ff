import { checkCompatibility, defineComponent, Pipeline, PipelineRuntimeError } from "@junction/core";
import { ChatMessage, ConversionError, chatMessageSchema } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const message = chatMessageSchema;

function conversionOf(sender: z.ZodType, receiver: z.ZodType) {
  const result = checkCompatibility(sender, receiver);
  expect(result.compatible).toBe(true);
  return result.conversion!;
}

describe("registered conversions", () => {
  test.each([
    ["ChatMessage → string", message, z.string(), "chat_message_to_str"],
    ["string → ChatMessage", z.string(), message, "str_to_chat_message"],
    ["number → number[]", z.number(), z.array(z.number()), "wrap"],
    ["ChatMessage → ChatMessage[]", message, z.array(message), "wrap"],
    ["string[] → string", z.array(z.string()), z.string(), "unwrap"],
    ["ChatMessage[] → ChatMessage", z.array(message), message, "unwrap"],
    ["ChatMessage → string[]", message, z.array(z.string()), "wrap_chat_message_to_str"],
    ["string → ChatMessage[]", z.string(), z.array(message), "wrap_str_to_chat_message"],
    ["ChatMessage[] → string", z.array(message), z.string(), "unwrap_chat_message_to_str"],
    ["string[] → ChatMessage", z.array(z.string()), message, "unwrap_str_to_chat_message"],
    [
      "ChatMessage → string | ChatMessage[] (wrap wins)",
      message,
      z.union([z.string(), z.array(message)]),
      "wrap",
    ],
    ["ChatMessage → string | undefined", message, z.string().optional(), "chat_message_to_str"],
  ])("%s uses %s", (_label, sender, receiver, name) => {
    expect(conversionOf(sender, receiver).name).toBe(name);
  });

  test.each([
    ["number[] → number (unwrap only for string and ChatMessage)", z.array(z.number()), z.number()],
    ["string[][] → string (never multi-level)", z.array(z.array(z.string())), z.string()],
    ["string | ChatMessage → string (mixed strategies)", z.union([z.string(), message]), z.string()],
    ["ChatMessage → number", message, z.number()],
  ])("%s is incompatible", (_label, sender, receiver) => {
    expect(checkCompatibility(sender, receiver).compatible).toBe(false);
  });

  test("strictly compatible types need no conversion", () => {
    expect(checkCompatibility(message, message)).toEqual({ compatible: true });
    expect(checkCompatibility(z.array(message), z.array(message))).toEqual({ compatible: true });
  });

  test("values are converted, and failures are clear", () => {
    const toText = conversionOf(message, z.string());
    expect(toText.convert(ChatMessage.fromAssistant("hi"))).toBe("hi");
    expect(() =>
      toText.convert(ChatMessage.fromAssistant({ toolCalls: [{ toolName: "t", arguments: {} }] })),
    ).toThrow(ConversionError);
    const toMessage = conversionOf(z.string(), message).convert("hello") as ChatMessage;
    expect([toMessage.role, toMessage.text]).toEqual(["user", "hello"]);
    const unwrap = conversionOf(z.array(z.string()), z.string());
    expect(unwrap.convert(["only"])).toBe("only");
    expect(() => unwrap.convert([])).toThrow(/empty list/);
    expect(() => unwrap.convert(["a", "b"])).toThrow(/list of 2 items/);
    expect(conversionOf(z.array(message), z.string()).convert([ChatMessage.fromUser("x")])).toBe("x");
    expect(conversionOf(z.number(), z.array(z.number())).convert(3)).toEqual([3]);
    expect(conversionOf(z.string(), z.array(message)).convert("q")).toEqual([ChatMessage.fromUser("q")]);
  });
});

describe("conversions in a pipeline", () => {
  const Reply = defineComponent({
    type: "test.llm.conversions.Reply",
    inputs: { text: z.string().optional() },
    outputs: { reply: chatMessageSchema },
    run: ({ text }) => ({
      reply:
        text === undefined
          ? ChatMessage.fromAssistant({ toolCalls: [{ toolName: "t", arguments: {} }] })
          : ChatMessage.fromAssistant(text),
    }),
  });
  const Upper = defineComponent({
    type: "test.llm.conversions.Upper",
    inputs: { value: z.string() },
    outputs: { upper: z.string() },
    run: ({ value }) => ({ upper: value.toUpperCase() }),
  });

  test("a ChatMessage output feeds a string input", async () => {
    const pipeline = new Pipeline().addComponent("reply", new Reply()).addComponent("upper", new Upper());
    pipeline.connect("reply.reply", "upper.value");
    expect(await pipeline.run({ reply: { text: "hello" } })).toEqual({ upper: { upper: "HELLO" } });
  });

  test("a message without text fails the run", async () => {
    const pipeline = new Pipeline().addComponent("reply", new Reply()).addComponent("upper", new Upper());
    pipeline.connect("reply.reply", "upper.value");
    await expect(pipeline.run({ reply: {} })).rejects.toThrow(PipelineRuntimeError);
  });
});
