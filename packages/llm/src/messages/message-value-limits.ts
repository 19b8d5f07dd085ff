import type { Issue } from "@junction/core";
import type { ChatMessage } from "./chat-message.js";
import { checkValueLimits } from "./content-part-checks.js";
import type { ToolCall } from "./content-parts.js";

/**
 * Checks the free-form values of a built message again (tool call arguments and `extra`, reasoning
 * `extra`, image `meta`, the message's `meta`) against core's value limits, recording an issue per value
 * with its path in the serialized form (`["content", 0, "tool_call", "arguments"]`).
 *
 * The factories check these values when the message is built, but a message freezes only their top
 * level: a nested array of the arguments can still be grown afterwards. Stores call this before writing,
 * so a message they accept can always be read back.
 *
 * @param message - the message to check
 * @param path - where the message sits (prefixed to every issue's path)
 * @param issues - collects the problems
 */
export function checkMessageValueLimits(
  message: ChatMessage,
  path: readonly (string | number)[],
  issues: Issue[],
): void {
  checkValueLimits(message.meta, [...path, "meta"], issues);
  message.content.forEach((part, index) => {
    const at = [...path, "content", index];
    switch (part.type) {
      case "tool_call":
        checkToolCallValues(part.toolCall, [...at, "tool_call"], issues);
        break;
      case "tool_call_result":
        checkToolCallValues(part.toolCallResult.origin, [...at, "tool_call_result", "origin"], issues);
        if (typeof part.toolCallResult.result !== "string")
          part.toolCallResult.result.forEach((item, itemIndex) => {
            if (item.type === "image" && item.image.meta !== undefined)
              checkValueLimits(
                item.image.meta,
                [...at, "tool_call_result", "result", itemIndex, "image", "meta"],
                issues,
              );
          });
        break;
      case "reasoning":
        checkValueLimits(part.reasoning.extra, [...at, "reasoning", "extra"], issues);
        break;
      case "image":
        if (part.image.meta !== undefined)
          checkValueLimits(part.image.meta, [...at, "image", "meta"], issues);
        break;
      case "text":
        break;
    }
  });
}

function checkToolCallValues(call: ToolCall, path: readonly (string | number)[], issues: Issue[]): void {
  checkValueLimits(call.arguments, [...path, "arguments"], issues);
  if (call.extra !== undefined) checkValueLimits(call.extra, [...path, "extra"], issues);
}
