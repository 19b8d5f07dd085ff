import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { ComponentError } from "@junction/core";
import type { ChatMessage, ToolCall, ToolCallResultContent } from "@junction/llm";

type UserPart = Extract<LanguageModelV3Message, { role: "user" }>["content"][number];
type AssistantPart = Extract<LanguageModelV3Message, { role: "assistant" }>["content"][number];

/** Tool calls without an id get one, stable within the conversation, so their results can quote it. */
class CallIds {
  readonly #byCall = new Map<ToolCall, string>();
  readonly #byKey = new Map<string, string[]>();
  #next = 0;

  forCall(call: ToolCall): string {
    if (call.id !== undefined && call.id !== "") return call.id;
    let id = this.#byCall.get(call);
    if (id === undefined) {
      id = `call_${this.#next++}`;
      this.#byCall.set(call, id);
      const key = JSON.stringify([call.toolName, call.arguments]);
      this.#byKey.set(key, [...(this.#byKey.get(key) ?? []), id]);
    }
    return id;
  }

  forResult(origin: ToolCall): string {
    if (origin.id !== undefined && origin.id !== "") return origin.id;
    const known = this.#byCall.get(origin);
    if (known !== undefined) return known;
    const queue = this.#byKey.get(JSON.stringify([origin.toolName, origin.arguments]));
    return queue?.shift() ?? this.forCall(origin);
  }
}

function resultText(result: ToolCallResultContent): string {
  if (typeof result === "string") return result;
  return result
    .map((part) => (part.type === "text" ? part.text : `[image ${part.image.mimeType ?? ""}]`))
    .join("\n");
}

function fail(index: number, message: string): never {
  throw new ComponentError(`AISDKChatGenerator: messages[${index}] ${message}`, {
    componentType: "junction.AISDKChatGenerator",
  });
}

/**
 * Converts a Junction conversation into an AI SDK prompt (the same shape in v2, v3 and v4): system text;
 * user text and images (as `file` parts); assistant reasoning, text and tool calls (`input` = the parsed
 * arguments); each tool result as a `tool` message with `text` or `error-text` output. Consecutive tool
 * results are grouped into one `tool` message, as providers expect.
 *
 * @param messages - the conversation
 * @throws ComponentError for a message that has nothing the model can read
 */
export function toPrompt(messages: readonly ChatMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  const ids = new CallIds();
  messages.forEach((message, index) => {
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.texts.join("\n") });
        return;
      case "user": {
        const content: UserPart[] = [];
        for (const part of message.content) {
          if (part.type === "text") content.push({ type: "text", text: part.text });
          else if (part.type === "image")
            content.push({
              type: "file",
              data: part.image.base64Image,
              mediaType: part.image.mimeType ?? "image/*",
            });
        }
        if (content.length === 0) fail(index, "(user) has no text or image.");
        prompt.push({ role: "user", content });
        return;
      }
      case "assistant": {
        const content: AssistantPart[] = [];
        for (const part of message.content) {
          if (part.type === "reasoning")
            content.push({ type: "reasoning", text: part.reasoning.reasoningText });
          else if (part.type === "text") content.push({ type: "text", text: part.text });
          else if (part.type === "tool_call")
            content.push({
              type: "tool-call",
              toolCallId: ids.forCall(part.toolCall),
              toolName: part.toolCall.toolName,
              input: part.toolCall.arguments,
            });
        }
        prompt.push({ role: "assistant", content });
        return;
      }
      case "tool": {
        const result = message.toolCallResult;
        if (result === undefined) fail(index, "(tool) has no tool call result.");
        const value = resultText(result.result);
        const part = {
          type: "tool-result" as const,
          toolCallId: ids.forResult(result.origin),
          toolName: result.origin.toolName,
          output: result.error ? { type: "error-text" as const, value } : { type: "text" as const, value },
        };
        const previous = prompt[prompt.length - 1];
        if (previous?.role === "tool") previous.content.push(part);
        else prompt.push({ role: "tool", content: [part] });
        return;
      }
    }
  });
  return prompt;
}
