import { ConditionalRouter } from "@junction/components";
import { Pipeline } from "@junction/core";
import { type ChatMessage, RecordingChatGenerator, ScriptedChatGenerator } from "@junction/llm";
import { describe, expectTypeOf, test } from "vitest";
import { z } from "zod";

/** A built-in generator's `replies` is typed in `Pipeline.builder()`, so it connects to a typed router. */

function routerOn<T extends z.ZodType>(type: T) {
  return new ConditionalRouter({
    routes: [{ condition: "true", output: "value", outputName: "out", outputType: type }],
    variableTypes: { value: type },
  });
}

describe("generators in the typed builder", () => {
  test("ScriptedChatGenerator.replies feeds a router variable typed as a list", () => {
    const llm = new ScriptedChatGenerator({ script: ["hi"] });
    const builder = Pipeline.builder()
      .add("llm", llm)
      .add("router", routerOn(z.array(z.any())))
      .connect("llm.replies", "router.value");
    expectTypeOf(builder).not.toBeNever();
  });

  test("a wrong receiver type is refused with a message about the types, not about conversions", () => {
    const llm = new ScriptedChatGenerator({ script: ["hi"] });
    Pipeline.builder()
      .add("llm", llm)
      .add("router", routerOn(z.number()))
      // @ts-expect-error — ChatMessage[] is not a number
      .connect("llm.replies", "router.value");
  });

  test("RecordingChatGenerator.replies too", () => {
    const llm = new RecordingChatGenerator({
      generator: new ScriptedChatGenerator({ script: ["hi"] }),
      cassette: "cassette.json",
    });
    Pipeline.builder()
      .add("llm", llm)
      .add("router", routerOn(z.array(z.any())))
      .connect("llm.replies", "router.value");
    type Replies = Awaited<ReturnType<typeof llm.run>>["replies"];
    expectTypeOf<Exclude<Replies, undefined>>().toEqualTypeOf<ChatMessage[]>();
  });
});
