import {
  ChatMessage,
  chatMessageSchema,
  Tool,
  ToolDefinitionError,
  ToolInvocationError,
  type ToolState,
  tool,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const weatherParameters = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
} as const;

function weather(): Tool {
  return new Tool({
    name: "weather",
    description: "Get weather report",
    parameters: weatherParameters,
    function: ({ city }) => ({ reply: `sunny in ${String(city)}` }),
  });
}

describe("Tool definition", () => {
  test("holds its fields and a spec for the model", () => {
    const t = weather();
    expect(t.name).toBe("weather");
    expect(t.description).toBe("Get weather report");
    expect(t.parameters).toEqual(weatherParameters);
    expect(t.spec).toEqual({
      name: "weather",
      description: "Get weather report",
      parameters: weatherParameters,
    });
    expect(t.needsState).toBe(false);
  });

  test.each([["has space"], [""], ["a".repeat(65)], ["naïve"]])(
    "rejects the name %j that providers would reject",
    (name) => {
      expect(() => new Tool({ ...weatherInit(), name })).toThrow(/not a valid tool name/);
    },
  );

  test("accepts names with letters, digits, _ and -", () => {
    expect(new Tool({ ...weatherInit(), name: "get-weather_2" }).name).toBe("get-weather_2");
  });

  test("rejects parameters that are not an object schema", () => {
    expect(() => new Tool({ ...weatherInit(), parameters: { type: "array" } as never })).toThrow(
      /must be "object"/,
    );
    expect(
      () => new Tool({ ...weatherInit(), parameters: { type: "object", properties: { a: 1 } } as never }),
    ).toThrow(/properties\.a/);
    expect(
      () =>
        new Tool({
          ...weatherInit(),
          parameters: { type: "object", properties: { a: { type: "bogus" } } } as never,
        }),
    ).toThrow(/not a valid JSON Schema/);
    expect(() => new Tool({ ...weatherInit(), parameters: z.string() as never })).toThrow(/z\.object/);
  });

  test("collects every problem in one error", () => {
    try {
      new Tool({
        name: "bad name",
        description: 1 as never,
        parameters: weatherParameters,
        function: "f" as never,
        inputsFromState: { location: "nope" },
        outputsToState: { docs: { source: 3 as never } },
        outputsToString: { source: "x", extra: {} } as never,
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as ToolDefinitionError).issues.map((issue) => issue.path.join("."))).toEqual([
        "name",
        "description",
        "function",
        "inputsFromState.location",
        "outputsToState.docs.source",
        "outputsToString.extra",
      ]);
    }
  });

  test("inputsFromState must name a real parameter", () => {
    expect(() => new Tool({ ...weatherInit(), inputsFromState: { loc: "location" } })).toThrow(
      /unknown parameter "location"[\s\S]*"city"/,
    );
    const ok = new Tool({ ...weatherInit(), inputsFromState: { loc: "city" } });
    expect(ok.inputsFromState).toEqual({ loc: "city" });
  });

  test("parameters filled from State are hidden from the model", () => {
    const t = new Tool({ ...weatherInit(), inputsFromState: { loc: "city" } });
    expect(t.parameters.properties).toHaveProperty("city");
    expect(t.spec.parameters).toEqual({ type: "object", properties: {}, required: [] });
  });

  test.each([
    [{ documents: { source: 1 } }],
    [{ documents: { handler: "some_string", source: "docs" } }],
    [{ documents: ["x"] }],
  ])("rejects an invalid outputsToState %j", (outputsToState) => {
    expect(() => new Tool({ ...weatherInit(), outputsToState: outputsToState as never })).toThrow(
      ToolDefinitionError,
    );
  });

  test.each([
    [{ source: 1 }],
    [{ handler: "some_string" }],
    [{ rawResult: "yes" }],
    [{ documents: { source: 1 } }],
    [{ documents: { handler: "x", source: "a" } }],
    [{ documents: { source: "docs", rawResult: true } }],
    [{ documents: { handler: () => "" } }],
    [{ documents: ["x"] }],
  ])("rejects an invalid outputsToString %j", (outputsToString) => {
    expect(() => new Tool({ ...weatherInit(), outputsToString: outputsToString as never })).toThrow(
      ToolDefinitionError,
    );
  });

  test("accepts both outputsToString forms", () => {
    expect(
      new Tool({ ...weatherInit(), outputsToString: { source: "reply", handler: String } }).outputsToString,
    ).toBeDefined();
    expect(
      new Tool({ ...weatherInit(), outputsToString: { a: { source: "reply" } } }).outputsToString,
    ).toBeDefined();
  });
});

function weatherInit() {
  return {
    name: "weather",
    description: "Get weather report",
    parameters: weatherParameters,
    function: ({ city }: Record<string, unknown>) => `sunny in ${String(city)}`,
  };
}

