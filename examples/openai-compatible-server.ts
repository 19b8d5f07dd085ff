/**
 * Using any OpenAI-compatible server (Ollama, vLLM, llama.cpp's server, LM Studio): point
 * `OPENAI_BASE_URL` at it. No API key is needed when the server does not ask for one.
 *
 *   OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=llama3.2 \
 *     npx tsx --conditions=@junction/source examples/openai-compatible-server.ts
 */

import { ChatPromptBuilder } from "@junction/components";
import { Pipeline } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { type ExampleIO, runIfMain } from "./io.js";

/** Asks the server one question through a small pipeline. */
export async function main(
  io: ExampleIO,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string | undefined> {
  if (!env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) {
    io.write(
      "Set OPENAI_BASE_URL (and OPENAI_MODEL) to an OpenAI-compatible server, e.g. OPENAI_BASE_URL=http://localhost:11434/v1\n",
    );
    return undefined;
  }
  const generator = new OpenAIChatGenerator({
    model: env.OPENAI_MODEL ?? "llama3.2",
    ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
  });
  const pipeline = new Pipeline()
    .addComponent(
      "prompt",
      new ChatPromptBuilder({ template: [ChatMessage.fromUser("In one sentence: what is {{ topic }}?")] }),
    )
    .addComponent("llm", generator)
    .connect("prompt.prompt", "llm.messages");
  const outputs = await pipeline.run({ prompt: { topic: "a pipeline" } });
  const reply = (outputs.llm as { replies: ChatMessage[] }).replies[0];
  io.write(`${reply?.text ?? "(no text)"}\n(model: ${String(reply?.meta.model)})\n`);
  return reply?.text;
}

runIfMain(import.meta.url, main);
