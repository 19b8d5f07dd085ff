import { JunctionError } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { MALFORMED_ARGUMENTS_KEY, OpenAIChatGenerator, toOpenAIMessages } from "@junction/openai";
import { describe, expect, it } from "vitest";
import { completion } from "./support/fake-openai-server.js";
import { useHarness } from "./support/harness.js";

const h = useHarness();
const png = "iVBORw0KGgoAAAANSUhEUg==";
const weatherCall = { toolName: "weather", arguments: { city: "Paris", note: "café ☕" }, id: "call_1" };

describe("messages on the wire", () => {
  it("sends a whole conversation with images, tool calls and tool results", async () => {
    h.server.enqueue(completion());
    const conversation = [
      ChatMessage.fromSystem("Be brief."),
      ChatMessage.fromUser({
        parts: [
          "What is in this picture?",
          { type: "image", image: { base64Image: png, mimeType: "image/png", detail: "low" } },
        ],
      }),
      ChatMessage.fromAssistant({
        text: "Let me check.",
        toolCalls: [weatherCall],
        reasoning: "thinking...",
      }),
      ChatMessage.fromTool("sunny", weatherCall, { error: false }),
      ChatMessage.fromUser("Thanks", { name: "alice" }),
    ];
    await new OpenAIChatGenerator({ baseURL: h.server.baseURL }).run({ messages: conversation });
    expect(h.server.requests[0]?.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${png}`, detail: "low" } },
        ],
      },
      {
        role: "assistant",
        content: "Let me check.",
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "weather", arguments: '{"city":"Paris","note":"café ☕"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
      { role: "user", content: "Thanks", name: "alice" },
    ]);
  });

  it("sends text tool results given as parts, and assumes JPEG for images without a MIME type", () => {
    const result = ChatMessage.fromTool(
      [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
      weatherCall,
    );
    const user = ChatMessage.fromUser({ parts: [{ type: "image", image: { base64Image: png } }] });
    expect(toOpenAIMessages([result, user])).toEqual([
      {
        role: "tool",
        tool_call_id: "call_1",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/jpeg;base64,${png}` } }] },
    ]);
  });

  it("sends back malformed arguments as the raw text the model produced", () => {
    const call = {
      toolName: "weather",
      arguments: {},
      id: "c",
      extra: { [MALFORMED_ARGUMENTS_KEY]: '{"city": ' },
    };
    expect(toOpenAIMessages([ChatMessage.fromAssistant({ toolCalls: [call] })])).toEqual([
      {
        role: "assistant",
        tool_calls: [{ id: "c", type: "function", function: { name: "weather", arguments: '{"city": ' } }],
      },
    ]);
  });

  it("lists every message that cannot be sent, and sends nothing", async () => {
    const noId = { toolName: "weather", arguments: {} };
    const conversation = [
      ChatMessage.fromAssistant({}),
      ChatMessage.fromAssistant({ toolCalls: [noId] }),
      ChatMessage.fromTool("ok", noId),
      ChatMessage.fromTool(
        [{ type: "image", image: { base64Image: png, mimeType: "image/png" } }],
        weatherCall,
      ),
    ];
    const generator = new OpenAIChatGenerator({ baseURL: h.server.baseURL });
    const error = await generator.run({ messages: conversation }).catch((caught: unknown) => caught);
    expect(JunctionError.isInstance(error) && error.code).toBe("MESSAGE_FORMAT_ERROR");
    expect(JunctionError.isInstance(error) && error.issues.map((issue) => issue.path.join("."))).toEqual([
      "messages.0",
      "messages.1.toolCalls.0.id",
      "messages.2.toolCallResult.origin.id",
      "messages.3.toolCallResult.result",
    ]);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe("replies from the wire", () => {
  it("reads tool calls with their ids and no text", async () => {
    h.server.enqueue(
      completion({
        content: null,
        toolCalls: [
          { id: "call_1", name: "weather", arguments: '{"city": "Paris"}' },
          { id: "call_2", name: "time", arguments: "" },
        ],
      }),
    );
    const { replies = [] } = await new OpenAIChatGenerator({ baseURL: h.server.baseURL }).run({
      messages: [ChatMessage.fromUser("Weather and time in Paris?")],
    });
    const reply = replies[0];
    expect(reply?.text).toBeUndefined();
    expect(reply?.toolCalls).toEqual([
      { toolName: "weather", arguments: { city: "Paris" }, id: "call_1" },
      { toolName: "time", arguments: {}, id: "call_2" },
    ]);
    expect(reply?.meta.finish_reason).toBe("tool_calls");
  });

  it("keeps a tool call whose arguments are not valid JSON, marked, with a warning", async () => {
    h.server.enqueue(
      completion({
        content: null,
        toolCalls: [
          { id: "call_1", name: "weather", arguments: '"invalid": "json"' },
          { id: "call_2", name: "weather", arguments: '{"city": "Berlin"}' },
        ],
      }),
    );
    const { replies = [] } = await new OpenAIChatGenerator({ baseURL: h.server.baseURL }).run(
      { messages: [ChatMessage.fromUser("Weather?")] },
      { logger: h.logger },
    );
    const [bad, good] = replies[0]?.toolCalls ?? [];
    expect(bad).toMatchObject({ toolName: "weather", id: "call_1", arguments: {} });
    expect(bad?.extra).toMatchObject({
      [MALFORMED_ARGUMENTS_KEY]: '"invalid": "json"',
      arguments_error: expect.any(String),
    });
    expect(good).toEqual({ toolName: "weather", arguments: { city: "Berlin" }, id: "call_2" });
    expect(h.logger.messages("warn")).toHaveLength(1);
  });

  it("reads the reasoning text some compatible servers send", async () => {
    const reply = completion({ content: "42" });
    const body = reply.body as { choices: { message: Record<string, unknown> }[] };
    (body.choices[0] as { message: Record<string, unknown> }).message.reasoning_content = "6 times 7";
    h.server.enqueue(reply);
    const { replies = [] } = await new OpenAIChatGenerator({ baseURL: h.server.baseURL }).run({
      messages: [ChatMessage.fromUser("6*7?")],
    });
    expect(replies[0]?.reasoning?.reasoningText).toBe("6 times 7");
    expect(replies[0]?.text).toBe("42");
  });
});
