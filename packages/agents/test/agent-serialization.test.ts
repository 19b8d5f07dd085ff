import { Agent, type State } from "@junction/agents";
import {
  createRegistry,
  DeserializationError,
  deserializeComponent,
  SerializationError,
  serializeComponent,
} from "@junction/core";
import { chatMessageSchema, Tool, Toolset } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { runAgent, scripted, user } from "./helpers.js";

function weather({ location }: Record<string, unknown>) {
  return { weather: `sunny in ${String(location)}`, documents: [`report for ${String(location)}`] };
}
function uniqueMerge(current: unknown, value: unknown) {
  return [...new Set([...((current as string[] | undefined) ?? []), ...(value as string[])])];
}
function budgetHook(_state: State) {}
function auditHook(_state: State) {}

const registry = createRegistry()
  .registerFunction("test.weather", weather)
  .registerFunction("test.uniqueMerge", uniqueMerge)
  .registerFunction("test.budgetHook", budgetHook)
  .registerFunction("test.auditHook", auditHook);

function weatherTool() {
  return new Tool({
    name: "weather_tool",
    description: "Weather",
    parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
    function: weather,
    outputsToState: { documents: { source: "documents" } },
  });
}

function makeAgent() {
  return new Agent({
    chatGenerator: scripted([
      { toolCalls: [{ toolName: "weather_tool", arguments: { location: "Paris" } }] },
      "done",
    ]),
    tools: [weatherTool(), new Toolset([])],
    systemPrompt: "Be brief.",
    exitConditions: ["text", "weather_tool"],
    stateSchema: {
      documents: { type: z.array(z.string()), handler: uniqueMerge },
      history: { type: z.array(chatMessageSchema) },
      topic: { type: z.string().optional() },
    },
    maxAgentSteps: 7,
    toolConcurrencyLimit: 2,
    hooks: { beforeLlm: [budgetHook], onExit: { run: auditHook } },
  });
}

describe("Agent serialization", () => {
  test("round-trips generator, tools, state schema, hooks and options", async () => {
    const doc = serializeComponent(makeAgent(), { registry });
    expect(doc.type).toBe("junction.Agent");
    const init = doc.init_parameters;
    expect(init.chatGenerator).toMatchObject({ type: "junction.ScriptedChatGenerator" });
    expect(init.stateSchema).toEqual({
      documents: { type: { type: "array", items: { type: "string" } }, handler: "test.uniqueMerge" },
      history: { type: { type: "array", items: { "x-junction-type": "ChatMessage" } } },
      topic: { type: expect.objectContaining({ type: "string" }) },
    });
    expect(init.hooks).toEqual({ beforeLlm: ["test.budgetHook"], onExit: ["test.auditHook"] });
    expect(init.exitConditions).toEqual(["text", "weather_tool"]);
    const json = JSON.parse(JSON.stringify(doc));
    const loaded = deserializeComponent(json, { registry }) as InstanceType<typeof Agent>;
    expect(serializeComponent(loaded, { registry })).toEqual(doc);
    expect(loaded.params.maxAgentSteps).toBe(7);
    expect(loaded.params.toolConcurrencyLimit).toBe(2);
    const result = await runAgent(loaded, { messages: [user("Weather?")] });
    expect(result.exit_reason).toBe("weather_tool");
    expect(result.documents).toEqual(["report for Paris"]);
  });

  test("an unregistered hook or tool function cannot be written; the error names each path", () => {
    let error: unknown;
    try {
      serializeComponent(makeAgent(), { registry: createRegistry() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SerializationError);
    expect((error as SerializationError).message).toMatch(/not registered/);
    // Every value that cannot be written is reported in one error: the tool function, the state
    // handler and both hooks.
    const paths = (error as SerializationError).issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining([
        "init_parameters.stateSchema.documents.handler",
        "init_parameters.hooks.beforeLlm.0",
        "init_parameters.hooks.onExit.0",
      ]),
    );
    expect(paths.some((path) => path.includes("tools"))).toBe(true);
    expect((error as SerializationError).message).toContain("registry.registerFunction(");
  });

  test("loading reports unknown function names with their paths", () => {
    const doc = JSON.parse(JSON.stringify(serializeComponent(makeAgent(), { registry })));
    doc.init_parameters.hooks.beforeLlm = ["test.missing"];
    doc.init_parameters.stateSchema.documents.handler = "test.alsoMissing";
    let error: unknown;
    try {
      deserializeComponent(doc, { registry });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeserializationError);
    const paths = (error as DeserializationError).issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining([
        "init_parameters.hooks.beforeLlm.0",
        "init_parameters.stateSchema.documents.handler",
      ]),
    );
  });
});

describe("Agent serialization with an outputSchema", () => {
  const Triage = z.object({
    category: z.enum(["billing", "shipping"]),
    priority: z.enum(["low", "high"]).describe("how urgent"),
    tags: z.array(z.string()).optional(),
  });

  test("writes the zod schema as JSON Schema and loads it back into an agent that validates the same way", async () => {
    const agent = new Agent({
      chatGenerator: scripted([
        '{"category":"billing","priority":"urgent"}',
        '{"category":"billing","priority":"low"}',
      ]),
      outputSchema: Triage,
      maxOutputRetries: 1,
    });
    const doc = JSON.parse(JSON.stringify(serializeComponent(agent, { registry })));
    expect(doc.init_parameters.outputSchema).toEqual({
      type: "object",
      properties: {
        category: { type: "string", enum: ["billing", "shipping"] },
        priority: { type: "string", enum: ["low", "high"], description: "how urgent" },
        tags: { type: "array", items: { type: "string" }, "x-junction-optional": true },
      },
      required: ["category", "priority"],
    });
    expect(doc.init_parameters).toMatchObject({
      outputStrategy: "auto",
      maxOutputRetries: 1,
      raiseOnInvalidOutput: false,
    });
    const loaded = deserializeComponent(doc, { registry }) as InstanceType<typeof Agent>;
    expect(serializeComponent(loaded, { registry })).toEqual(doc);
    const result = await runAgent(loaded, { messages: [user("Refund please")] });
    expect(result.step_count).toBe(2);
    expect(result.structured_output).toEqual({ category: "billing", priority: "low" });
  });

  test("an agent without an outputSchema writes no structured-output options", () => {
    const doc = serializeComponent(new Agent({ chatGenerator: scripted([]) }), { registry });
    expect(Object.keys(doc.init_parameters)).not.toContain("outputStrategy");
    expect(Object.keys(doc.init_parameters)).not.toContain("outputSchema");
  });

  test("a schema JSON Schema cannot describe is refused when writing, with its path", () => {
    const agent = new Agent({
      chatGenerator: scripted([]),
      outputSchema: z.object({ n: z.string().transform((value) => value.length) }),
    });
    expect(() => serializeComponent(agent, { registry })).toThrow(SerializationError);
  });
});
