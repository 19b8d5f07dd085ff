import { Agent, type InferOutputSchema, type JsonSchemaValue } from "@junction/agents";
import { ScriptedChatGenerator } from "@junction/llm";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

const generator = new ScriptedChatGenerator({ script: ["{}"] });
const Triage = z.object({
  category: z.enum(["billing", "shipping"]),
  priority: z.enum(["low", "high"]),
  tags: z.array(z.string()).default([]),
});
type Issues = { path: (string | number)[]; message: string }[];

test("structured_output is typed from a zod outputSchema; invalid_output joins exit_reason", async () => {
  const agent = new Agent({ chatGenerator: generator, outputSchema: Triage });
  const result = await agent.run({ messages: [] });
  expectTypeOf(result.structured_output).toEqualTypeOf<
    { category: "billing" | "shipping"; priority: "low" | "high"; tags: string[] } | undefined
  >();
  expectTypeOf(result.output_issues).toEqualTypeOf<Issues | undefined>();
  expectTypeOf(result.exit_reason).toEqualTypeOf<
    "text" | "max_agent_steps" | "length" | "content_filter" | "invalid_output"
  >();
  if (result.structured_output !== undefined) {
    // routers and code read its fields without casts
    expectTypeOf(result.structured_output.priority).toEqualTypeOf<"low" | "high">();
  }
});

test("without an outputSchema there is no structured_output and no invalid_output", async () => {
  const result = await new Agent({ chatGenerator: generator }).run({ messages: [] });
  // @ts-expect-error no structured_output without an outputSchema
  void result.structured_output;
  // @ts-expect-error not a reason this agent can report
  const reason: typeof result.exit_reason = "invalid_output";
  void reason;
});

test("a literal JSON Schema is read into its type; a widened one gives unknown", async () => {
  const inline = new Agent({
    chatGenerator: generator,
    outputSchema: {
      type: "object",
      properties: {
        level: { type: "integer" },
        label: { enum: ["a", "b"] },
        notes: { type: "array", items: { type: "string" } },
        owner: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["level", "label"],
    },
  });
  const typed = await inline.run({ messages: [] });
  expectTypeOf(typed.structured_output).toEqualTypeOf<
    { level: number; label: "a" | "b"; notes?: string[]; owner?: string | null } | undefined
  >();
  const widened: Record<string, unknown> = { type: "object" };
  const loose = await new Agent({ chatGenerator: generator, outputSchema: widened }).run({ messages: [] });
  expectTypeOf(loose.structured_output).toEqualTypeOf<unknown>();
  expectTypeOf<JsonSchemaValue<{ type: ["string", "null"] }>>().toEqualTypeOf<string | null>();
  expectTypeOf<InferOutputSchema<typeof Triage>>().toEqualTypeOf<z.output<typeof Triage>>();
});

test("structured_output and output_issues are output sockets only with an outputSchema", () => {
  const agent = new Agent({ chatGenerator: generator, outputSchema: z.array(z.string()) });
  expectTypeOf<"structured_output" | "output_issues">().toExtend<keyof typeof agent.outputSockets>();
  const plain = new Agent({ chatGenerator: generator });
  expectTypeOf<"structured_output">().not.toExtend<keyof typeof plain.outputSockets>();
});
