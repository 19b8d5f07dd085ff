/**
 * An agent run traced with OpenTelemetry: the spans follow the GenAI semantic conventions
 * (`invoke_agent`, `chat {model}`, `execute_tool {tool}`), parallel tool calls are siblings, and message
 * content is left out unless switched on.
 *
 * Spans go to an in-memory exporter here so the example runs offline; in an application, register an
 * OTLP exporter instead (see docs/observability.md).
 *
 * Run: npx tsx --conditions=@junction/source examples/opentelemetry.ts
 */
import { Agent } from "@junction/agents";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { OpenTelemetryTracer } from "@junction/otel";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

const weather = tool({
  name: "weather",
  description: "The weather in a city",
  parameters: z.object({ city: z.string() }),
  function: async ({ city }) => `sunny in ${city}`,
});

/** Runs a traced agent and prints the span tree; returns the printed lines. */
export async function main(io: ExampleIO): Promise<string[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator({
      model: "gpt-5-mini",
      script: [
        {
          toolCalls: [
            { toolName: "weather", arguments: { city: "Paris" }, id: "call-paris" },
            { toolName: "weather", arguments: { city: "Rome" }, id: "call-rome" },
          ],
          usage: { prompt_tokens: 42, completion_tokens: 12, total_tokens: 54 },
        },
        { text: "Sunny in both.", usage: { prompt_tokens: 80, completion_tokens: 5, total_tokens: 85 } },
      ],
    }),
    tools: [weather],
  });
  const tracer = new OpenTelemetryTracer({ tracer: provider.getTracer("example") });
  await agent.run({ messages: [ChatMessage.fromUser("Weather in Paris and Rome?")] }, { tracer });

  const spans = exporter.getFinishedSpans();
  const children = (parent: ReadableSpan | undefined) =>
    spans
      .filter((span) =>
        parent === undefined
          ? span.parentSpanContext === undefined
          : span.parentSpanContext?.spanId === parent.spanContext().spanId,
      )
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const lines: string[] = [];
  const show = (span: ReadableSpan, depth: number) => {
    const a = span.attributes;
    const detail =
      a["gen_ai.operation.name"] === "chat"
        ? ` (CLIENT; ${a["gen_ai.usage.input_tokens"]} in / ${a["gen_ai.usage.output_tokens"]} out; finish ${JSON.stringify(a["gen_ai.response.finish_reasons"])})`
        : a["gen_ai.tool.call.id"] !== undefined
          ? ` (${a["gen_ai.tool.call.id"]})`
          : "";
    lines.push(`${"  ".repeat(depth)}${span.name}${detail}`);
    for (const child of children(span)) show(child, depth + 1);
  };
  for (const root of children(undefined)) show(root, 0);
  io.write(`${lines.join("\n")}\n`);
  const content = spans.some((span) => "gen_ai.input.messages" in span.attributes);
  io.write(
    `message content recorded: ${content ? "yes" : "no (set captureContent or OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)"}\n`,
  );
  return lines;
}

runIfMain(import.meta.url, main);
