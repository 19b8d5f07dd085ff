import { Agent } from "@junction/agents";
import { defineComponent, defineNamedType, Pipeline } from "@junction/core";
import { ScriptedChatGenerator, tool } from "@junction/llm";
import { z } from "zod";

/** Pipelines and agents shared by the serve tests. */

export const Greet = defineComponent({
  type: "serve_test.Greet",
  inputs: { name: z.string(), punctuation: z.string().default("!") },
  outputs: { text: z.string() },
  run: ({ name, punctuation }) => ({ text: `Hello, ${name}${punctuation}` }),
});

export const Fail = defineComponent({
  type: "serve_test.Fail",
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: ({ text }) => {
    if (text === "boom") throw new RangeError("the text was boom");
    return { text };
  },
});

/** greet → fail, with declared inputs and outputs. */
export function greetPipeline(): Pipeline {
  const p = new Pipeline({ metadata: { description: "Greets someone by name." } });
  p.addComponent("greet", new Greet()).addComponent("check", new Fail());
  p.connect("greet.text", "check.text");
  p.declareIO({ inputs: { name: "greet.name" }, outputs: { greeting: "check.text" } });
  return p;
}

/** A component that waits for `release()` (or the run's signal), so tests control when it ends. */
let gates = 0;
export function gate() {
  gates += 1;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let aborted: (reason: unknown) => void = () => undefined;
  const abortedPromise = new Promise<unknown>((resolve) => {
    aborted = resolve;
  });
  let started: () => void = () => undefined;
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const Wait = defineComponent({
    type: `serve_test.Wait${gates}`,
    inputs: { value: z.string() },
    outputs: { value: z.string() },
    run: async ({ value }, { signal }) => {
      started();
      await new Promise<void>((resolve, reject) => {
        released.then(resolve);
        signal?.addEventListener("abort", () => {
          aborted(signal.reason);
          reject(signal.reason);
        });
      });
      return { value };
    },
  });
  return { Wait, release: () => release(), aborted: abortedPromise, started: startedPromise };
}

export const weather = tool({
  name: "weather",
  description: "The weather in a city.",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => `Sunny in ${city}.`,
});

/** An agent that calls the weather tool once, then answers (replies repeat for every request). */
export function weatherAgent(): InstanceType<typeof Agent> {
  return new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) =>
        messages.some((message) => message.role === "tool")
          ? {
              text: "It is sunny in Paris.",
              usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
            }
          : { toolCalls: [{ toolName: "weather", arguments: { city: "Paris" }, id: "call_1" }] },
      stream: true,
    }),
    tools: [weather],
    systemPrompt: "You answer weather questions.",
  });
}

/** A lone chat generator as a pipeline: messages in, `llm.replies` out. */
export function echoChatPipeline(): Pipeline {
  return new Pipeline().addComponent(
    "llm",
    new ScriptedChatGenerator({ script: ["Hello there"], onScriptEnd: "repeatLast", stream: true }),
  );
}

class Handle {}
export const handleSchema = defineNamedType("serve_test.Handle", z.instanceof(Handle));
export const NeedsHandle = defineComponent({
  type: "serve_test.NeedsHandle",
  inputs: { handle: handleSchema, text: z.string() },
  outputs: { ok: z.boolean() },
  run: () => ({ ok: true }),
});
