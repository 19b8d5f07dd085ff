import { Agent, AgentRunError } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { createRegistry, MemoryLogger, Pipeline, PipelineRuntimeError } from "@junction/core";
import {
  ChatMessage,
  chatMessageSchema,
  ScriptedChatGenerator,
  type StreamingChunk,
  tool,
} from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

function weather({ city }: { city: string }) {
  return `Sunny in ${city}`;
}

const weatherTool = tool({
  name: "weather",
  description: "Current weather for a city",
  parameters: z.object({ city: z.string() }),
  function: weather,
});

const registry = createRegistry().registerFunction("test.agentPipeline.weather", weather);

function build(script: ConstructorParameters<typeof ScriptedChatGenerator>[0], maxAgentSteps = 5) {
  const logger = new MemoryLogger();
  const pipeline = new Pipeline({ logger });
  pipeline.addComponent(
    "agent",
    new Agent({ chatGenerator: new ScriptedChatGenerator(script), tools: [weatherTool], maxAgentSteps }),
  );
  pipeline.addComponent(
    "router",
    new ConditionalRouter({
      routes: [
        {
          condition: 'exit_reason == "text"',
          output: "last_message",
          outputName: "answer",
          outputType: chatMessageSchema,
        },
        {
          condition: 'exit_reason != "text"',
          output: "exit_reason",
          outputName: "gave_up",
          outputType: z.string(),
        },
      ],
    }),
  );
  pipeline
    .connect("agent.exit_reason", "router.exit_reason")
    .connect("agent.last_message", "router.last_message");
  return { pipeline, logger };
}

const askWeather = { agent: { messages: [ChatMessage.fromUser("Weather in Paris?")] } };

describe("an Agent inside a Pipeline", () => {
  test("a ConditionalRouter routes on the agent's exit_reason: text answer", async () => {
    const { pipeline } = build({
      script: [
        { toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] },
        "It is sunny in Paris.",
      ],
    });
    const outputs = await pipeline.run(askWeather);
    expect((outputs.router?.answer as ChatMessage | undefined)?.text).toBe("It is sunny in Paris.");
    expect(outputs.router?.gave_up).toBeUndefined();
  });

  test("a ConditionalRouter routes on the agent's exit_reason: max_agent_steps", async () => {
    const { pipeline, logger } = build(
      {
        script: [{ toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] }],
        onScriptEnd: "repeatLast",
      },
      2,
    );
    const outputs = await pipeline.run(askWeather);
    expect(outputs.router).toEqual({ gave_up: "max_agent_steps" });
    // The router consumes exit_reason, so reaching the limit is a normal route: logged at info.
    expect(logger.messages("warn").join("\n")).not.toMatch(/maximum agent steps/);
    expect(logger.messages("info").join("\n")).toMatch(
      /maximum agent steps \(2\).*exit_reason "max_agent_steps" is routed by the pipeline/,
    );
  });

  test("Pipeline.stream surfaces the model's chunks and the tool results", async () => {
    const { pipeline } = build({
      script: [{ toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] }, "Sunny."],
      stream: true,
    });
    const chunks: StreamingChunk[] = [];
    for await (const event of pipeline.stream(askWeather)) {
      if (event.type === "chunk" && event.componentName === "agent")
        chunks.push(event.chunk as StreamingChunk);
    }
    expect(
      chunks.filter((chunk) => chunk.toolCallResult !== undefined).map((c) => c.toolCallResult?.result),
    ).toEqual(["Sunny in Paris"]);
    expect(chunks.map((chunk) => chunk.content).join("")).toBe("Sunny.");
  });

  test("an agent failure becomes a PipelineRuntimeError whose cause carries the conversation", async () => {
    const { pipeline } = build({
      script: [{ toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] }],
    });
    const error = await pipeline.run(askWeather).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PipelineRuntimeError);
    expect((error as PipelineRuntimeError).componentName).toBe("agent");
    const cause = (error as PipelineRuntimeError).cause as AgentRunError;
    expect(cause).toBeInstanceOf(AgentRunError);
    expect(cause.messages).toHaveLength(3);
  });

  test("the pipeline with its agent round-trips through JSON", async () => {
    const { pipeline } = build({
      script: [
        { toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] },
        "It is sunny in Paris.",
      ],
    });
    const doc = pipeline.toJSON({ registry });
    const loaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(doc)), { registry });
    expect(loaded.toJSON({ registry })).toEqual(doc);
    const outputs = await loaded.run(askWeather);
    expect((outputs.router?.answer as ChatMessage | undefined)?.text).toBe("It is sunny in Paris.");
  });
});
