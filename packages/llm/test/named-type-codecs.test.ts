import { ChatMessage, chatMessageSchema, tool } from "@junction/llm";
import { expect, test } from "vitest";
import { z } from "zod";

const remember = tool({
  name: "remember",
  description: "Keeps messages",
  parameters: z.object({
    messages: z.array(chatMessageSchema).optional(),
    turn: z.object({ question: chatMessageSchema }).optional(),
  }),
  function: ({ messages, turn }) => ({ count: messages?.length ?? 0, question: turn?.question.text }),
});

test("a tool's named-type arguments are decoded, also inside objects", () => {
  const message = ChatMessage.fromUser("Hello");
  const result = remember.validateArguments({
    messages: [message.toJSON()],
    turn: { question: message.toJSON() },
  });
  expect(result.success).toBe(true);
  const data = (result as { data: { messages: ChatMessage[]; turn: { question: ChatMessage } } }).data;
  expect(data.messages[0]).toBeInstanceOf(ChatMessage);
  expect(data.turn.question.text).toBe("Hello");
});

test("a malformed named-type argument is a tool error naming the argument and the problem", () => {
  const result = remember.validateArguments({ messages: [{ role: "robot", content: [{ text: "x" }] }] });
  expect(result).toEqual({
    success: false,
    issues: [
      {
        path: ["messages"],
        message:
          "ChatMessage.fromJSON: invalid message (1 problem):\n  - role: unknown role \"robot\"; expected one of 'user', 'system', 'assistant', 'tool'.",
      },
    ],
  });
});
