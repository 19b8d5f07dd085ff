import { type Tool, type ToolContext, tool } from "@junction/llm";
import { expectTypeOf, test } from "vitest";
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
  tool({
    name: "t",
    description: "",
    parameters: z.object({ a: z.number() }),
    function: ({ a }) => a,
    // @ts-expect-error "b" is not a parameter
    inputsFromState: { key: "b" },
  });
});

test("JSON Schema parameters give record arguments", () => {
  const t = tool({
    name: "t",
    description: "",
    parameters: { type: "object", properties: { q: { type: "string" } } },
    function: async (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return "x";
    },
  });
  expectTypeOf(t).toEqualTypeOf<Tool<Record<string, unknown>, string>>();
});