describe("Tool.invoke", () => {
  test("runs the function with validated arguments", async () => {
    expect(await weather().invoke({ city: "Berlin" })).toEqual({ reply: "sunny in Berlin" });
  });

  test("invalid arguments never reach the function and list every problem", async () => {
    let called = false;
    const t = new Tool({
      ...weatherInit(),
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer" } },
        required: ["city", "days"],
      },
      function: () => {
        called = true;
      },
    });
    const error = await t.invoke({ city: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInvocationError);
    expect((error as ToolInvocationError).toolName).toBe("weather");
    expect((error as ToolInvocationError).code).toBe("TOOL_INVOCATION_ERROR");
    expect((error as ToolInvocationError).issues.map((issue) => issue.path.join("."))).toEqual([
      "city",
      "days",
    ]);
    expect((error as Error).message).toMatch(/invalid arguments \(2 problems\)/);
    expect(called).toBe(false);
  });

  test("wraps a failing function", async () => {
    const t = new Tool({
      ...weatherInit(),
      function: () => {
        throw new Error("kaboom");
      },
    });
    const error = await t.invoke({ city: "Rome" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInvocationError);
    expect((error as Error).message).toBe(
      'Tool "weather" failed with arguments {"city":"Rome"}. Error: kaboom',
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  test("awaits async functions and wraps their rejections", async () => {
    const t = new Tool({ ...weatherInit(), function: async ({ city }) => `async ${String(city)}` });
    expect(await t.invoke({ city: "Oslo" })).toBe("async Oslo");
    const failing = new Tool({ ...weatherInit(), function: async () => Promise.reject(new Error("late")) });
    await expect(failing.invoke({ city: "Oslo" })).rejects.toThrow(/Error: late/);
  });

  test("passes the signal and rejects with its reason when aborted", async () => {
    const controller = new AbortController();
    const t = new Tool({
      ...weatherInit(),
      function: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(new Error("stopped")));
        }),
    });
    const pending = t.invoke({ city: "x" }, { signal: controller.signal });
    controller.abort(new Error("user cancelled"));
    await expect(pending).rejects.toThrow("user cancelled");
    await expect(t.invoke({ city: "x" }, { signal: controller.signal })).rejects.toThrow("user cancelled");
  });

  test("only needsState tools see the State", async () => {
    const state: ToolState = { get: () => 1, set: () => {}, has: () => true };
    const seen: unknown[] = [];
    const plain = new Tool({ ...weatherInit(), function: (_args, context) => void seen.push(context.state) });
    const stateful = new Tool({
      ...weatherInit(),
      needsState: true,
      function: (_a, c) => void seen.push(c.state),
    });
    await plain.invoke({ city: "a" }, { state });
    await stateful.invoke({ city: "a" }, { state });
    expect(seen).toEqual([undefined, state]);
    await expect(stateful.invoke({ city: "a" })).rejects.toThrow(/needsState: true/);
  });
});

describe("tool() with zod", () => {
  test("infers the argument type, converts to JSON Schema and applies defaults", async () => {
    const add = tool({
      name: "add",
      description: "Adds",
      parameters: z.object({ a: z.number().describe("first"), b: z.number().default(1) }),
      function: ({ a, b }) => a + b,
    });
    expect(add.parameters).toEqual({
      type: "object",
      properties: { a: { type: "number", description: "first" }, b: { type: "number", default: 1 } },
      required: ["a"],
    });
    expect(await add.invoke({ a: 2 })).toBe(3);
    await expect(add.invoke({ a: "2" })).rejects.toThrow(ToolInvocationError);
  });

  test("chat message parameters are described and converted from JSON", async () => {
    const echo = tool({
      name: "echo",
      description: "Echoes the last message",
      parameters: z.object({ messages: z.array(chatMessageSchema) }),
      function: ({ messages }) => messages.at(-1)?.text,
    });
    const messagesSchema = echo.parameters.properties?.messages as { items: { required: string[] } };
    expect(messagesSchema.items.required).toEqual(["role", "content"]);
    const message = ChatMessage.fromUser("hello");
    expect(await echo.invoke({ messages: [message.toJSON()] })).toBe("hello");
    expect(await echo.invoke({ messages: [message] })).toBe("hello");
    await expect(echo.invoke({ messages: [{ role: "robot" }] })).rejects.toThrow(/unknown role/);
  });

  test("types a model cannot be told about are an error unless filled from State", () => {
    const parameters = z.object({ when: z.date(), query: z.string() });
    expect(() => tool({ name: "t", description: "", parameters, function: () => 1 })).toThrow(
      /parameters\.when[\s\S]*cannot be described to a model/,
    );
    const fromState = tool({
      name: "t",
      description: "",
      parameters,
      inputsFromState: { now: "when" },
      function: () => 1,
    });
    expect(Object.keys(fromState.spec.parameters.properties ?? {})).toEqual(["query"]);
  });
});

test("warmUp of a plain tool resolves", async () => {
  await expect(weather().warmUp()).resolves.toBeUndefined();
});
