import { Agent } from "@junction/agents";
import { defineComponent, Pipeline } from "@junction/core";
import { ChatMessage, ComponentTool, ScriptedChatGenerator, tool } from "@junction/llm";
import { OpenTelemetryTracer } from "@junction/otel";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const otel = provider.getTracer("test");

afterEach(() => {
  exporter.reset();
  vi.unstubAllEnvs();
});

const weather = tool({
  name: "weather",
  description: "The weather in a city",
  parameters: z.object({ city: z.string() }),
  function: async ({ city }) => `sunny in ${city}`,
});
const broken = tool({
  name: "broken",
  description: "Always fails",
  parameters: z.object({}),
  function: () => {
    throw new RangeError("no data");
  },
});

function weatherAgent() {
  return new Agent({
    chatGenerator: new ScriptedChatGenerator({
      model: "scripted-1",
      script: [
        {
          toolCalls: [
            { toolName: "weather", arguments: { city: "Paris" }, id: "call-paris" },
            { toolName: "weather", arguments: { city: "Rome" }, id: "call-rome" },
            { toolName: "broken", arguments: {}, id: "call-broken" },
          ],
          usage: { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 },
        },
        { text: "Sunny in both.", usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } },
      ],
    }),
    tools: [weather, broken],
  });
}

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const one = (name: string): ReadableSpan => {
  const found = named(name);
  expect(
    found,
    `one span named "${name}" among ${spans()
      .map((span) => span.name)
      .join(", ")}`,
  ).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) =>
  spans().find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);

