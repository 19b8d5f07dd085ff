import { defineComponent, Pipeline, type PipelineTypeError, variadic } from "@junction/core";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

const Numbers = defineComponent({
  type: "typetest.builder.Numbers",
  inputs: { value: z.number() },
  outputs: { value: z.number(), label: z.string(), many: z.array(z.number()) },
  run: ({ value }) => ({ value, label: String(value), many: [value] }),
});

const Texts = defineComponent({
  type: "typetest.builder.Texts",
  inputs: { text: z.string(), parts: variadic(z.string()), list: z.array(z.number()).optional() },
  outputs: { text: z.string() },
  run: ({ text }) => ({ text }),
});

test("connect accepts existing addresses whose socket types fit", () => {
  const built = Pipeline.builder()
    .add("n", new Numbers())
    .add("t", new Texts())
    .connect("n.label", "t.text")
    .connect("n.label", "t.parts")
    .connect("n.many", "t.list")
    .connect("n", "t")
    .build();
  expectTypeOf(built).toExtend<Pipeline>();
});

test("connect rejects unknown components and sockets", () => {
  const builder = Pipeline.builder().add("n", new Numbers()).add("t", new Texts());
  // @ts-expect-error "x" is not a component
  builder.connect("x.value", "t.text");
  // @ts-expect-error "n" has no output socket "nope"
  builder.connect("n.nope", "t.text");
  // @ts-expect-error "t" has no input socket "value"
  builder.connect("n.label", "t.value");
  // @ts-expect-error sender addresses are output sockets; "t.parts" is an input
  builder.connect("t.parts", "n.value");
});

test("connect rejects mismatched socket types with a readable branded error", () => {
  const builder = Pipeline.builder().add("n", new Numbers()).add("t", new Texts());
  // @ts-expect-error number cannot feed string
  builder.connect("n.value", "t.text");
  // @ts-expect-error a number is not a list (a wrapping conversion needs the untyped pipeline.connect)
  builder.connect("n.value", "t.list");
  type Receiver = Parameters<typeof builder.connect<"n.value", "t.text">>[1];
  expectTypeOf<Receiver>().toEqualTypeOf<
    "t.text" &
      PipelineTypeError<'Socket types do not match: a value of "n.value" is not assignable to "t.text". Compare the two sockets\' schemas; only when the engine converts between them (ChatMessage and string) connect with pipeline.connect, which checks at run time.'>
  >();
});

test("add rejects taken names and names with dots", () => {
  const builder = Pipeline.builder().add("n", new Numbers());
  // @ts-expect-error "n" is taken
  builder.add("n", new Numbers());
  // @ts-expect-error dots separate component and socket
  builder.add("a.b", new Numbers());
});
