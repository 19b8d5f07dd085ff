import { defineComponent, variadic } from "@junction/core";
import {
  ChatMessage,
  ComponentTool,
  chatMessageSchema,
  ToolDefinitionError,
  ToolInvocationError,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const AddFixedValue = defineComponent({
  type: "test.llm.AddFixedValue",
  description: "Adds a fixed value to a number",
  params: z.object({ add: z.number().default(1) }),
  inputs: { value: z.number().describe("The number to add to"), add: z.number().optional() },
  outputs: { result: z.number() },
  run: ({ value, add }, { params }) => ({ result: value + (add ?? params.add) }),
});

const UserGreeter = defineComponent({
  type: "test.llm.UserGreeter",
  inputs: { name: z.string(), times: z.number().int().default(1) },
  outputs: { message: z.string() },
  run: ({ name, times }) => ({ message: `Hello, ${name}! `.repeat(times).trim() }),
});

const LastMessage = defineComponent({
  type: "test.llm.LastMessage",
  inputs: { messages: z.array(chatMessageSchema) },
  outputs: { text: z.string().optional() },
  run: ({ messages }) => ({ text: messages.at(-1)?.text }),
});

const Joiner = defineComponent({
  type: "test.llm.Joiner",
  inputs: { parts: variadic(z.string()) },
  outputs: { joined: z.string() },
  run: ({ parts }) => ({ joined: parts.join("+") }),
});

const DateUser = defineComponent({
  type: "test.llm.DateUser",
  inputs: { when: z.date(), label: z.string() },
  outputs: { out: z.string() },
  run: ({ when, label }) => ({ out: `${label}:${when.getUTCFullYear()}` }),
});

describe("ComponentTool", () => {
  test("derives name, description and a schema from the input sockets", () => {
    const t = new ComponentTool({ component: new AddFixedValue() });
    expect(t.name).toBe("add_fixed_value");
    expect(t.description).toBe("Adds a fixed value to a number");
    expect(t.parameters).toEqual({
      type: "object",
      properties: {
        value: { type: "number", description: "The number to add to" },
        add: { type: "number", description: "Input 'add' for the component." },
      },
      required: ["value"],
    });
  });

  test("the description defaults to the name; name and description can be given", () => {
    expect(new ComponentTool({ component: new UserGreeter() }).description).toBe("user_greeter");
    const custom = new ComponentTool({ component: new UserGreeter(), name: "greet", description: "Greets" });
    expect([custom.name, custom.description]).toEqual(["greet", "Greets"]);
  });

  test("invoking runs the component and returns its outputs", async () => {
    const t = new ComponentTool({ component: new AddFixedValue({ add: 2 }) });
    expect(await t.invoke({ value: 1 })).toEqual({ result: 3 });
    expect(await t.invoke({ value: 1, add: 10 })).toEqual({ result: 11 });
    expect(
      await new ComponentTool({ component: new UserGreeter() }).invoke({ name: "Ada", times: 2 }),
    ).toEqual({
      message: "Hello, Ada! Hello, Ada!",
    });
  });

  test("invalid arguments are reported before the component runs", async () => {
    const t = new ComponentTool({ component: new AddFixedValue() });
    const error = await t.invoke({ value: "one" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInvocationError);
    expect((error as ToolInvocationError).issues.map((issue) => issue.path)).toEqual([["value"]]);
  });

  test("chat message inputs are described and converted from JSON", async () => {
    const t = new ComponentTool({ component: new LastMessage() });
    const messages = t.parameters.properties?.messages as { type: string; items: { properties: object } };
    expect(messages.type).toBe("array");
    expect(Object.keys(messages.items.properties)).toEqual(["role", "content", "name", "meta"]);
    const result = await t.invoke({
      messages: [ChatMessage.fromUser("a").toJSON(), { role: "user", content: "b" }],
    });
    expect(result).toEqual({ text: "b" });
  });

  test("variadic sockets take a list", async () => {
    const t = new ComponentTool({ component: new Joiner() });
    expect(t.parameters.properties?.parts).toMatchObject({ type: "array", items: { type: "string" } });
    expect(await t.invoke({ parts: ["a", "b"] })).toEqual({ joined: "a+b" });
  });

  test("inputs a model cannot send are an error unless filled from State", async () => {
    expect(() => new ComponentTool({ component: new DateUser() })).toThrow(
      /parameters\.when[\s\S]*inputsFromState/,
    );
    const t = new ComponentTool({ component: new DateUser(), inputsFromState: { today: "when" } });
    expect(Object.keys(t.spec.parameters.properties ?? {})).toEqual(["label"]);
    expect(await t.invoke({ when: new Date(Date.UTC(2024, 0, 1)), label: "y" })).toEqual({ out: "y:2024" });
  });

  test("inputsFromState must name an input socket; outputsToState sources must be output sockets", () => {
    expect(
      () => new ComponentTool({ component: new AddFixedValue(), inputsFromState: { x: "nope" } }),
    ).toThrow(/unknown parameter "nope"/);
    expect(
      () =>
        new ComponentTool({
          component: new AddFixedValue(),
          outputsToState: { total: { source: "nonexistent" } },
        }),
    ).toThrow(/maps state key "total" to unknown output "nonexistent"[\s\S]*"result"/);
    const ok = new ComponentTool({
      component: new AddFixedValue(),
      outputsToState: { total: { source: "result" } },
    });
    expect(ok.outputsToState).toEqual({ total: { source: "result" } });
  });

  test("explicit parameters replace the derived schema", () => {
    const parameters = {
      type: "object",
      properties: { value: { type: "number" } },
      required: ["value"],
    } as const;
    const t = new ComponentTool({ component: new AddFixedValue(), parameters });
    expect(t.parameters).toEqual(parameters);
    expect(t.explicitParameters).toEqual(parameters);
  });

  test("rejects what is not a component", () => {
    expect(() => new ComponentTool({ component: {} as never })).toThrow(ToolDefinitionError);
  });

  test("warmUp warms the component once", async () => {
    let warmUps = 0;
    const Warm = defineComponent({
      type: "test.llm.Warm",
      inputs: { x: z.number() },
      outputs: { y: z.number() },
      warmUp: () => {
        warmUps++;
      },
      run: ({ x }) => ({ y: x }),
    });
    const t = new ComponentTool({ component: new Warm() });
    await t.warmUp();
    await t.warmUp();
    await t.invoke({ x: 1 });
    expect(warmUps).toBe(1);
  });
});