describe("OpenTelemetryTracer", () => {
  it("names and nests a pipeline run with an agent by the GenAI conventions", async () => {
    const pipeline = new Pipeline({ metadata: { name: "support" } }).addComponent("helper", weatherAgent());
    await pipeline.run(
      { helper: { messages: [ChatMessage.fromUser("Weather in Paris and Rome?")] } },
      { tracer: new OpenTelemetryTracer({ tracer: otel }) },
    );

    const workflow = one("invoke_workflow support");
    expect(workflow.kind).toBe(SpanKind.INTERNAL);
    expect(workflow.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_workflow",
      "gen_ai.workflow.name": "support",
    });
    const component = one("junction.component.run");
    expect(parentOf(component)).toBe(workflow);
    expect(component.attributes["junction.component.name"]).toBe("helper");

    const agent = one("invoke_agent helper");
    expect(parentOf(agent)).toBe(component);
    expect(agent.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "helper",
    });

    const chats = named("chat scripted-1");
    expect(chats).toHaveLength(2);
    const [first, second] = chats.sort(
      (a, b) => a.startTime[1] - b.startTime[1] || a.startTime[0] - b.startTime[0],
    );
    expect(first!.kind).toBe(SpanKind.CLIENT);
    expect(first!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted-1",
      "gen_ai.response.model": "scripted-1",
      "gen_ai.response.finish_reasons": ["tool_calls"],
      "gen_ai.usage.input_tokens": 30,
      "gen_ai.usage.output_tokens": 10,
    });
    expect(typeof first!.attributes["gen_ai.provider.name"]).toBe("string");
    expect(second!.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    expect(parentOf(parentOf(first!)!)?.name).toBe("junction.agent.step");

    // Parallel tools are siblings under their agent step.
    const tools = named("execute_tool weather");
    expect(tools.map((span) => span.attributes["gen_ai.tool.call.id"]).sort()).toEqual([
      "call-paris",
      "call-rome",
    ]);
    expect(tools[0]!.parentSpanContext?.spanId).toBe(tools[1]!.parentSpanContext?.spanId);
    expect(parentOf(tools[0]!)?.name).toBe("junction.agent.step");
    expect(parentOf(parentOf(tools[0]!)!)).toBe(agent);
    expect(tools[0]!.attributes).toMatchObject({
      "gen_ai.tool.name": "weather",
      "gen_ai.tool.type": "function",
    });

    // A failing tool: status ERROR with error.type.
    const failed = one("execute_tool broken");
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes["error.type"]).toBe("ToolInvocationError");
    expect(agent.status.code).toBe(SpanStatusCode.UNSET);

    // No content by default.
    for (const span of spans())
      for (const key of Object.keys(span.attributes))
        expect(key).not.toMatch(
          /^gen_ai\.(input|output)\.messages$|^junction\.(component\.(input|output)|pipeline\.(input|output)_data)$|gen_ai\.tool\.call\.(arguments|result)/,
        );
  });

  it("records message content only when switched on (option or environment variable)", async () => {
    await weatherAgent().run(
      { messages: [ChatMessage.fromUser("Weather?")] },
      { tracer: new OpenTelemetryTracer({ tracer: otel, captureContent: true }) },
    );
    const chat = named("chat scripted-1")[0]!;
    const input = JSON.parse(String(chat.attributes["gen_ai.input.messages"]));
    expect(input).toEqual([{ role: "user", parts: [{ type: "text", content: "Weather?" }] }]);
    const output = JSON.parse(String(chat.attributes["gen_ai.output.messages"]));
    expect(output[0]).toMatchObject({
      role: "assistant",
      finish_reason: "tool_calls",
      parts: [{ type: "tool_call", id: "call-paris", name: "weather", arguments: { city: "Paris" } }, {}, {}],
    });
    const tool = named("execute_tool weather").find(
      (span) => span.attributes["gen_ai.tool.call.id"] === "call-paris",
    )!;
    expect(tool.attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"Paris"}');
    expect(tool.attributes["gen_ai.tool.call.result"]).toBe("sunny in Paris");

    exporter.reset();
    vi.stubEnv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true");
    const fromEnv = new OpenTelemetryTracer({ tracer: otel });
    expect(fromEnv.captureContent).toBe(true);
    vi.stubEnv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "false");
    expect(new OpenTelemetryTracer({ tracer: otel }).captureContent).toBe(false);
  });

  it("nests an agent used as another agent's tool under that tool call", async () => {
    const inner = new Agent({
      chatGenerator: new ScriptedChatGenerator({ model: "inner-model", script: ["It is sunny."] }),
    });
    const outer = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        model: "outer-model",
        script: [
          {
            toolCalls: [
              {
                toolName: "ask_expert",
                arguments: {
                  messages: [{ role: "user", content: [{ text: "Weather?" }], name: null, meta: {} }],
                },
                id: "c1",
              },
            ],
          },
          "Done.",
        ],
      }),
      tools: [
        new ComponentTool({
          component: inner,
          name: "ask_expert",
          description: "Asks the expert",
          parameters: {
            type: "object",
            properties: { messages: { type: "array", items: { type: "object" } } },
            required: ["messages"],
          },
        }),
      ],
    });
    await outer.run(
      { messages: [ChatMessage.fromUser("Ask the expert")] },
      { tracer: new OpenTelemetryTracer({ tracer: otel }) },
    );
    const agents = named("invoke_agent agent");
    expect(agents).toHaveLength(2);
    const innerAgent = agents.find((span) => parentOf(span)?.name === "execute_tool ask_expert");
    expect(innerAgent).toBeDefined();
    const innerChat = one("chat inner-model");
    let ancestor: ReadableSpan | undefined = innerChat;
    while (ancestor !== undefined && ancestor !== innerAgent) ancestor = parentOf(ancestor);
    expect(ancestor).toBe(innerAgent);
    expect(new Set(spans().map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("keeps concurrent runs apart, each tool call under its own agent's step", async () => {
    const tracer = new OpenTelemetryTracer({ tracer: otel });
    await Promise.all([
      weatherAgent().run({ messages: [ChatMessage.fromUser("a")] }, { tracer }),
      weatherAgent().run({ messages: [ChatMessage.fromUser("b")] }, { tracer }),
    ]);
    const agents = named("invoke_agent agent");
    expect(agents).toHaveLength(2);
    expect(agents[0]!.spanContext().traceId).not.toBe(agents[1]!.spanContext().traceId);
    for (const agent of agents) {
      const steps = spans().filter((span) => parentOf(span) === agent);
      const toolSpans = spans().filter(
        (span) => span.name.startsWith("execute_tool") && steps.includes(parentOf(span)!),
      );
      expect(toolSpans).toHaveLength(3);
    }
  });

  it("marks a failed component and its pipeline with status ERROR and error.type", async () => {
    const Failing = defineComponent({
      type: "test.Failing",
      inputs: { value: z.number() },
      outputs: { value: z.number() },
      run: () => {
        throw new RangeError("out of range");
      },
    });
    const pipeline = new Pipeline().addComponent("failing", new Failing());
    await expect(
      pipeline.run({ value: 1 }, { tracer: new OpenTelemetryTracer({ tracer: otel }) }),
    ).rejects.toThrow();
    const component = one("junction.component.run");
    expect(component.status.code).toBe(SpanStatusCode.ERROR);
    expect(component.attributes["error.type"]).toBe("RangeError");
    const workflow = one("invoke_workflow pipeline");
    expect(workflow.status.code).toBe(SpanStatusCode.ERROR);
    expect(workflow.attributes["error.type"]).toBe("PipelineRuntimeError");
  });
});
