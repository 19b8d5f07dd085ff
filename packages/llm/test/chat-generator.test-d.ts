import { defineComponent } from "@junction/core";
import {
  type ChatGenerator,
  type ChatMessage,
  chatGeneratorInputs,
  chatGeneratorOutputs,
  ScriptedChatGenerator,
} from "@junction/llm";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

test("generators built on the shared sockets are ChatGenerators", () => {
  expectTypeOf(new ScriptedChatGenerator()).toExtend<ChatGenerator>();
  const WithExtra = defineComponent({
    type: "typetest.WithExtra",
    inputs: { ...chatGeneratorInputs, temperature: z.number().optional() },
    outputs: chatGeneratorOutputs,
    run: ({ messages }) => {
      expectTypeOf(messages).toEqualTypeOf<ChatMessage[]>();
      return { replies: [] };
    },
  });
  expectTypeOf(new WithExtra()).toExtend<ChatGenerator>();
});

test("run results carry typed replies", async () => {
  const generator = new ScriptedChatGenerator({ script: ["x"] });
  const result = await generator.run({ messages: [] });
  expectTypeOf(result.replies).toEqualTypeOf<ChatMessage[] | undefined>();
});

test("ScriptedChatGenerator doubles as its instance type", () => {
  const generator: ScriptedChatGenerator = new ScriptedChatGenerator({ script: ["hi"] });
  expectTypeOf(generator).toExtend<ChatGenerator>();
});
