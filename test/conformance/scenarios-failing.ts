import {
  PipelineComponentsBlockedError,
  PipelineMaxComponentRuns,
  PipelineRuntimeError,
} from "@junction/core";
import { z } from "zod";
import { BranchJoiner, ConditionalRouter, PromptBuilder } from "./components/builtins.js";
import { assistant, chatMessageListSchema, user } from "./components/chat-message.js";
import { defineTestComponent } from "./components/define.js";
import { doc, documentListSchema } from "./components/document.js";
import type { FailingScenario } from "./harness.js";

/** "Running a bad Pipeline": each run must reject with the reference's error class. */

function numberRouter() {
  return new ConditionalRouter({
    routes: [
      {
        condition: "number > 2",
        output: "number",
        outputName: "big_number",
        outputType: z.number(),
      },
      {
        condition: "number <= 2",
        output: "number + 2",
        outputName: "small_number",
        outputType: z.number(),
      },
    ],
  });
}

const BrokenComponent = defineTestComponent({
  type: "conformance.failing.BrokenComponent",
  inputs: { a: z.number() },
  outputs: { b: z.number() },
  run: () => 1 as unknown as { b: number },
});

const FakeOutputValidator = defineTestComponent({
  type: "conformance.failing.FakeOutputValidator",
  inputs: { replies: z.array(z.string()) },
  outputs: {
    valid_replies: z.array(z.string()),
    invalid_replies: z.array(z.string()),
    error_message: z.string(),
  },
  setup: () => ({ called: false }),
  run: ({ replies }, { resources }) => {
    if (!resources.called) {
      resources.called = true;
      return { invalid_replies: ["This is an invalid reply"], error_message: "this is an error message" };
    }
    return { valid_replies: replies };
  },
});

const FakeGenerator = defineTestComponent({
  type: "conformance.failing.FakeGenerator",
  inputs: { prompt: z.string() },
  outputs: { replies: z.array(z.string()) },
  run: () => ({ replies: ["This is a valid reply"] }),
});

const TextlessChatGenerator = defineTestComponent({
  type: "conformance.failing.TextlessChatGenerator",
  inputs: { messages: chatMessageListSchema },
  outputs: { replies: chatMessageListSchema },
  run: () => ({ replies: [assistant()] }),
});

const RelevantRetriever = defineTestComponent({
  type: "conformance.failing.RelevantRetriever",
  inputs: { query: z.string() },
  outputs: { documents: documentListSchema },
  run: () => ({ documents: [doc({ content: "A relevant document" })] }),
});

const stuckTemplate = `Here is the comment: {{ comment }}

{% if invalid_replies != empty and error_message != empty %}
You already created the following output in a previous attempt: {{ invalid_replies }}
However, this doesn't comply with the format requirements from above and triggered this Python exception: {{ error_message }}
Correct the output and try again.
{% endif %}`;

export const failingScenarios: FailingScenario[] = [
  {
    name: "that has an infinite loop",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("main_input", new BranchJoiner({ type: z.number() }));
      p.addComponent("first_router", numberRouter());
      p.addComponent("second_router", numberRouter());
      p.connect("main_input", "first_router.number");
      p.connect("first_router.big_number", "second_router.number");
      p.connect("second_router.big_number", "main_input");
      return p;
    },
    inputs: { main_input: { value: 3 } },
    error: PipelineMaxComponentRuns,
    componentName: "main_input",
  },
  {
    name: "that has a component that doesn't return a dictionary",
    build: ({ pipeline }) => {
      const p = pipeline(10);
      p.addComponent("comp", new BrokenComponent());
      return p;
    },
    inputs: { comp: { a: 1 } },
    error: PipelineRuntimeError,
    componentName: "comp",
  },
  {
    name: "that has a cycle that would get it stuck",
    build: ({ pipeline }) => {
      // As the reference notes, the loop never starts: prompt_builder needs `invalid_replies` and
      // `error_message`, which only the loop can provide.
      const p = pipeline(1);
      p.addComponent(
        "prompt_builder",
        new PromptBuilder({
          template: stuckTemplate,
          requiredVariables: ["comment", "invalid_replies", "error_message"],
        }),
      );
      p.addComponent("llm", new FakeGenerator());
      p.addComponent("output_validator", new FakeOutputValidator());
      p.connect("prompt_builder.prompt", "llm.prompt");
      p.connect("llm.replies", "output_validator.replies");
      p.connect("output_validator.invalid_replies", "prompt_builder.invalid_replies");
      p.connect("output_validator.error_message", "prompt_builder.error_message");
      return p;
    },
    inputs: { prompt_builder: { comment: "I loved the quality of the meal but the courier was rude" } },
    error: PipelineComponentsBlockedError,
  },
  {
    name: "that fails automatic conversion between list of ChatMessage and str",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("chat_generator", new TextlessChatGenerator());
      p.addComponent("retriever", new RelevantRetriever());
      p.connect("chat_generator", "retriever");
      return p;
    },
    inputs: { chat_generator: { messages: [user("Find info on Milano Cortina Olympic Winter Games")] } },
    error: PipelineRuntimeError,
    componentName: "chat_generator",
  },
];
