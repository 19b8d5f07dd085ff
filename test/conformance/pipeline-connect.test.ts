import {
  type AnyComponent,
  defineComponent,
  MemoryLogger,
  Pipeline,
  PipelineConnectError,
  PipelineValidationError,
  variadic,
} from "@junction/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { assistant, chatMessageListSchema, chatMessageSchema, user } from "./components/chat-message.js";

/**
 * The `connect` and `validate_input` cases of the reference's `test/core/pipeline/test_pipeline_base.py`
 * (`TestPipelineConnect`, `TestMakeSocketAutoVariadic`, `TestValidateInput`), asserted through Junction's
 * public API: `connections()`, `inputs()`, the errors, and runs that show which conversion a connection uses.
 */

const fakeClasses = new Map<string, new () => AnyComponent>();

/**
 * The reference's `component_class(name, input_types, output_types)`: sockets only, returning a fixed output.
 * One class per name (type names are unique in the registry), so a name always has the same sockets.
 */
function fake(
  name: string,
  inputs: Record<string, z.ZodType | ReturnType<typeof variadic>>,
  outputs: Record<string, z.ZodType>,
  output: Record<string, unknown> = {},
): AnyComponent {
  let Component = fakeClasses.get(name);
  if (Component === undefined) {
    Component = defineComponent({
      type: `conformance.connect.${name}`,
      inputs,
      outputs,
      run: () => output as never,
    }) as unknown as new () => AnyComponent;
    fakeClasses.set(name, Component);
  }
  return new Component();
}

const int = () => z.number().int();

function pipeline(components: Record<string, AnyComponent>): Pipeline {
  const p = new Pipeline({ logger: new MemoryLogger() });
  for (const [name, instance] of Object.entries(components)) p.addComponent(name, instance);
  return p;
}

function comp1AndComp2(): Pipeline {
  return pipeline({ comp1: fake("Comp1", {}, { value: int() }), comp2: fake("Comp2", { value: int() }, {}) });
}

function connectError(run: () => unknown): PipelineConnectError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PipelineConnectError);
    return error as PipelineConnectError;
  }
  throw new Error("expected connect to throw");
}

