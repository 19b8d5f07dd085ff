import { Agent } from "@junction/agents";
import { MemoryLogger } from "@junction/core";
import { ChatMessage, tool } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import {
  completion,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from "../../packages/openai/test/support/fake-openai-server.js";

/**
 * The whole path of tool call arguments nested 100,000 deep from an OpenAI-compatible server into an
 * Agent: the model gets a tool error naming the limit and the run goes on (no RangeError, no failed run).
 */

const search = tool({
  name: "search",
  description: "Searches for anything.",
  parameters: z.object({ q: z.unknown() }),
  function: () => "found",
});

describe("an Agent whose model sends tool call arguments nested 100,000 deep", () => {
  let server: FakeOpenAIServer;
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
  });
  afterEach(async () => server.close());

  test("answers the call with a tool error naming the limit, and the run goes on", async () => {
    const depth = 100_000;
    server.enqueue(
      completion({
        content: null,
        toolCalls: [{ id: "c1", name: "search", arguments: `${'{"q":'.repeat(depth)}1${"}".repeat(depth)}` }],
      }),
      completion({ content: "Sorry, I will search for something simpler." }),
    );
    const generator = new OpenAIChatGenerator({ baseURL: server.baseURL, model: "local", maxRetries: 0 });
    const agent = new Agent({ chatGenerator: generator, tools: [search] });
    const logger = new MemoryLogger();
    const result = await agent.run({ messages: [ChatMessage.fromUser("Search.")] }, { logger });
    expect(result.exit_reason).toBe("text");
    expect(result.last_message?.text).toBe("Sorry, I will search for something simpler.");
    const toolResult = result.messages?.find((message) => message.role === "tool")?.toolCallResult;
    expect(toolResult?.error).toBe(true);
    expect(toolResult?.result).toMatch(/deeper than 1,000 levels, the limit for values in a run/);
    // The model saw the error in its second request.
    const sent = JSON.stringify(server.requests[1]?.body.messages);
    expect(sent).toMatch(/deeper than 1,000 levels/);
    expect(logger.messages("warn").join("\n")).toMatch(/nests objects and arrays deeper than 1,000 levels/);
  });
});
