/**
 * A scripted tool-calling chat model for LangGraph, written against @langchain/core's public
 * `BaseChatModel` extension API (the documented way to write a custom model). Like Junction's
 * ScriptedChatGenerator, it decides its reply from the conversation without any I/O.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** What the model answers for a conversation: tool calls to make, or a final text. */
export type ScriptStep =
  | { readonly toolCalls: readonly { name: string; args: Record<string, unknown> }[] }
  | { readonly text: string };

/** A chat model whose reply is computed by `script(messages)`. */
export class ScriptedToolModel extends BaseChatModel {
  readonly #script: (messages: BaseMessage[]) => ScriptStep;
  #callId = 0;

  constructor(script: (messages: BaseMessage[]) => ScriptStep) {
    super({});
    this.#script = script;
  }

  _llmType(): string {
    return "scripted-tool-model";
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const step = this.#script(messages);
    const message =
      "text" in step
        ? new AIMessage({ content: step.text })
        : new AIMessage({
            content: "",
            tool_calls: step.toolCalls.map((call) => {
              this.#callId += 1;
              return {
                id: `call_${this.#callId}`,
                name: call.name,
                args: call.args,
                type: "tool_call" as const,
              };
            }),
          });
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}
