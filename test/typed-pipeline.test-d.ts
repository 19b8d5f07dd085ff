import { Agent } from "@junction/agents";
import { BranchJoiner, ConditionalRouter } from "@junction/components";
import { defineComponent, Pipeline, variadic } from "@junction/core";
import {
  type ChatMessage,
  chatMessageSchema,
  isStreamingChunk,
  ScriptedChatGenerator,
  type StreamingChunk,
} from "@junction/llm";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

const Adder = defineComponent({
  type: "typetest.typed.Adder",
  inputs: { value: z.number(), add: z.number().default(1) },
  outputs: { result: z.number() },
  run: ({ value, add }) => ({ result: value + add }),
});
const Labeler = defineComponent({
  type: "typetest.typed.Labeler",
  inputs: { value: z.number(), prefix: z.string().optional() },
  outputs: { label: z.string(), length: z.number() },
  run: ({ value, prefix }) => ({ label: `${prefix ?? ""}${value}`, length: 1 }),
});
const Collector = defineComponent({
  type: "typetest.typed.Collector",
  inputs: { items: variadic(z.string()) },
  outputs: { all: z.array(z.string()) },
  run: ({ items }) => ({ all: items }),
});

function adderPipeline() {
  return Pipeline.builder()
    .add("num", new Adder())
    .add("label", new Labeler())
    .connect("num.result", "label.value")
    .build();
}

test("run's nested inputs are the open sockets; mandatory ones required", async () => {
  const pipeline = adderPipeline();
  type Inputs = Parameters<typeof pipeline.run>[0];
  expectTypeOf<Inputs>().toEqualTypeOf<{
    num: { value: number; add?: number | undefined };
    label?: { prefix?: string | undefined };
  }>();
  await pipeline.run({ num: { value: 3 } });
  await pipeline.run({ num: { value: 3, add: 2 }, label: { prefix: "#" } });
  // @ts-expect-error misspelled component
  await pipeline.run({ nmu: { value: 3 } });
  // @ts-expect-error misspelled socket
  await pipeline.run({ num: { valeu: 3 } });
  // @ts-expect-error "label.value" is fed by "num.result", so it is not a run input
  await pipeline.run({ num: { value: 3 }, label: { value: 1 } });
  // @ts-expect-error the mandatory "num.value" is missing
  await pipeline.run({ num: {} });
  // @ts-expect-error the wrong type
  await pipeline.run({ num: { value: "3" } });
});

test("the result is the unconsumed outputs, plus includeOutputsFrom", async () => {
  const pipeline = adderPipeline();
  const outputs = await pipeline.run({ num: { value: 1 } });
  expectTypeOf(outputs).toEqualTypeOf<{ label?: { label?: string; length?: number } }>();
  // @ts-expect-error "num.result" is consumed, so "num" reports nothing
  void outputs.num;
  const all = await pipeline.run({ num: { value: 1 } }, { includeOutputsFrom: ["num"] });
  expectTypeOf(all.num).toEqualTypeOf<{ result?: number } | undefined>();
  expectTypeOf(all.label).toEqualTypeOf<{ label?: string; length?: number } | undefined>();
  // @ts-expect-error "nmu" is not a component
  await pipeline.run({ num: { value: 1 } }, { includeOutputsFrom: ["nmu"] });
});

test("a variadic socket fed by a sender still takes run input, optionally", async () => {
  const pipeline = Pipeline.builder()
    .add("label", new Labeler())
    .add("collect", new Collector())
    .connect("label.label", "collect.items")
    .build();
  type Inputs = Parameters<typeof pipeline.run>[0];
  expectTypeOf<Inputs>().toEqualTypeOf<{
    label: { value: number; prefix?: string | undefined };
    collect?: { items?: string[] };
  }>();
});

test("an agent routed on exit_reason: typed inputs, typed result", async () => {
  const pipeline = Pipeline.builder()
    .add(
      "agent",
      new Agent({
        chatGenerator: new ScriptedChatGenerator({ script: ["Hi"] }),
        exitConditions: ["text", "final_answer"],
      }),
    )
    .add(
      "router",
      new ConditionalRouter({
        routes: [
          {
            condition: 'exit_reason == "text"',
            output: "last_message",
            outputName: "answer",
            outputType: chatMessageSchema,
          },
          { condition: "true", output: "exit_reason", outputName: "gave_up", outputType: z.string() },
        ],
        variableTypes: { exit_reason: z.string(), last_message: chatMessageSchema },
      }),
    )
    .connect("agent.exit_reason", "router.exit_reason")
    .connect("agent.last_message", "router.last_message")
    .build();
  const outputs = await pipeline.run({ agent: { messages: [] } });
  expectTypeOf(outputs.router).toEqualTypeOf<{ answer?: ChatMessage; gave_up?: string } | undefined>();
  expectTypeOf(outputs.agent?.step_count).toEqualTypeOf<number | undefined>();
  const withAgent = await pipeline.run({ agent: { messages: [] } }, { includeOutputsFrom: ["agent"] });
  expectTypeOf(withAgent.agent?.exit_reason).toEqualTypeOf<
    "text" | "max_agent_steps" | "length" | "content_filter" | "final_answer" | undefined
  >();
  // @ts-expect-error messages is mandatory for the agent
  await pipeline.run({ agent: {} });
});

test("stream: chunks narrow to StreamingChunk with isStreamingChunk; run_end outputs are typed", async () => {
  const pipeline = adderPipeline();
  for await (const event of pipeline.stream({ num: { value: 1 } })) {
    if (event.type === "chunk") {
      expectTypeOf(event.componentName).toEqualTypeOf<"num" | "label">();
      if (isStreamingChunk(event.chunk)) expectTypeOf(event.chunk).toEqualTypeOf<StreamingChunk>();
    }
    if (event.type === "run_end") {
      expectTypeOf(event.outputs).toEqualTypeOf<{ label?: { label?: string; length?: number } }>();
    }
  }
});

test("a loop through a BranchJoiner: the joiner's entry stays a run input", async () => {
  const pipeline = Pipeline.builder()
    .add("entry", new BranchJoiner({ type: z.number() }))
    .add("num", new Adder())
    .connect("entry.value", "num.value")
    .connect("num.result", "entry.value")
    .build();
  await pipeline.run({ entry: { value: [1] } });
});

test("a plain Pipeline stays loosely typed for dynamic use", async () => {
  const pipeline: Pipeline = adderPipeline();
  const outputs = await pipeline.run({ value: 1 });
  expectTypeOf(outputs).toEqualTypeOf<Record<string, Record<string, unknown> | undefined>>();
});
