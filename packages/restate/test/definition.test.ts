import { Agent } from "@junction/agents";
import { defineComponent, MemoryLogger, Pipeline } from "@junction/core";
import { type AnyTool, ChatMessage, chatMessageSchema, ScriptedChatGenerator, tool } from "@junction/llm";
import { decodeRunInputs, definitionFingerprint, junctionWorkflow } from "@junction/restate";
import { expect, test } from "vitest";
import { z } from "zod";

const Echo = defineComponent({
  type: "rtest.Echo",
  params: z.object({ prefix: z.string().default("") }),
  inputs: { messages: z.array(chatMessageSchema).optional(), text: z.string().optional() },
  outputs: { text: z.string() },
  run: ({ text }, { params }) => ({ text: params.prefix + (text ?? "") }),
});

function pipeline(prefix: string): Pipeline {
  return new Pipeline({ logger: new MemoryLogger() }).addComponent("echo", new Echo({ prefix }));
}

const weather = tool({
  name: "weather",
  description: "Weather in a city",
  parameters: z.object({ city: z.string() }),
  function: ({ city }) => `sunny in ${city}`,
});

function agent(tools: AnyTool[] = [weather]) {
  return new Agent({ chatGenerator: new ScriptedChatGenerator({ script: ["hi"] }), tools });
}

test("the fingerprint changes with the definition and the version label, not between equal builds", () => {
  expect(definitionFingerprint(pipeline("a"))).toBe(definitionFingerprint(pipeline("a")));
  expect(definitionFingerprint(pipeline("a"))).not.toBe(definitionFingerprint(pipeline("b")));
  expect(definitionFingerprint(pipeline("a"), "v2")).not.toBe(definitionFingerprint(pipeline("a")));
  // An agent whose tool functions are not registered still has a fingerprint (a structural one).
  expect(definitionFingerprint(agent())).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(definitionFingerprint(agent())).toBe(definitionFingerprint(agent()));
  const extra = tool({ name: "extra", description: "x", parameters: z.object({}), function: () => 1 });
  expect(definitionFingerprint(agent([weather, extra]))).not.toBe(definitionFingerprint(agent()));
});

test("run bodies become run inputs: chat messages from their JSON, nested or flat", () => {
  const message = ChatMessage.fromUser("Hello");
  const nested = decodeRunInputs(pipeline(""), { echo: { messages: [message.toJSON()], text: "x" } });
  expect((nested.echo as { messages: ChatMessage[] }).messages[0]).toBeInstanceOf(ChatMessage);
  expect((nested.echo as { messages: ChatMessage[] }).messages[0]!.text).toBe("Hello");
  const flat = decodeRunInputs(pipeline(""), { messages: [message.toJSON()] });
  expect((flat.messages as ChatMessage[])[0]).toBeInstanceOf(ChatMessage);
  const direct = decodeRunInputs(agent(), { messages: [message.toJSON()] });
  expect((direct.messages as ChatMessage[])[0]!.text).toBe("Hello");
});

test("the workflow has the run, status, interrupts, decide and cancel handlers under its name", () => {
  const definition = junctionWorkflow({ name: "Tips", target: agent() }) as unknown as {
    name: string;
    workflow: Record<string, unknown>;
  };
  expect(definition.name).toBe("Tips");
  expect(Object.keys(definition.workflow).sort()).toEqual([
    "cancel",
    "decide",
    "interrupts",
    "run",
    "status",
  ]);
});

test("a run input that is not valid JSON of its named type passes through, and the run's validation reports it", async () => {
  const body = { echo: { messages: [{ role: "robot", content: [{ text: "x" }] }], text: "x" } };
  const decoded = decodeRunInputs(pipeline(""), body);
  expect(decoded).toEqual(body);
  await expect(pipeline("").run(decoded)).rejects.toThrow(
    "Pipeline.run: invalid inputs (1 problem):\n  - echo.messages[0]: Invalid input: expected ChatMessage, received object",
  );
});