describe("connect (TestPipelineConnect)", () => {
  it("connects two explicit sockets and returns the pipeline", () => {
    const p = comp1AndComp2();
    expect(p.connect("comp1.value", "comp2.value")).toBe(p);
    expect(p.connections()).toEqual([{ sender: "comp1.value", receiver: "comp2.value" }]);
  });

  it("connecting the same sockets twice is a no-op", () => {
    const p = comp1AndComp2();
    p.connect("comp1.value", "comp2.value");
    p.connect("comp1.value", "comp2.value");
    expect(p.connections()).toEqual([{ sender: "comp1.value", receiver: "comp2.value" }]);
  });

  it.each([
    ["comp1", "comp2.value"],
    ["comp1.value", "comp2"],
    ["comp1", "comp2"],
  ])("finds the sockets when only component names are given (%s -> %s)", (sender, receiver) => {
    const p = comp1AndComp2();
    p.connect(sender, receiver);
    expect(p.connections()).toEqual([{ sender: "comp1.value", receiver: "comp2.value" }]);
  });

  it("an unknown sender or receiver component is an error naming it", () => {
    const onlyReceiver = pipeline({ comp2: fake("Comp2", { value: int() }, {}) });
    expect(() => onlyReceiver.connect("comp1.value", "comp2.value")).toThrow(/comp1/);
    const onlySender = pipeline({ comp1: fake("Comp1", {}, { value: int() }) });
    expect(() => onlySender.connect("comp1.value", "comp2.value")).toThrow(/comp2/);
  });

  it("an unknown socket is an error listing the available sockets with their types", () => {
    const p = pipeline({
      comp1: fake("OutputComp", {}, { output: int() }),
      comp2: fake("Comp2", { value: int() }, {}),
    });
    const error = connectError(() => p.connect("comp1.value", "comp2.value"));
    expect(error.message).toContain('"comp1"');
    expect(error.message).toContain('"value"');
    expect(error.message).toContain('"output" (number)');
    const q = comp1AndComp2();
    expect(connectError(() => q.connect("comp1.value", "comp2.non_existing")).message).toContain(
      "non_existing",
    );
  });

  it("sockets of incompatible types are refused even when their names are equal", () => {
    const p = pipeline({
      comp1: fake("Comp1", {}, { value: int() }),
      comp2: fake("StringValueComp", { value: z.string() }, {}),
    });
    connectError(() => p.connect("comp1", "comp2"));
  });

  it("several possible pairs with different names are ambiguous, on either side", () => {
    const senders = pipeline({
      comp1: fake("TwoOutputs", {}, { val1: int(), val2: int() }),
      comp2: fake("Comp2", { value: int() }, {}),
    });
    connectError(() => senders.connect("comp1", "comp2"));
    const receivers = pipeline({
      comp1: fake("Comp1", {}, { value: int() }),
      comp2: fake("TwoInputs", { val1: int(), val2: int() }, {}),
    });
    connectError(() => receivers.connect("comp1", "comp2"));
  });

  it("among several possible pairs the one with equal names wins, on either side", () => {
    const senders = pipeline({
      comp1: fake("ValueAndOther", {}, { value: int(), other: int() }),
      comp2: fake("Comp2", { value: int() }, {}),
    });
    senders.connect("comp1", "comp2");
    expect(senders.connections()).toEqual([{ sender: "comp1.value", receiver: "comp2.value" }]);
    const receivers = pipeline({
      comp1: fake("Comp1", {}, { value: int() }),
      comp2: fake("ValueAndOtherIn", { value: int(), other: int() }, {}),
    });
    receivers.connect("comp1", "comp2");
    expect(receivers.connections()).toEqual([{ sender: "comp1.value", receiver: "comp2.value" }]);
  });

  it("a second sender into a socket that is neither variadic nor a list is refused", () => {
    const p = pipeline({
      comp1: fake("Comp1", {}, { value: int() }),
      comp2: fake("Comp1b", {}, { value: int() }),
      comp3: fake("Comp3", { value: int() }, {}),
    });
    p.connect("comp1.value", "comp3.value");
    const error = connectError(() => p.connect("comp2.value", "comp3.value"));
    expect(error.message).toContain("comp1");
  });

  it("a variadic socket takes several senders, in connect order", () => {
    const p = pipeline({
      comp1: fake("Comp1", {}, { value: int() }),
      comp2: fake("Comp1b", {}, { value: int() }),
      comp3: fake("VariadicIn", { value: variadic(int()) }, {}),
    });
    p.connect("comp1.value", "comp3.value");
    p.connect("comp2.value", "comp3.value");
    expect(p.connections()).toEqual([
      { sender: "comp1.value", receiver: "comp3.value" },
      { sender: "comp2.value", receiver: "comp3.value" },
    ]);
  });

  it("a component cannot be connected to itself", () => {
    const p = pipeline({ single_component: fake("Single", { in: z.string() }, { out: z.string() }) });
    connectError(() => p.connect("single_component.out", "single_component.in"));
  });

  it("a sender without output sockets is refused", () => {
    const p = pipeline({ comp1: fake("NoOutput", {}, {}), comp2: fake("Comp2", { value: int() }, {}) });
    expect(connectError(() => p.connect("comp1.value", "comp2.value")).message).toContain("comp1");
  });

  it("a list connects to an optional list (the reference's PEP 604 union case)", () => {
    const p = pipeline({
      producer: fake("WordsProducer", {}, { words: z.array(z.string()) }),
      consumer_opt: fake(
        "StringConsumerOptional",
        { words: z.array(z.string()).optional() },
        { count: int() },
      ),
    });
    p.connect("producer.words", "consumer_opt.words");
    expect(p.connections()).toEqual([{ sender: "producer.words", receiver: "consumer_opt.words" }]);
  });

  it.each([
    ["a list", z.array(int())],
    ["an optional list", z.array(int()).optional()],
  ])("%s socket becomes a lazy variadic socket on its second sender and concatenates", async (_, schema) => {
    const ListAcceptor = defineComponent({
      type: `conformance.connect.ListAcceptor.${schema.def.type}`,
      inputs: { numbers: schema },
      outputs: { result: z.array(int()) },
      run: ({ numbers }) => ({ result: numbers ?? [] }),
    });
    const p = pipeline({
      sender1: new ListAcceptor(),
      sender2: new ListAcceptor(),
      receiver: new ListAcceptor(),
    });
    p.connect("sender1.result", "receiver.numbers");
    p.connect("sender2.result", "receiver.numbers");
    expect(p.inputs({ includeConnected: true }).receiver?.numbers?.variadic).toBe("lazy");
    const out = await p.run({ sender1: { numbers: [1, 2] }, sender2: { numbers: [3] } });
    expect(out).toEqual({ receiver: { result: [1, 2, 3] } });
  });
});

