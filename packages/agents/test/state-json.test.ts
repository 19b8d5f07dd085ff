import { mergeLists, State } from "@junction/agents";
import { createRegistry, DeserializationError, MemoryLogger, SerializationError } from "@junction/core";
import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

function uniqueSorted(current: unknown, value: unknown): number[] {
  const all = [...((current as number[] | undefined) ?? []), ...(value as number[])];
  return [...new Set(all)].sort((a, b) => a - b);
}

describe("State.toJSON / State.fromJSON", () => {
  test("every State has a messages key", () => {
    const state = new State({ schema: {} });
    expect(Object.keys(state.schema)).toEqual(["messages"]);
    expect(state.schema.messages.handler).toBe(mergeLists);
    state.set("messages", ChatMessage.fromUser("hi"));
    expect(state.get("messages")?.[0]?.text).toBe("hi");
  });

  test("round-trips schema, data and messages; the document carries the schema", () => {
    const state = new State({
      schema: {
        numbers: { type: z.number() },
        dict_of_lists: { type: z.record(z.string(), z.array(z.number())) },
        tags: { type: z.array(z.string()).optional() },
      },
      data: {
        numbers: 1,
        dict_of_lists: { numbers: [1, 2, 3] },
        messages: [ChatMessage.fromUser("Hello, world!")],
      },
    });
    const doc = state.toJSON();
    expect(doc.schema.numbers).toEqual({ type: { type: "number" } });
    expect(doc.schema.messages).toEqual({
      type: { type: "array", items: { "x-junction-type": "ChatMessage" } },
    });
    expect(doc.data).toEqual({
      numbers: 1,
      dict_of_lists: { numbers: [1, 2, 3] },
      messages: [{ role: "user", meta: {}, name: null, content: [{ text: "Hello, world!" }] }],
    });
    const copy = JSON.parse(JSON.stringify(doc));
    const loaded = State.fromJSON(copy);
    expect(loaded.get("numbers")).toBe(1);
    expect(loaded.get("messages")).toEqual([ChatMessage.fromUser("Hello, world!")]);
    expect((loaded.get("messages") as readonly unknown[])[0]).toBeInstanceOf(ChatMessage);
    expect(loaded.toJSON()).toEqual(doc);
    loaded.set("tags", "x");
    expect(loaded.get("tags")).toEqual(["x"]);
    expect(() => loaded.set("numbers", "one" as never)).toThrow(/numbers/);
  });

  test("declared handlers are written by registered name and resolved on load", () => {
    const registry = createRegistry().registerFunction("test.uniqueSorted", uniqueSorted);
    const state = new State({ schema: { numbers: { type: z.array(z.number()), handler: uniqueSorted } } });
    state.set("numbers", [3, 1]);
    const doc = state.toJSON({ registry });
    expect(doc.schema.numbers?.handler).toBe("test.uniqueSorted");
    const loaded = State.fromJSON(doc, { registry });
    loaded.set("numbers", [2, 1]);
    expect(loaded.get("numbers")).toEqual([1, 2, 3]);
  });

  test("an unregistered handler cannot be written; an unknown name cannot be loaded", () => {
    const state = new State({ schema: { numbers: { type: z.array(z.number()), handler: uniqueSorted } } });
    expect(() => state.toJSON({ registry: createRegistry() })).toThrow(SerializationError);
    expect(() =>
      State.fromJSON({ schema: { numbers: { type: { type: "array" }, handler: "nope.handler" } }, data: {} }),
    ).toThrow(DeserializationError);
  });

  test("skipKeys leaves keys out; a value without a JSON form is left out with a warning", () => {
    const logger = new MemoryLogger();
    const state = new State({
      schema: { good: { type: z.number() }, bad: { type: z.bigint() }, secret: { type: z.string() } },
      data: { good: 1, bad: 10n, secret: "s" },
    });
    expect(() => state.toJSON()).toThrow(/bigint/);
    const onlyData = new State({
      schema: { good: { type: z.number() }, anything: { type: z.unknown() } },
      data: { good: 1, anything: 10n },
    });
    const doc = onlyData.toJSON({ logger, skipKeys: ["messages"] });
    expect(doc.data).toEqual({ good: 1 });
    expect(Object.keys(doc.schema)).toEqual(["good", "anything"]);
    expect(logger.messages("warn")[0]).toMatch(/"anything" cannot be written/);
  });

  test("loading reports every problem with its path", () => {
    let error: unknown;
    try {
      State.fromJSON({
        schema: { a: { type: { "x-junction-type": "Nope" } }, b: { type: { type: "number" }, handler: 3 } },
        data: { c: 1 },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeserializationError);
    expect((error as DeserializationError).issues.map((issue) => issue.path.join("."))).toEqual([
      "schema.a.type.x-junction-type",
      "schema.b.handler",
      "data.c",
    ]);
  });

  test("named types nested in objects load back as instances", () => {
    const state = new State({
      schema: { turn: { type: z.object({ question: chatMessageSchema, score: z.number() }) } },
      data: { turn: { question: ChatMessage.fromUser("q"), score: 2 } },
    });
    const loaded = State.fromJSON(JSON.parse(JSON.stringify(state.toJSON())));
    expect((loaded.get("turn") as { question: ChatMessage }).question).toBeInstanceOf(ChatMessage);
  });
});

test("State.fromJSON: a malformed saved ChatMessage is reported with its key and the message's own problem", () => {
  const doc = {
    schema: { messages: { type: { type: "array", items: { "x-junction-type": "ChatMessage" } } } },
    data: { messages: [{ role: "robot", content: [{ text: "x" }] }] },
  };
  expect(() => State.fromJSON(doc)).toThrow(
    "State.fromJSON: cannot load the document:\n  - data.messages: ChatMessage.fromJSON: invalid message (1 problem):\n  - role: unknown role \"robot\"; expected one of 'user', 'system', 'assistant', 'tool'.",
  );
});
