import { Agent } from "@junction/agents";
import { ChatMessage, MemoryConversationStore, ScriptedChatGenerator } from "@junction/llm";
import { createApp } from "@junction/serve";
import { describe, expect, test } from "vitest";
import { greetPipeline } from "./fixtures.js";

function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:3700${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** An agent with memory whose reply lists the user messages it was sent. */
function chatAgent(store: MemoryConversationStore) {
  return new Agent({
    chatGenerator: new ScriptedChatGenerator({
      respond: (messages) =>
        `heard: ${messages
          .filter((message) => message.role === "user")
          .map((message) => message.text)
          .join(", ")}`,
    }),
    systemPrompt: "Be brief.",
    conversation: { store },
  });
}

function app(store: MemoryConversationStore) {
  return createApp({ pipelines: { chat: chatAgent(store), greet: greetPipeline() }, auth: {} });
}

const completion = (text: string, extra: Record<string, unknown> = {}) => ({
  model: "chat",
  messages: [{ role: "user", content: text }],
  ...extra,
});

async function replyText(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? "";
}

describe("conversations kept by the server", () => {
  test("chat completions with the Junction-Conversation-Id header: the client sends only the new message", async () => {
    const store = new MemoryConversationStore();
    const server = app(store);
    const header = { "Junction-Conversation-Id": "chat-7" };
    expect(await replyText(await server.fetch(post("/v1/chat/completions", completion("hi"), header)))).toBe(
      "heard: hi",
    );
    expect(
      await replyText(await server.fetch(post("/v1/chat/completions", completion("again"), header))),
    ).toBe("heard: hi, again");
    // Another conversation, named by the body field, starts empty.
    expect(
      await replyText(
        await server.fetch(post("/v1/chat/completions", completion("other", { conversation_id: "chat-8" }))),
      ),
    ).toBe("heard: other");
    expect((await store.read("chat-7")).length).toBe(4);
    // Without an id the agent is stateless.
    expect(await replyText(await server.fetch(post("/v1/chat/completions", completion("alone"))))).toBe(
      "heard: alone",
    );
  });

  test("POST /pipelines/{name}/run takes the header or the agent's conversation_id input", async () => {
    const store = new MemoryConversationStore();
    const server = app(store);
    const message = (text: string) => ChatMessage.fromUser(text).toJSON();
    const first = await server.fetch(
      post(
        "/pipelines/chat/run",
        { chat: { messages: [message("one")] } },
        { "Junction-Conversation-Id": "c1" },
      ),
    );
    expect(first.status).toBe(200);
    const second = await server.fetch(
      post("/pipelines/chat/run", { chat: { messages: [message("two")], conversation_id: "c1" } }),
    );
    const body = (await second.json()) as {
      outputs: { chat: { last_message: { content: { text: string }[] } } };
    };
    expect(body.outputs.chat.last_message.content[0]?.text).toBe("heard: one, two");
  });

  test("a turn refused because another process stored one first is a 409", async () => {
    const store = new MemoryConversationStore();
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator({
        respond: async () => {
          // Another server process stores a turn on the same conversation meanwhile.
          await store.append("busy", [ChatMessage.fromUser("elsewhere")]);
          return "late";
        },
      }),
      conversation: { store },
    });
    const server = createApp({ pipelines: { chat: agent }, auth: {} });
    const response = await server.fetch(
      post("/v1/chat/completions", completion("here"), { "Junction-Conversation-Id": "busy" }),
    );
    expect(response.status).toBe(409);
    expect(JSON.stringify(await response.json())).toMatch(
      /CONVERSATION_CONFLICT|another turn was stored first/,
    );
  });

  test("a bad id, or an id for a pipeline without conversations, is a 400 naming the header", async () => {
    const server = app(new MemoryConversationStore());
    const bad = await server.fetch(
      post("/v1/chat/completions", completion("x"), { "Junction-Conversation-Id": "../etc" }),
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/Junction-Conversation-Id.*not a conversation id/);
    const none = await server.fetch(
      post("/pipelines/greet/run", { name: "Ada" }, { "Junction-Conversation-Id": "c1" }),
    );
    expect(none.status).toBe(400);
    expect(JSON.stringify(await none.json())).toMatch(/keeps no conversations/);
  });
});
