import { createRegistry, DeserializationError, defineComponent, SerializationError } from "@junction/core";
import {
  type AnyTool,
  ComponentTool,
  Tool,
  type ToolInit,
  Toolset,
  toolFromJSON,
  toolsetFromJSON,
  toolsetToJSON,
  toolsFromJSON,
  toolsToJSON,
  toolToJSON,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const weatherFunction = ({ city }: Record<string, unknown>) => ({
  reply: `sunny in ${String(city)}`,
  docs: [],
});
const formatReply = (value: unknown) => `Weather: ${String(value)}`;
const appendDocs = (current: unknown, incoming: unknown) => [
  ...((current as unknown[]) ?? []),
  ...(incoming as unknown[]),
];

const registry = createRegistry()
  .registerFunction("test.weather", weatherFunction)
  .registerFunction("test.formatReply", formatReply)
  .registerFunction("test.appendDocs", appendDocs);

const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;

function weather(extra: Partial<ToolInit> = {}): Tool {
  return new Tool({
    name: "weather",
    description: "Get weather report",
    parameters,
    function: weatherFunction,
    ...extra,
  });
}

const Adder = defineComponent({
  type: "test.llm.serialization.Adder",
  params: z.object({ add: z.number().default(1) }),
  inputs: { value: z.number() },
  outputs: { result: z.number() },
  run: ({ value }, { params }) => ({ result: value + params.add }),
});

describe("toolToJSON / toolFromJSON", () => {
  test("writes the reference's shape with functions by registered name", () => {
    const t = weather({
      inputsFromState: { location: "city" },
      outputsToState: { documents: { source: "docs", handler: appendDocs } },
      outputsToString: { source: "reply", handler: formatReply },
    });
    expect(toolToJSON(t, { registry })).toEqual({
      type: "junction.Tool",
      data: {
        name: "weather",
        description: "Get weather report",
        parameters,
        function: "test.weather",
        inputs_from_state: { location: "city" },
        outputs_to_state: { documents: { source: "docs", handler: "test.appendDocs" } },
        outputs_to_string: { source: "reply", handler: "test.formatReply" },
        needs_state: false,
      },
    });
  });

  test("round trips, and the loaded tool works", async () => {
    const t = weather({
      outputsToState: { documents: { handler: appendDocs } },
      outputsToString: { summary: { source: "reply", handler: formatReply } },
      needsState: true,
    });
    const doc = JSON.parse(JSON.stringify(toolToJSON(t, { registry })));
    const loaded = toolFromJSON(doc, { registry });
    expect(toolToJSON(loaded, { registry })).toEqual(doc);
    expect(loaded.function).toBe(weatherFunction);
    expect(loaded.outputsToState?.documents?.handler).toBe(appendDocs);
    expect(loaded.needsState).toBe(true);
  });

  test("raw_result is written in snake_case and read back", () => {
    const doc = toolToJSON(weather({ outputsToString: { rawResult: true } }), { registry });
    expect(doc.data.outputs_to_string).toEqual({ raw_result: true });
    expect(toolFromJSON(doc, { registry }).outputsToString).toEqual({ rawResult: true });
  });

  test("zod parameters are written as JSON Schema", () => {
    const t = new Tool({
      name: "t",
      description: "",
      parameters: z.object({ q: z.string() }),
      function: weatherFunction,
    });
    const doc = toolToJSON(t, { registry });
    expect(doc.data.parameters).toEqual({
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
    });
    expect(toolFromJSON(doc, { registry }).parameters).toEqual(doc.data.parameters);
  });

  test("unregistered functions cannot be written, and the error says how to register them", () => {
    const t = weather({ function: () => 1, outputsToString: { handler: (v: unknown) => String(v) } });
    try {
      toolToJSON(t, { registry });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SerializationError);
      expect((error as SerializationError).issues.map((issue) => issue.path.join("."))).toEqual([
        "data.outputs_to_string.handler",
        "data.function",
      ]);
      expect((error as Error).message).toMatch(/registry\.registerFunction\(/);
    }
  });

  test("loading resolves functions only through the registry and reports every problem", () => {
    const doc = {
      type: "junction.Tool",
      data: {
        name: "bad name",
        description: "x",
        parameters,
        function: "globalThis.eval",
        outputs_to_state: { docs: { handler: "test.missing" } },
      },
    };
    try {
      toolFromJSON(doc, { registry, path: ["tools", 0] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DeserializationError);
      expect((error as DeserializationError).issues.map((issue) => issue.path.join("."))).toEqual([
        "tools.0.data.outputs_to_state.docs.handler",
        "tools.0.data.function",
      ]);
    }
    expect(() =>
      toolFromJSON(
        { ...doc, data: { ...doc.data, function: "test.weather", outputs_to_state: null } },
        { registry },
      ),
    ).toThrow(/data\.name: "bad name" is not a valid tool name/);
    expect(() => toolFromJSON({ type: "os.System", data: {} }, { registry })).toThrow(
      /unknown tool type "os.System"/,
    );
    expect(() => toolFromJSON("weather", { registry })).toThrow(DeserializationError);
  });

  test("ComponentTool is written with its component document", async () => {
    const t = new ComponentTool({
      component: new Adder({ add: 5 }),
      outputsToState: { total: { source: "result" } },
    });
    const doc = toolToJSON(t, { registry });
    expect(doc).toEqual({
      type: "junction.ComponentTool",
      data: {
        component: { type: "test.llm.serialization.Adder", init_parameters: { add: 5 } },
        name: "adder",
        description: "adder",
        parameters: null,
        inputs_from_state: null,
        outputs_to_state: { total: { source: "result" } },
        outputs_to_string: null,
      },
    });
    const loaded = toolFromJSON(JSON.parse(JSON.stringify(doc)), { registry });
    expect(loaded).toBeInstanceOf(ComponentTool);
    expect(await loaded.invoke({ value: 1 })).toEqual({ result: 6 });
    expect(toolToJSON(loaded, { registry })).toEqual(doc);
  });
});

describe("toolsets", () => {
  test("a toolset round trips with its tools", () => {
    const toolset = new Toolset([weather(), new ComponentTool({ component: new Adder() })]);
    const doc = toolsetToJSON(toolset, { registry });
    expect(doc.type).toBe("junction.Toolset");
    expect((doc.data.tools as unknown[]).length).toBe(2);
    const loaded = toolsetFromJSON(JSON.parse(JSON.stringify(doc)), { registry });
    expect(loaded.tools().map((t) => t.name)).toEqual(["weather", "adder"]);
    expect(toolsetToJSON(loaded, { registry })).toEqual(doc);
  });

  test("a dynamic toolset is written by its registered source function", () => {
    const source = (): AnyTool[] => [weather()];
    const local = createRegistry({ parent: registry }).registerFunction("test.liveTools", source);
    const doc = toolsetToJSON(new Toolset(source), { registry: local });
    expect(doc).toEqual({ type: "junction.Toolset", data: { source: "test.liveTools" } });
    const loaded = toolsetFromJSON(doc, { registry: local });
    expect(loaded.dynamic).toBe(true);
    expect(loaded.tools().map((t) => t.name)).toEqual(["weather"]);
    expect(() => toolsetToJSON(new Toolset(() => []), { registry })).toThrow(SerializationError);
  });

  test("toolsToJSON keeps tool and toolset boundaries", () => {
    const tools = [weather(), new Toolset([new ComponentTool({ component: new Adder() })])];
    const doc = toolsToJSON(tools, { registry });
    expect(Array.isArray(doc) && doc.map((d) => d.type)).toEqual(["junction.Tool", "junction.Toolset"]);
    const loaded = toolsFromJSON(JSON.parse(JSON.stringify(doc)), { registry }) as (AnyTool | Toolset)[];
    expect(loaded[0]).toBeInstanceOf(Tool);
    expect(loaded[1]).toBeInstanceOf(Toolset);
    expect(toolsToJSON(loaded, { registry })).toEqual(doc);
    const single = toolsToJSON(new Toolset([weather()]), { registry });
    expect(toolsFromJSON(single, { registry })).toBeInstanceOf(Toolset);
  });

  test("duplicate names in a loaded toolset are reported", () => {
    const one = toolToJSON(weather(), { registry });
    expect(() =>
      toolsetFromJSON({ type: "junction.Toolset", data: { tools: [one, one] } }, { registry }),
    ).toThrow(/duplicate tool names found: "weather"/);
  });
});
