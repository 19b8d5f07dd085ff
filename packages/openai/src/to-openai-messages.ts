import type { Issue } from "@junction/core";
import { type ChatMessage, type ImageContent, MessageFormatError, type ToolCall } from "@junction/llm";
import type OpenAI from "openai";
import { MALFORMED_ARGUMENTS_KEY } from "./parse-tool-call.js";

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserContent = OpenAI.Chat.Completions.ChatCompletionContentPart;
type WireToolCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
type Path = readonly (string | number)[];

function formatIssues(issues: readonly Issue[]): string {
  return issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`).join("\n");
}

function imageURL(image: ImageContent): OpenAI.Chat.Completions.ChatCompletionContentPartImage {
  // Without a MIME type, JPEG is assumed (the reference does the same; the API tolerates mismatches).
  const url = `data:${image.mimeType ?? "image/jpeg"};base64,${image.base64Image}`;
  return {
    type: "image_url",
    image_url: image.detail === undefined ? { url } : { url, detail: image.detail },
  };
}

function wireArguments(call: ToolCall): string {
  const raw = call.extra?.[MALFORMED_ARGUMENTS_KEY];
  return typeof raw === "string" ? raw : JSON.stringify(call.arguments);
}

function userMessage(message: ChatMessage, path: Path, issues: Issue[]): MessageParam {
  const name = message.name === undefined ? {} : { name: message.name };
  const first = message.content[0];
  if (message.content.length === 1 && first?.type === "text")
    return { role: "user", content: first.text, ...name };
  const content: UserContent[] = [];
  message.content.forEach((part, index) => {
    if (part.type === "text") content.push({ type: "text", text: part.text });
    else if (part.type === "image") content.push(imageURL(part.image));
    else
      issues.push({
        path: [...path, "content", index],
        message: `a user message cannot carry a "${part.type}" part.`,
      });
  });
  return { role: "user", content, ...name };
}

function toolMessage(message: ChatMessage, path: Path, issues: Issue[]): MessageParam | undefined {
  if (message.content.length > 1) {
    issues.push({
      path,
      message:
        "a message with a tool call result cannot contain any other content (OpenAI sends each result as its own message).",
    });
    return undefined;
  }
  const result = message.toolCallResult;
  if (result === undefined) return undefined;
  const id = result.origin.id;
  if (id === undefined) {
    issues.push({
      path: [...path, "toolCallResult", "origin", "id"],
      message: "the tool call needs an `id` to be sent to OpenAI.",
    });
  }
  let content: string | OpenAI.Chat.Completions.ChatCompletionContentPartText[];
  if (typeof result.result === "string") content = result.result;
  else {
    content = [];
    for (const part of result.result) {
      if (part.type === "text") content.push({ type: "text", text: part.text });
      else {
        issues.push({
          path: [...path, "toolCallResult", "result"],
          message:
            "the Chat Completions API does not accept images in tool results; send text, or put the image in a user message.",
        });
        break;
      }
    }
  }
  // OpenAI has no field for a failed tool call; the `error` flag is not sent (as in the reference).
  return { role: "tool", tool_call_id: id ?? "", content };
}

function assistantOrSystem(message: ChatMessage, path: Path, issues: Issue[]): MessageParam {
  const name = message.name === undefined ? {} : { name: message.name };
  const text = message.text;
  if (message.role === "system") return { role: "system", content: text ?? "", ...name };
  // Reasoning parts are not sent: the Chat Completions API has no field for them.
  const toolCalls: WireToolCall[] = [];
  message.toolCalls.forEach((call, index) => {
    if (call.id === undefined) {
      issues.push({
        path: [...path, "toolCalls", index, "id"],
        message: `the tool call "${call.toolName}" needs an \`id\` to be sent to OpenAI.`,
      });
    }
    toolCalls.push({
      id: call.id ?? "",
      type: "function",
      function: { name: call.toolName, arguments: wireArguments(call) },
    });
  });
  return {
    role: "assistant",
    ...(text === undefined ? {} : { content: text }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...name,
  };
}

function hasSendableContent(message: ChatMessage): boolean {
  return message.content.some((part) => part.type !== "reasoning");
}

/**
 * Converts chat messages to the Chat Completions wire format: user text or text+image parts
 * (`image_url` data URLs), system and assistant text (the first text part), tool calls with their ids
 * and JSON-encoded arguments, one `tool` message per tool result. Reasoning parts and the tool result
 * `error` flag are not sent (the API has no field for them).
 *
 * @param messages - the conversation
 * @returns the `messages` array of a chat completion request
 * @throws MessageFormatError listing every message that cannot be sent (an empty message, a tool call
 *   without id, a tool result mixed with other content, an image in a tool result)
 */
export function toOpenAIMessages(messages: readonly ChatMessage[]): MessageParam[] {
  const issues: Issue[] = [];
  const out: MessageParam[] = [];
  messages.forEach((message, index) => {
    const path: Path = ["messages", index];
    if (!hasSendableContent(message)) {
      issues.push({ path, message: "the message has no text, image, tool call or tool result to send." });
      return;
    }
    let converted: MessageParam | undefined;
    if (message.content.some((part) => part.type === "tool_call_result"))
      converted = toolMessage(message, path, issues);
    else if (message.role === "user") converted = userMessage(message, path, issues);
    else converted = assistantOrSystem(message, path, issues);
    if (converted !== undefined) out.push(converted);
  });
  if (issues.length > 0) {
    throw new MessageFormatError(
      `OpenAIChatGenerator: ${issues.length} message problem${issues.length === 1 ? "" : "s"} prevent sending the conversation:\n${formatIssues(issues)}`,
      { issues, componentType: "junction.OpenAIChatGenerator" },
    );
  }
  return out;
}