describe("connections that convert values", () => {
  const StringProducer = defineComponent({
    type: "conformance.connect.StringProducer",
    inputs: {},
    outputs: { text: z.string() },
    run: () => ({ text: "Hello" }),
  });
  const ChatMessageProducer = defineComponent({
    type: "conformance.connect.ChatMessageProducer",
    inputs: {},
    outputs: { message: chatMessageSchema },
    run: () => ({ message: assistant("Hi") }),
  });
  const ListStrProducer = defineComponent({
    type: "conformance.connect.ListStrProducer",
    inputs: {},
    outputs: { texts: z.array(z.string()) },
    run: () => ({ texts: ["a", "b"] }),
  });
  const ListChatMessageProducer = defineComponent({
    type: "conformance.connect.ListChatMessageProducer",
    inputs: {},
    outputs: { messages: chatMessageListSchema },
    run: () => ({ messages: [user("u1"), user("u2")] }),
  });
  const ListStrAcceptor = defineComponent({
    type: "conformance.connect.ListStrAcceptor",
    inputs: { texts: z.array(z.string()) },
    outputs: { texts: z.array(z.string()) },
    run: ({ texts }) => ({ texts }),
  });
  const ListChatMessageAcceptor = defineComponent({
    type: "conformance.connect.ListChatMessageAcceptor",
    inputs: { messages: chatMessageListSchema },
    outputs: { messages: chatMessageListSchema },
    run: ({ messages }) => ({ messages }),
  });
  const StringInput = defineComponent({
    type: "conformance.connect.StringInput",
    inputs: { text: z.string() },
    outputs: { text: z.string() },
    run: ({ text }) => ({ text }),
  });
  const producers = {
    str: () => new StringProducer(),
    chat: () => new ChatMessageProducer(),
    strList: () => new ListStrProducer(),
    chatList: () => new ListChatMessageProducer(),
  };
  const socketOf = { str: "text", chat: "message", strList: "texts", chatList: "messages" } as const;

  // TestPipelineConnect.test_connect_auto_variadic_* : two senders into one list socket, each converted.
  it.each([
    ["str", "str", "texts", ["Hello", "Hello"]],
    ["str", "strList", "texts", ["Hello", "a", "b"]],
    ["chat", "chat", "texts", ["Hi", "Hi"]],
    ["str", "chat", "texts", ["Hello", "Hi"]],
    ["chat", "chat", "messages", [assistant("Hi"), assistant("Hi")]],
    ["str", "str", "messages", [user("Hello"), user("Hello")]],
    ["str", "chat", "messages", [user("Hello"), assistant("Hi")]],
    ["chat", "chatList", "messages", [assistant("Hi"), user("u1"), user("u2")]],
  ] as const)(
    "%s and %s into a list socket (%s) wrap and concatenate",
    async (first, second, socket, expected) => {
      const p = pipeline({
        producer1: producers[first](),
        producer2: producers[second](),
        receiver: socket === "texts" ? new ListStrAcceptor() : new ListChatMessageAcceptor(),
      });
      p.connect(`producer1.${socketOf[first]}`, `receiver.${socket}`);
      p.connect(`producer2.${socketOf[second]}`, `receiver.${socket}`);
      expect(p.inputs({ includeConnected: true }).receiver?.[socket]?.variadic).toBe("lazy");
      expect(await p.run({})).toEqual({ receiver: { [socket]: expected } });
    },
  );

  it.each([
    ["ChatMessage into a string (its text)", producers.chat, "message", "Hi"],
    [
      "a one-message list into a string (unwrap)",
      () => fake("OneMessage", {}, { list: chatMessageListSchema }, { list: [user("Hello")] }),
      "list",
      "Hello",
    ],
  ])("%s", async (_, producer, socket, expected) => {
    const p = pipeline({ producer: producer(), string_input: new StringInput() });
    p.connect(`producer.${socket}`, "string_input.text");
    expect(await p.run({})).toEqual({ string_input: { text: expected } });
  });

  it("a string into a ChatMessage list becomes one user message (wrap)", async () => {
    const p = pipeline({
      string_output: new StringProducer(),
      list_chat_message_input: new ListChatMessageAcceptor(),
    });
    p.connect("string_output.text", "list_chat_message_input.messages");
    expect(await p.run({})).toEqual({ list_chat_message_input: { messages: [user("Hello")] } });
  });

  it("prefers a strict match over a conversion when several pairs are possible", () => {
    const p = pipeline({
      multi_output_component: fake("MultiOutput", {}, { message: chatMessageSchema, string: z.string() }),
      component_str_input: fake("StrInput", { string: z.string() }, { string: z.string() }),
    });
    p.connect("multi_output_component", "component_str_input");
    expect(p.connections()).toEqual([
      { sender: "multi_output_component.string", receiver: "component_str_input.string" },
    ]);
  });

  // TestMakeSocketAutoVariadic: unions of lists accept a second sender of either list type.
  it("a union of list types becomes variadic on a second sender", () => {
    const p = pipeline({
      a: new ListStrProducer(),
      b: new ListStrProducer(),
      receiver: fake("UnionOfLists", { values: z.union([z.array(z.string()), chatMessageListSchema]) }, {}),
    });
    p.connect("a.texts", "receiver.values");
    p.connect("b.texts", "receiver.values");
    expect(p.inputs({ includeConnected: true }).receiver?.values?.variadic).toBe("lazy");
  });
});

