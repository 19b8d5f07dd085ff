import type { ChatGenerator, ChatMessage } from "@junction/llm";
import { OpenAIChatGenerator, type OpenAIChatGeneratorOptions } from "@junction/openai";
import { expectTypeOf, test } from "vitest";

test("an OpenAIChatGenerator is a ChatGenerator", () => {
  expectTypeOf(new OpenAIChatGenerator()).toExtend<ChatGenerator>();
});

test("run resolves to replies of ChatMessage", () => {
  const generator = new OpenAIChatGenerator();
  type Result = Awaited<ReturnType<typeof generator.run>>;
  expectTypeOf<Result["replies"]>().toEqualTypeOf<ChatMessage[] | undefined>();
});

test("options are all optional and typed", () => {
  expectTypeOf<{}>().toExtend<OpenAIChatGeneratorOptions>();
  expectTypeOf<OpenAIChatGeneratorOptions["model"]>().toEqualTypeOf<string | undefined>();
  expectTypeOf<OpenAIChatGeneratorOptions["timeout"]>().toEqualTypeOf<number | undefined>();
});

test("OpenAIChatGenerator doubles as its instance type", () => {
  function model(generator: OpenAIChatGenerator): string {
    return generator.type;
  }
  expectTypeOf(model(new OpenAIChatGenerator())).toEqualTypeOf<string>();
});
