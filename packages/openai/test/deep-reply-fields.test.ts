import { ChatMessage } from "@junction/llm";
import { OpenAIApiError, OpenAIChatGenerator } from "@junction/openai";
import { expect, it } from "vitest";
import { completion, usage } from "./support/fake-openai-server.js";
import { useHarness } from "./support/harness.js";

/**
 * A hostile OpenAI-compatible server nesting `usage` deeper than core's `maxValueDepth`: the reply is
 * refused with an OpenAIApiError naming the field, not a RangeError from copying it.
 */

const h = useHarness();

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

it("a reply whose usage nests deeper than maxValueDepth is refused, naming the field", async () => {
  h.server.enqueue(completion({ usage: { ...usage(1, 1), prompt_tokens_details: nested(3_000) } }));
  const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL, maxRetries: 0 });
  const error = await generator
    .run({ messages: [ChatMessage.fromUser("hi")] }, { logger: h.logger })
    .catch((caught: unknown) => caught);
  expect(OpenAIApiError.isInstance(error)).toBe(true);
  expect((error as Error).message).toMatch(/"usage" that nests objects and arrays deeper than 1,000 levels/);
});

it("an ordinary usage record is copied as it is", async () => {
  h.server.enqueue(completion({ usage: usage(3, 2) }));
  const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
  const { replies = [] } = await generator.run(
    { messages: [ChatMessage.fromUser("hi")] },
    { logger: h.logger },
  );
  expect(replies[0]?.meta.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
});
