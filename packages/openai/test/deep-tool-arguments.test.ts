import { maxValueDepth } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { ARGUMENTS_ERROR_KEY, MALFORMED_ARGUMENTS_KEY, OpenAIChatGenerator } from "@junction/openai";
import { describe, expect, it } from "vitest";
import { chunk, completion } from "./support/fake-openai-server.js";
import { useHarness } from "./support/harness.js";

/**
 * A model (or a hostile OpenAI-compatible server) sending tool call arguments nested 100,000 deep:
 * `JSON.parse` reads them (it is iterative), but the message, the tool's validation and every later
 * `JSON.stringify` would not. The call is kept as malformed (arguments `{}`, the raw text and the reason
 * in `extra`), so an Agent answers it with a tool error the model can read and the run goes on.
 */

const h = useHarness();
const question = [ChatMessage.fromUser("Search.")];

/** `{"q":{"q":…1…}}` nesting `depth` objects. */
function deepJSON(depth: number): string {
  return `${'{"q":'.repeat(depth)}1${"}".repeat(depth)}`;
}

describe("tool call arguments nested deeper than maxValueDepth", () => {
  it("are kept as malformed arguments whose error names the limit (non-streaming)", async () => {
    const text = deepJSON(100_000);
    h.server.enqueue(
      completion({ content: null, toolCalls: [{ id: "c1", name: "search", arguments: text }] }),
    );
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run({ messages: question }, { logger: h.logger });
    const call = replies[0]?.toolCall;
    expect(call?.arguments).toEqual({});
    expect(call?.extra?.[MALFORMED_ARGUMENTS_KEY]).toBe(text);
    expect(call?.extra?.[ARGUMENTS_ERROR_KEY]).toMatch(/deeper than 1,000 levels.*maxValueDepth/);
    expect(h.logger.messages("warn").join("\n")).toMatch(
      /"search" \(the JSON nests objects and arrays deeper/,
    );
    // The reply can be stored and sent again.
    expect(() => JSON.stringify(replies[0])).not.toThrow();
  });

  it("are kept as malformed arguments when streamed too", async () => {
    const text = deepJSON(20_000);
    h.server.enqueue({
      kind: "stream",
      events: [
        chunk({ role: "assistant", content: null }),
        chunk({
          tool_calls: [
            { index: 0, id: "c1", type: "function", function: { name: "search", arguments: text } },
          ],
        }),
        chunk({}, { finishReason: "tool_calls" }),
      ],
    });
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run(
      { messages: question, streaming_callback: () => {} },
      { logger: h.logger },
    );
    expect(replies[0]?.toolCall?.extra?.[ARGUMENTS_ERROR_KEY]).toMatch(/deeper than 1,000 levels/);
  });

  it("at exactly the limit are read as they are", async () => {
    h.server.enqueue(
      completion({
        content: null,
        toolCalls: [{ id: "c1", name: "search", arguments: deepJSON(maxValueDepth) }],
      }),
    );
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const { replies = [] } = await generator.run({ messages: question }, { logger: h.logger });
    const call = replies[0]?.toolCall;
    expect(call?.extra).toBeUndefined();
    expect(JSON.stringify(call?.arguments)).toBe(deepJSON(maxValueDepth));
  });
});
