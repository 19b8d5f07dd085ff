import { type JsonObjectSchema, type JsonSchemaType, Tool, type ToolContext, tool } from "@junction/llm";
import { describe, expectTypeOf, test } from "vitest";
import { z } from "zod";

test("tool() infers the function's arguments from a zod schema", () => {
  const add = tool({
    name: "add",
    description: "Adds",
    parameters: z.object({ a: z.number(), b: z.number().default(1), note: z.string().optional() }),
    function: (args, context) => {
      expectTypeOf(args).toEqualTypeOf<{ a: number; b: number; note?: string | undefined }>();
      expectTypeOf(context).toEqualTypeOf<ToolContext>();
      return args.a + args.b;
    },
    inputsFromState: { previous: "a" },
  });
  expectTypeOf(add).toEqualTypeOf<Tool<{ a: number; b: number; note?: string | undefined }, number>>();
});

test("inputsFromState targets are checked against the parameter names", () => {
  // @ts-expect-error "b" is not a parameter (inputsFromState: { key: "b" })
  tool({
    name: "t",
    description: "",
    parameters: z.object({ a: z.number() }),
    function: ({ a }) => a,
    inputsFromState: { key: "b" },
  });
});

test("a literal JSON Schema types the arguments", () => {
  const t = tool({
    name: "t",
    description: "",
    parameters: { type: "object", properties: { q: { type: "string" } } },
    function: async (args) => {
      expectTypeOf(args).toEqualTypeOf<{ q?: string }>();
      return "x";
    },
  });
  expectTypeOf(t).toEqualTypeOf<Tool<{ q?: string }, string>>();
  const forecast = {
    type: "object",
    properties: {
      city: { type: "string" },
      days: { type: "integer" },
      unit: { enum: ["celsius", "fahrenheit"] },
      hours: { type: "array", items: { type: "number" } },
      where: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] },
      note: { type: ["string", "null"] },
    },
    required: ["city", "unit"],
  } as const;
  tool({
    name: "forecast",
    description: "Forecast",
    parameters: forecast,
    function: (args) => {
      expectTypeOf(args).toEqualTypeOf<{
        city: string;
        unit: "celsius" | "fahrenheit";
        days?: number;
        hours?: number[];
        where?: { lat: number };
        note?: string | null;
      }>();
      return args.city.toUpperCase();
    },
  });
});

test("a JSON Schema built at run time gives record arguments, without casts", () => {
  const parameters: JsonObjectSchema = JSON.parse('{"type":"object"}');
  const t = tool({
    name: "t",
    description: "",
    parameters,
    function: async (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return "x";
    },
  });
  expectTypeOf(t).toEqualTypeOf<Tool<Record<string, unknown>, string>>();
});

test("Tool[] holds any tool (typed arguments included)", () => {
  const weather = tool({
    name: "weather",
    description: "",
    parameters: z.object({ city: z.string() }),
    function: ({ city }) => city,
  });
  const clock = tool({ name: "clock", description: "", parameters: z.object({}), function: () => 12 });
  const raw = new Tool({
    name: "raw",
    description: "",
    parameters: { type: "object" },
    function: () => null,
  });
  const tools: Tool[] = [weather, clock, raw];
  expectTypeOf(tools).toEqualTypeOf<Tool[]>();
  const readonlyTools: readonly Tool[] = tools;
  void readonlyTools;
});

describe("JsonSchemaType (tool arguments and an Agent's JSON outputSchema share it)", () => {
  test("maps a literal schema; nesting past 10 levels is unknown instead of stalling the compiler", () => {
    expectTypeOf<
      JsonSchemaType<{
        type: "object";
        properties: { id: { type: "integer" }; tags: { type: "array"; items: { enum: ["a", "b"] } } };
        required: ["id"];
      }>
    >().toEqualTypeOf<{ id: number; tags?: ("a" | "b")[] }>();
    type Nest<T, N extends unknown[]> = N["length"] extends 12
      ? T
      : Nest<{ type: "array"; items: T }, [...N, 0]>;
    type Deep = JsonSchemaType<Nest<{ type: "string" }, []>>;
    expectTypeOf<Deep>().toEqualTypeOf<unknown[][][][][][][][][][]>();
    expectTypeOf<JsonSchemaType<true>>().toEqualTypeOf<unknown>();
  });
});
