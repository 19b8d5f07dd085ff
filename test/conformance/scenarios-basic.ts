import { defineNamedType, variadic } from "@junction/core";
import { z } from "zod";
import { assistant, chatMessageListSchema, system, user } from "./components/chat-message.js";
import { defineTestComponent } from "./components/define.js";
import { AddFixedValue, Double } from "./components/sample-numbers.js";
import { FString, Hello, StringListJoiner, TextSplitter } from "./components/sample-text.js";
import type { Scenario } from "./harness.js";

/** Linear pipelines, defaults, dynamic sockets, intermediate outputs and value isolation. */

const WithDefault = defineTestComponent({
  type: "conformance.basic.WithDefault",
  inputs: { a: z.number(), b: z.number().default(2) },
  outputs: { b: z.number() },
  // As in the reference, `run` returns a key (`c`) that is not a declared output.
  run: ({ a, b }) => ({ c: a + b }) as unknown as { b: number },
});

const InputMangler = defineTestComponent({
  type: "conformance.basic.InputMangler",
  inputs: { input_list: z.array(z.string()) },
  outputs: { mangled_list: z.array(z.string()) },
  run: ({ input_list }) => {
    input_list.push("extra_item");
    return { mangled_list: input_list };
  },
});

const PassThroughPromptBuilder = defineTestComponent({
  type: "conformance.basic.PassThroughPromptBuilder",
  inputs: { prompt_source: chatMessageListSchema },
  outputs: { prompt: chatMessageListSchema },
  run: ({ prompt_source }) => ({ prompt: prompt_source }),
});

const MessageMerger = defineTestComponent({
  type: "conformance.basic.MessageMerger",
  inputs: { messages: chatMessageListSchema, metadata: z.record(z.string(), z.any()).optional() },
  outputs: { merged_message: z.string() },
  run: ({ messages }) => ({ merged_message: messages.map((message) => message.text ?? "").join("\n") }),
});

const FakeChatGenerator = defineTestComponent({
  type: "conformance.basic.FakeChatGenerator",
  inputs: { messages: chatMessageListSchema },
  outputs: { replies: chatMessageListSchema },
  run: () => ({ replies: [assistant("Fake message")] }),
});

const DoubleWithOriginal = defineTestComponent({
  type: "conformance.basic.DoubleWithOriginal",
  inputs: { value: z.number() },
  outputs: { value: z.number(), original: z.number() },
  run: ({ value }) => ({ value: value * 2, original: value }),
});

const ParrotWithDynamicDefaultInputs = defineTestComponent({
  type: "conformance.basic.ParrotWithDynamicDefaultInputs",
  params: z.object({ input_variable: z.string() }),
  inputs: ({ input_variable }) => ({ [input_variable]: z.string().default("Parrot doesn't only parrot!") }),
  outputs: { response: z.string() },
  run: (inputs, { params }) => ({ response: inputs[params.input_variable] as string }),
});

const ParrotWithVariadicDynamicDefaultInputs = defineTestComponent({
  type: "conformance.basic.ParrotWithVariadicDynamicDefaultInputs",
  params: z.object({ input_variable: z.string() }),
  inputs: ({ input_variable }) => ({
    [input_variable]: variadic(z.string().default("Parrot doesn't only parrot!")),
  }),
  outputs: { response: z.array(z.string()) },
  run: (inputs, { params }) => ({ response: inputs[params.input_variable] as string[] }),
});

/** A value that is not plain data (the reference uses a pandas DataFrame). */
export class DataFrame {
  constructor(readonly columns: Record<string, number[]>) {}
}

const getDf = () => new DataFrame({ a: [1, 2], b: [1, 2] });
const dataFrameSchema = defineNamedType("conformance.DataFrame", z.instanceof(DataFrame));

const DataFramer = defineTestComponent({
  type: "conformance.basic.DataFramer",
  inputs: { dataframe: dataFrameSchema },
  outputs: { dataframe: dataFrameSchema },
  run: () => ({ dataframe: getDf() }),
});

const inputList = ["foo", "bar"];
const messages = [
  system("Always respond in English even if some input data is in other languages."),
  user("Tell me about Berlin"),
];
const params = { metadata: { metadata_key: "metadata_value", meta2: "value2" } };

