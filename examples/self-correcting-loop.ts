/**
 * A prompt → generator → validator → router pipeline with a loop: when the model's reply is not valid
 * JSON, the router sends the error back to the prompt builder, which asks again with the error in the
 * prompt, until the reply parses (or `maxRunsPerComponent` stops the loop).
 *
 * Run: npx tsx --conditions=@junction/source examples/self-correcting-loop.ts
 */

import { ChatPromptBuilder, ConditionalRouter } from "@junction/components";
import { defineComponent, Pipeline } from "@junction/core";
import { ChatMessage, chatMessageSchema, ScriptedChatGenerator } from "@junction/llm";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

/** Parses the first reply as a JSON object and reports whether that worked. */
export const JsonValidator = defineComponent({
  type: "examples.JsonValidator",
  inputs: { replies: z.array(chatMessageSchema) },
  outputs: { valid: z.boolean(), json: z.record(z.string(), z.unknown()), error: z.string() },
  run: ({ replies }) => {
    const text = replies[0]?.text ?? "";
    try {
      const json = JSON.parse(text) as unknown;
      if (typeof json !== "object" || json === null || Array.isArray(json))
        throw new Error("expected a JSON object");
      return { valid: true, json: json as Record<string, unknown>, error: "" };
    } catch (error) {
      return {
        valid: false,
        json: {},
        error: `${(error as Error).message} in reply ${JSON.stringify(text)}`,
      };
    }
  },
});

/** Builds the loop. The scripted model first answers with broken JSON, then corrects itself. */
export function buildSelfCorrectingPipeline(): Pipeline {
  const builder = new ChatPromptBuilder({
    template: [
      ChatMessage.fromUser(
        "Extract the person as JSON with keys name and born from: {{ passage }}" +
          "{% if error %}\nYour previous reply was invalid ({{ error }}). Reply with corrected JSON only.{% endif %}",
      ),
    ],
    requiredVariables: ["passage"],
  });
  const generator = new ScriptedChatGenerator({
    script: ['{"name": "Ada Lovelace", born: 1815}', '{"name": "Ada Lovelace", "born": 1815}'],
  });
  const router = new ConditionalRouter({
    routes: [
      {
        condition: "valid",
        output: "json",
        outputName: "person",
        outputType: z.record(z.string(), z.unknown()),
      },
      { condition: "!valid", output: "error", outputName: "retry", outputType: z.string() },
    ],
  });
  return new Pipeline({ maxRunsPerComponent: 5 })
    .addComponent("builder", builder)
    .addComponent("llm", generator)
    .addComponent("validator", new JsonValidator())
    .addComponent("router", router)
    .connect("builder.prompt", "llm.messages")
    .connect("llm.replies", "validator.replies")
    .connect("validator.valid", "router.valid")
    .connect("validator.json", "router.json")
    .connect("validator.error", "router.error")
    .connect("router.retry", "builder.error");
}

/** Runs the loop and prints each attempt. */
export async function main(io: ExampleIO): Promise<Record<string, unknown>> {
  const pipeline = buildSelfCorrectingPipeline();
  const passage = "Ada Lovelace, born in 1815, wrote the first published algorithm.";
  let result: Record<string, unknown> = {};
  for await (const event of pipeline.stream({ builder: { passage } })) {
    if (event.type === "component_end" && event.componentName === "validator") {
      const { valid, error } = event.outputs as { valid: boolean; error: string };
      io.write(`attempt ${event.visit}: ${valid ? "valid JSON" : `invalid — ${error}`}\n`);
    }
    if (event.type === "run_end") result = event.outputs;
  }
  io.write(`result: ${JSON.stringify(result)}\n`);
  return result;
}

runIfMain(import.meta.url, main);
