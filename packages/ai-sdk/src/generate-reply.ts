import type { Logger } from "@junction/core";
import type { ChatMessage } from "@junction/llm";
import type { AISDKLanguageModel, CallOptions } from "./language-model.js";
import { type RawToolCall, toReply } from "./to-reply.js";

interface ContentPart {
  readonly type: string;
  readonly text?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: string;
  readonly providerExecuted?: boolean;
}

/**
 * One `doGenerate` call, converted into the assistant reply: texts joined, reasoning joined, tool calls
 * the model asks Junction to run (not provider-executed ones), sources kept in `meta.sources`.
 *
 * @param model - the language model
 * @param options - the call options (with the run's signal)
 * @param logger - receives warnings about malformed tool call input
 */
export async function generateReply(
  model: AISDKLanguageModel,
  options: CallOptions,
  logger: Logger,
): Promise<ChatMessage> {
  const result = await (model.doGenerate as (options: CallOptions) => PromiseLike<unknown>)(options);
  const { content, finishReason, usage, response, warnings } = result as {
    content: readonly ContentPart[];
    finishReason: unknown;
    usage: unknown;
    response?: { id?: string; modelId?: string };
    warnings?: readonly unknown[];
  };
  let text = "";
  let reasoning = "";
  const toolCalls: RawToolCall[] = [];
  const sources: unknown[] = [];
  for (const part of content) {
    if (part.type === "text") text += part.text ?? "";
    else if (part.type === "reasoning") reasoning += part.text ?? "";
    else if (part.type === "tool-call" && part.providerExecuted !== true)
      toolCalls.push({
        toolCallId: part.toolCallId ?? `call_${toolCalls.length}`,
        toolName: part.toolName ?? "",
        input: part.input ?? "",
      });
    else if (part.type === "source") sources.push(part);
  }
  return toReply(
    {
      text,
      reasoning,
      toolCalls,
      finishReason,
      usage,
      model: response?.modelId ?? model.modelId,
      provider: model.provider,
      responseId: response?.id,
      sources,
      warnings: warnings ?? [],
    },
    logger,
  );
}
