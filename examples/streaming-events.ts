/**
 * Streaming a pipeline's events: `Pipeline.stream` yields component starts and ends, every chunk a
 * component emits (here, the tokens of a streaming generator), and a final event with the outputs.
 *
 * Run: npx tsx --conditions=@junction/source examples/streaming-events.ts
 */

import { PromptBuilder } from "@junction/components";
import { Pipeline } from "@junction/core";
import { ScriptedChatGenerator, StreamingChunk } from "@junction/llm";
import { type ExampleIO, runIfMain } from "./io.js";

/** Streams a prompt → generator pipeline and prints every event. */
export async function main(io: ExampleIO): Promise<string[]> {
  const pipeline = new Pipeline()
    .addComponent("prompt", new PromptBuilder({ template: "Say hello to {{ name }}." }))
    .addComponent(
      "llm",
      new ScriptedChatGenerator({ script: ["Hello, Ada! Nice to meet you."], stream: true }),
    )
    .connect("prompt.prompt", "llm.messages");
  const kinds: string[] = [];
  for await (const event of pipeline.stream({ prompt: { name: "Ada" } })) {
    kinds.push(event.type);
    switch (event.type) {
      case "component_start":
        io.write(`▶ ${event.componentName} (visit ${event.visit})\n`);
        break;
      case "chunk":
        if (event.chunk instanceof StreamingChunk && event.chunk.content !== "")
          io.write(`  chunk: ${JSON.stringify(event.chunk.content)}\n`);
        break;
      case "component_end":
        io.write(`■ ${event.componentName} → ${Object.keys(event.outputs).join(", ")}\n`);
        break;
      case "run_end":
        io.write(`done: ${JSON.stringify(event.outputs)}\n`);
        break;
    }
  }
  return kinds;
}

runIfMain(import.meta.url, main);