describe("run input validation (TestValidateInput)", () => {
  const FakeComponent = defineComponent({
    type: "conformance.connect.FakeComponent",
    inputs: { input_: z.string() },
    outputs: { value: z.string() },
    run: ({ input_ }) => ({ value: input_ }),
  });

  async function validationError(
    p: Pipeline,
    inputs: Record<string, unknown>,
  ): Promise<PipelineValidationError> {
    const error = await p.run(inputs).then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(PipelineValidationError);
    return error as PipelineValidationError;
  }

  it("an unknown component is named", async () => {
    const p = pipeline({ comp: new FakeComponent() });
    expect((await validationError(p, { wrong_comp_name: { input_: "test" } })).message).toContain(
      "wrong_comp_name",
    );
  });

  it("a missing mandatory input is named with its component", async () => {
    const p = pipeline({ comp: new FakeComponent() });
    const error = await validationError(p, { comp: {} });
    expect(error.message).toContain("input_");
    expect(error.message).toContain("comp");
  });

  it("an unknown input socket is named", async () => {
    const p = pipeline({ comp: new FakeComponent() });
    expect((await validationError(p, { comp: { wrong_input: "test", input_: "test" } })).message).toContain(
      "wrong_input",
    );
  });

  it("a run input into a connected socket that is not a list is refused", async () => {
    const p = pipeline({ comp1: new FakeComponent(), comp2: new FakeComponent() });
    p.connect("comp1.value", "comp2.input_");
    const error = await validationError(p, { comp1: { input_: "test" }, comp2: { input_: "extra_input" } });
    expect(error.message).toContain("comp2");
  });

  it("a run input into a connected list socket joins the sender's list for that run only", async () => {
    const ListAcceptor = defineComponent({
      type: "conformance.connect.ListAcceptorForInput",
      inputs: { numbers: z.array(int()) },
      outputs: { result: z.array(int()) },
      run: ({ numbers }) => ({ result: numbers }),
    });
    const p = pipeline({ comp1: new ListAcceptor(), comp2: new ListAcceptor() });
    p.connect("comp1.result", "comp2.numbers");
    expect(await p.run({ comp1: { numbers: [1] }, comp2: { numbers: [2] } })).toEqual({
      comp2: { result: [2, 1] },
    });
    // Unlike the reference (its pitfall: validate_input mutates the socket for good), the promotion does not
    // outlive the run.
    expect(p.inputs({ includeConnected: true }).comp2?.numbers?.variadic).toBe("none");
  });
});
