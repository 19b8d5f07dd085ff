import { describeValueProblem, exceedsDepth, type Logger, maxValueDepth } from "@junction/core";
import type { ToolCall } from "@junction/llm";

/**
 * The key in a tool call's `extra` under which a reply keeps arguments that were not valid JSON (the raw
 * string the model produced). Such a call has `arguments: {}`; sending it back to the model sends the
 * raw string again, so the conversation stays faithful.
 */
export const MALFORMED_ARGUMENTS_KEY = "malformed_arguments";

/** The key in a tool call's `extra` that says why its arguments could not be read. */
export const ARGUMENTS_ERROR_KEY = "arguments_error";

/** A tool call as the wire carries it: the arguments are JSON text. */
export interface WireToolCall {
  readonly id: string | undefined;
  readonly name: string;
  readonly arguments: string;
}

function parseArguments(text: string): { value: Record<string, unknown> } | { error: string } {
  if (text.trim() === "") return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      error: `expected a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`,
    };
  }
  // JSON.parse reads any depth, but the message, its validation and every later JSON.stringify would not.
  if (exceedsDepth(value))
    return { error: `the JSON ${describeValueProblem({ kind: "too_deep", limit: maxValueDepth })}` };
  return { value: value as Record<string, unknown> };
}

/**
 * Turns a wire tool call into a {@link ToolCall}. Empty arguments mean `{}`.
 *
 * Arguments that are not a JSON object, or nest deeper than core's `maxValueDepth` (1,000 levels), are
 * **kept visibly** rather than dropped (the reference drops
 * them, which can leave an empty assistant message): the call gets `arguments: {}` and
 * `extra.malformed_arguments` (the raw text) plus `extra.arguments_error`, and a warning is logged.
 *
 * @param call - id, tool name and the JSON text of the arguments
 * @param logger - where the warning goes
 */
export function parseToolCall(call: WireToolCall, logger: Logger): ToolCall {
  const parsed = parseArguments(call.arguments);
  const id = call.id === undefined || call.id === "" ? {} : { id: call.id };
  if ("value" in parsed) return { toolName: call.name, arguments: parsed.value, ...id };
  logger.warn(
    `OpenAIChatGenerator: the model returned tool call arguments that are not a JSON object for "${call.name}" (${parsed.error}). The call is kept with arguments {} and the raw text in extra.${MALFORMED_ARGUMENTS_KEY}. Set \`toolsStrict: true\` to make the model produce valid JSON.`,
    { toolName: call.name, toolCallId: call.id, arguments: call.arguments },
  );
  return {
    toolName: call.name,
    arguments: {},
    ...id,
    extra: { [MALFORMED_ARGUMENTS_KEY]: call.arguments, [ARGUMENTS_ERROR_KEY]: parsed.error },
  };
}
