import { callComponent, isPromiseLike, MemoryLogger, noopTracer } from "@junction/core";
import {
  ChatMessage,
  callTool,
  ScriptedChatGenerator,
  ToolInvocationError,
  tool,
  toolCallError,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/** What a loop hands a tool's function (every field of ToolContext). */
function context(extra: { signal?: AbortSignal } = {}) {
  return {
    signal: extra.signal,
    state: undefined,
    toolCall: undefined,
    tracer: noopTracer,
    span: undefined,
    logger: new MemoryLogger(),
    emit: () => undefined,
    reportUsage: () => undefined,
    depth: 0,
    idempotencyKey: undefined,
  };
}

const add = tool({
  name: "add",
  description: "Adds two numbers",
  parameters: z.object({ a: z.number(), b: z.number().default(1) }),
  function: ({ a, b }) => a + b,
});

describe("callTool", () => {
  test("a synchronous function's value comes back as it is, its defaults filled", () => {
    const result = callTool(add, { a: 2 }, context());
    expect(isPromiseLike(result)).toBe(false);
    expect(result).toBe(3);
  });

  test("an async function's own promise comes back; its rejection is the function's own error", async () => {
    const failing = tool({
      name: "failing",
      description: "Fails later",
      parameters: z.object({}),
      function: async () => {
        throw new Error("later");
      },
    });
    const result = callTool(failing, {}, context());
    expect(isPromiseLike(result)).toBe(true);
    const error = await Promise.resolve(result).catch((reason: unknown) => reason);
    expect((error as Error).message).toBe("later");
    const reported = toolCallError(failing, {}, error, undefined);
    expect(reported).toBeInstanceOf(ToolInvocationError);
    expect((reported as Error).message).toBe('Tool "failing" failed with arguments {}. Error: later');
    await expect(failing.invoke({})).rejects.toThrow('Tool "failing" failed with arguments {}. Error: later');
  });

  test("invalid arguments and a synchronous failure throw the ToolInvocationError invoke rejects with", async () => {
    expect(() => callTool(add, { a: "two" }, context())).toThrow(/invalid arguments \(1 problem\)/);
    const throwing = tool({
      name: "throwing",
      description: "Fails at once",
      parameters: z.object({}),
      function: () => {
        throw new Error("now");
      },
    });
    expect(() => callTool(throwing, {}, context())).toThrow(
      'Tool "throwing" failed with arguments {}. Error: now',
    );
    await expect(throwing.invoke({})).rejects.toThrow('Tool "throwing" failed with arguments {}. Error: now');
  });

  test("an aborted signal stops the call before the function runs, with the signal's reason", () => {
    let ran = false;
    const watched = tool({
      name: "watched",
      description: "Records that it ran",
      parameters: z.object({}),
      function: () => {
        ran = true;
      },
    });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    expect(() => callTool(watched, {}, context({ signal: controller.signal }))).toThrow("stop");
    expect(ran).toBe(false);
    expect(toolCallError(watched, {}, new Error("other"), controller.signal)).toBe(controller.signal.reason);
  });
});

describe("ScriptedChatGenerator without waiting", () => {
  test("a synchronous respond function answers without a promise (after the first call)", async () => {
    const generator = new ScriptedChatGenerator({ respond: () => "hello" });
    const messages = [ChatMessage.fromUser("hi")];
    await callComponent(generator, { messages });
    const outputs = callComponent(generator, { messages });
    expect(isPromiseLike(outputs)).toBe(false);
    expect((outputs as { replies: ChatMessage[] }).replies[0]?.text).toBe("hello");
  });

  test("a delay, an async respond function or streaming answer with a promise", async () => {
    const messages = [ChatMessage.fromUser("hi")];
    const chunks: unknown[] = [];
    const waiting = [
      new ScriptedChatGenerator({ script: ["a"], delayMs: 1 }),
      new ScriptedChatGenerator({ respond: async () => "b" }),
      new ScriptedChatGenerator({ script: ["c"], stream: true }),
    ];
    const texts: (string | undefined)[] = [];
    for (const generator of waiting) {
      await generator.warmUp();
      const outputs = callComponent(generator, { messages }, { onEmit: (chunk) => void chunks.push(chunk) });
      expect(isPromiseLike(outputs)).toBe(true);
      texts.push(((await outputs) as { replies: ChatMessage[] }).replies[0]?.text);
    }
    expect(texts).toEqual(["a", "b", "c"]);
    expect(chunks.length).toBeGreaterThan(0);
  });

  test("a respond function that throws fails the call (a rejection through run)", async () => {
    const generator = new ScriptedChatGenerator({
      respond: () => {
        throw new Error("model down");
      },
    });
    await expect(generator.run({ messages: [ChatMessage.fromUser("hi")] })).rejects.toThrow("model down");
  });
});

describe("a tool result's origin", () => {
  test("a call taken from a message is kept as it is; anything else is copied and frozen", () => {
    const reply = ChatMessage.fromAssistant({
      toolCalls: [{ toolName: "add", arguments: { a: 1 }, id: "call_1" }],
    });
    const call = reply.toolCall!;
    expect(ChatMessage.fromTool("2", call).toolCallResult?.origin).toBe(call);

    const mutable = { toolName: "add", arguments: { a: 1 }, id: "call_2" };
    const origin = ChatMessage.fromTool("2", mutable).toolCallResult!.origin;
    expect(origin).not.toBe(mutable);
    expect(Object.isFrozen(origin) && Object.isFrozen(origin.arguments)).toBe(true);
    mutable.arguments.a = 5;
    expect(origin.arguments).toEqual({ a: 1 });
  });

  test("a frozen call is still checked: a bad field is refused, unfrozen arguments are copied", () => {
    const badName = Object.freeze({ toolName: "", arguments: Object.freeze({}) });
    expect(() => ChatMessage.fromTool("x", badName)).toThrow(/toolName/);
    const openArgs = { a: 1 };
    const origin = ChatMessage.fromTool("x", Object.freeze({ toolName: "add", arguments: openArgs }))
      .toolCallResult!.origin;
    expect(origin.arguments).not.toBe(openArgs);
    expect(Object.isFrozen(origin.arguments)).toBe(true);
  });
});