export const basicScenarios: Scenario[] = [
  {
    name: "that has no components",
    build: ({ pipeline }) => pipeline(1),
    runs: [
      {
        inputs: {},
        expectedOutputs: {},
      },
    ],
  },
  {
    name: "that is linear",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("first_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("second_addition", new AddFixedValue());
      p.addComponent("double", new Double());
      p.connect("first_addition", "double");
      p.connect("double", "second_addition");
      return p;
    },
    runs: [
      {
        inputs: { first_addition: { value: 1 } },
        expectedOutputs: { second_addition: { result: 7 } },
        expectedComponentCalls: {
          "first_addition#1": { value: 1, add: undefined },
          "double#1": { value: 3 },
          "second_addition#1": { value: 6, add: undefined },
        },
      },
    ],
  },
  {
    name: "that has a single component with a default input",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("with_defaults", new WithDefault());
      return p;
    },
    runs: [
      {
        inputs: { with_defaults: { a: 40, b: 30 } },
        expectedOutputs: { with_defaults: { c: 70 } },
        expectedComponentCalls: { "with_defaults#1": { a: 40, b: 30 } },
      },
      {
        inputs: { with_defaults: { a: 40 } },
        expectedOutputs: { with_defaults: { c: 42 } },
        expectedComponentCalls: { "with_defaults#1": { a: 40, b: 2 } },
      },
    ],
  },
  {
    name: "that has a component with dynamic inputs defined in init",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("hello", new Hello());
      p.addComponent(
        "fstring",
        new FString({ template: "This is the greeting: {greeting}!", variables: ["greeting"] }),
      );
      p.addComponent("splitter", new TextSplitter());
      p.connect("hello.output", "fstring.greeting");
      p.connect("fstring.string", "splitter.sentence");
      return p;
    },
    runs: [
      {
        inputs: { hello: { word: "Alice" } },
        expectedOutputs: { splitter: { output: ["This", "is", "the", "greeting:", "Hello,", "Alice!!"] } },
        expectedComponentCalls: {
          "fstring#1": { greeting: "Hello, Alice!", template: undefined },
          "hello#1": { word: "Alice" },
          "splitter#1": { sentence: "This is the greeting: Hello, Alice!!" },
        },
      },
      {
        inputs: { hello: { word: "Alice" }, fstring: { template: "Received: {greeting}" } },
        expectedOutputs: { splitter: { output: ["Received:", "Hello,", "Alice!"] } },
        expectedComponentCalls: {
          "fstring#1": { greeting: "Hello, Alice!", template: "Received: {greeting}" },
          "hello#1": { word: "Alice" },
          "splitter#1": { sentence: "Received: Hello, Alice!" },
        },
      },
    ],
  },
  {
    name: "that has a component with mutable input",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("mangler1", new InputMangler());
      p.addComponent("mangler2", new InputMangler());
      p.addComponent("concat1", new StringListJoiner());
      p.addComponent("concat2", new StringListJoiner());
      p.connect("mangler1", "concat1");
      p.connect("mangler2", "concat2");
      return p;
    },
    runs: [
      {
        inputs: { mangler1: { input_list: inputList }, mangler2: { input_list: inputList } },
        expectedOutputs: {
          concat1: { output: ["foo", "bar", "extra_item"] },
          concat2: { output: ["foo", "bar", "extra_item"] },
        },
        expectedComponentCalls: {
          "concat1#1": { inputs: [["foo", "bar", "extra_item"]] },
          "concat2#1": { inputs: [["foo", "bar", "extra_item"]] },
          "mangler1#1": { input_list: ["foo", "bar"] },
          "mangler2#1": { input_list: ["foo", "bar"] },
        },
      },
    ],
  },
  {
    name: "that has a component with mutable output sent to multiple inputs",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("prompt_builder", new PassThroughPromptBuilder());
      p.addComponent("llm", new FakeChatGenerator());
      p.addComponent("mm1", new MessageMerger());
      p.addComponent("mm2", new MessageMerger());
      p.connect("prompt_builder.prompt", "llm.messages");
      p.connect("prompt_builder.prompt", "mm1");
      p.connect("llm.replies", "mm2");
      return p;
    },
    runs: [
      {
        inputs: { mm1: params, mm2: params, prompt_builder: { prompt_source: messages } },
        expectedOutputs: {
          mm1: {
            merged_message:
              "Always respond in English even if some input data is in other languages.\nTell me about Berlin",
          },
          mm2: { merged_message: "Fake message" },
        },
        expectedComponentCalls: {
          "llm#1": { messages: messages },
          "mm1#1": { messages: messages, metadata: { meta2: "value2", metadata_key: "metadata_value" } },
          "mm2#1": {
            messages: [assistant(/*text*/ "Fake message")],
            metadata: { meta2: "value2", metadata_key: "metadata_value" },
          },
          "prompt_builder#1": { prompt_source: messages },
        },
      },
    ],
  },
  {
    name: "that is linear and returns intermediate outputs",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("first_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("second_addition", new AddFixedValue());
      p.addComponent("double", new Double());
      p.connect("first_addition", "double");
      p.connect("double", "second_addition");
      return p;
    },
    runs: [
      {
        inputs: { first_addition: { value: 1 } },
        includeOutputsFrom: ["second_addition", "double", "first_addition"],
        expectedOutputs: {
          double: { value: 6 },
          first_addition: { result: 3 },
          second_addition: { result: 7 },
        },
        expectedComponentCalls: {
          "double#1": { value: 3 },
          "first_addition#1": { add: undefined, value: 1 },
          "second_addition#1": { add: undefined, value: 6 },
        },
      },
      {
        inputs: { first_addition: { value: 1 } },
        includeOutputsFrom: ["double"],
        expectedOutputs: { double: { value: 6 }, second_addition: { result: 7 } },
        expectedComponentCalls: {
          "double#1": { value: 3 },
          "first_addition#1": { add: undefined, value: 1 },
          "second_addition#1": { add: undefined, value: 6 },
        },
      },
    ],
  },
  {
    name: "that is linear and returns intermediate outputs from multiple sockets",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("first_addition", new AddFixedValue({ add: 2 }));
      p.addComponent("second_addition", new AddFixedValue());
      p.addComponent("double", new DoubleWithOriginal());
      p.connect("first_addition", "double");
      p.connect("double.value", "second_addition");
      return p;
    },
    runs: [
      {
        inputs: { first_addition: { value: 1 } },
        includeOutputsFrom: ["second_addition", "double", "first_addition"],
        expectedOutputs: {
          double: { original: 3, value: 6 },
          first_addition: { result: 3 },
          second_addition: { result: 7 },
        },
        expectedComponentCalls: {
          "double#1": { value: 3 },
          "first_addition#1": { add: undefined, value: 1 },
          "second_addition#1": { add: undefined, value: 6 },
        },
      },
      {
        inputs: { first_addition: { value: 1 } },
        includeOutputsFrom: ["double"],
        expectedOutputs: { double: { original: 3, value: 6 }, second_addition: { result: 7 } },
        expectedComponentCalls: {
          "double#1": { value: 3 },
          "first_addition#1": { add: undefined, value: 1 },
          "second_addition#1": { add: undefined, value: 6 },
        },
      },
    ],
  },
  {
    name: "with a component that has dynamic default inputs",
    build: ({ pipeline }) => {
      const p = pipeline();
      p.addComponent("parrot", new ParrotWithDynamicDefaultInputs({ input_variable: "parrot" }));
      return p;
    },
    runs: [
      {
        inputs: { parrot: { parrot: "Are you a parrot?" } },
        expectedOutputs: { parrot: { response: "Are you a parrot?" } },
        expectedComponentCalls: { "parrot#1": { parrot: "Are you a parrot?" } },
      },
      {
        inputs: {},
        expectedOutputs: { parrot: { response: "Parrot doesn't only parrot!" } },
        expectedComponentCalls: { "parrot#1": { parrot: "Parrot doesn't only parrot!" } },
      },
    ],
  },
  {
    name: "with a component that has variadic dynamic default inputs",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("parrot", new ParrotWithVariadicDynamicDefaultInputs({ input_variable: "parrot" }));
      return p;
    },
    runs: [
      {
        inputs: { parrot: { parrot: "Are you a parrot?" } },
        expectedOutputs: { parrot: { response: ["Are you a parrot?"] } },
        expectedComponentCalls: { "parrot#1": { parrot: ["Are you a parrot?"] } },
      },
      {
        inputs: {},
        expectedOutputs: { parrot: { response: ["Parrot doesn't only parrot!"] } },
        expectedComponentCalls: { "parrot#1": { parrot: ["Parrot doesn't only parrot!"] } },
      },
    ],
  },
  {
    name: "that has components returning dataframes",
    build: ({ pipeline }) => {
      const p = pipeline(1);
      p.addComponent("df_1", new DataFramer());
      p.addComponent("df_2", new DataFramer());
      p.connect("df_1", "df_2");
      return p;
    },
    runs: [
      {
        inputs: { df_1: { dataframe: getDf() } },
        expectedOutputs: { df_2: { dataframe: getDf() } },
        expectedComponentCalls: {
          "df_1#1": { dataframe: getDf() },
          "df_2#1": { dataframe: getDf() },
        },
      },
    ],
  },
];
