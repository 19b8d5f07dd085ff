/**
 * A PipelineTool reports the token usage of the generators it ran (also inside a nested
 * SuperComponent, counted once) to the calling agent, like an AgentTool does for its sub-agent.
 */
import { Agent } from "@junction/agents";
import { ChatPromptBuilder } from "@junction/components";
import { Pipeline, SuperComponent } from "@junction/core";
import { ChatMessage, ComponentTool, PipelineTool, ScriptedChatGenerator } from "@junction/llm";
import { expect, test } from "vitest";

const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

/** A prompt builder feeding a generator that answers with `usage`. */
function answering(text: string, spent: ReturnType<typeof usage>): Pipeline {
  const pipeline = new Pipeline();
  pipeline.addComponent(
    "prompt",
    new ChatPromptBuilder({ template: [ChatMessage.fromUser("{{ query }}")], requiredVariables: ["query"] }),
  );
  pipeline.addComponent(
    "llm",
    new ScriptedChatGenerator({ script: [{ text, usage: spent }], onScriptEnd: "repeatLast" }),
  );
  pipeline.connect("prompt.prompt", "llm.messages");
  return pipeline;
}

function caller(toolName: string) {
  return new ScriptedChatGenerator({
    script: [
      {
        toolCalls: [{ id: "c1", toolName, arguments: { query: "Capital of France?" } }],
        usage: usage(100, 20),
      },
      { text: "Paris.", usage: usage(200, 10) },
    ],
  });
}

test("a PipelineTool reports its generators' usage, a nested SuperComponent's counted once", async () => {
  const pipeline = answering("Paris is the capital.", usage(7, 3));
  pipeline.addComponent(
    "second",
    new SuperComponent({
      pipeline: answering("Yes, Paris.", usage(1, 1)),
      inputMapping: { query: ["prompt.query"] },
      outputMapping: { "llm.replies": "replies" },
    }),
  );
  const research = new PipelineTool({
    pipeline,
    name: "research",
    description: "Finds facts",
    inputMapping: { query: ["prompt.query", "second.query"] },
    outputMapping: { "llm.replies": "replies" },
  });
  const agent = new Agent({ chatGenerator: caller("research"), tools: [research] });
  const out = await agent.run({ messages: [ChatMessage.fromUser("Where?")] });
  expect(out.token_usage).toEqual({
    prompt_tokens: 308,
    completion_tokens: 34,
    total_tokens: 342,
    by_tool: { research: usage(8, 4) },
  });
});

test("a ComponentTool over a generator reports the usage of its replies", async () => {
  const tool = new ComponentTool({
    component: new ScriptedChatGenerator({ script: [{ text: "Paris.", usage: usage(5, 5) }] }),
    name: "ask",
    description: "Asks another model",
    parameters: {
      type: "object",
      properties: { messages: { type: "array", items: { type: "object" } } },
    },
  });
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({
      script: [
        {
          toolCalls: [
            {
              id: "c1",
              toolName: "ask",
              arguments: { messages: [{ role: "user", content: [{ text: "Hi" }] }] },
            },
          ],
          usage: usage(1, 1),
        },
        "Done.",
      ],
    }),
    tools: [tool],
  });
  const out = await agent.run({ messages: [ChatMessage.fromUser("Ask it.")] });
  expect(out.token_usage).toMatchObject({ prompt_tokens: 6, by_tool: { ask: usage(5, 5) } });
});
