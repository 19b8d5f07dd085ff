import {
  BranchJoiner,
  ChatPromptBuilder,
  ConditionalRouter,
  ListJoiner,
  OutputAdapter,
  PromptBuilder,
  StringJoiner,
} from "@junction/components";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

test("every component class doubles as its instance type", () => {
  const joiner: BranchJoiner = new BranchJoiner({ type: z.string() });
  const lists: ListJoiner = new ListJoiner({ listType: z.array(z.string()) });
  const strings: StringJoiner = new StringJoiner();
  const prompt: PromptBuilder = new PromptBuilder({ template: "Hi {{ name }}" });
  const chat: ChatPromptBuilder = new ChatPromptBuilder({ template: "Hi {{ name }}" });
  const adapter: OutputAdapter = new OutputAdapter({ expression: "x", outputType: z.string() });
  const router: ConditionalRouter = new ConditionalRouter({
    routes: [{ condition: "true", output: "x", outputName: "out", outputType: z.number() }],
  });
  function typeOf(component: BranchJoiner | ListJoiner | StringJoiner | PromptBuilder): string {
    return component.type;
  }
  expectTypeOf(typeOf(joiner)).toEqualTypeOf<string>();
  expectTypeOf([lists, strings, prompt, chat, adapter, router]).not.toBeAny();
  // @ts-expect-error a StringJoiner is not a BranchJoiner
  const wrong: BranchJoiner = strings;
  void wrong;
});
