import type { ToolCall } from "../messages/content-parts.js";
import { StreamingChunk } from "./streaming-chunk.js";

/** One step of a chunk's way up through nested tool calls. */
export interface ToolCallTag {
  /** The tool call's id (empty when the call had none). */
  readonly id: string;
  /** The tool's name. */
  readonly tool_name: string;
}

/**
 * A copy of a chunk produced inside a tool call (a sub-agent's or an inner pipeline's chunk), tagged with
 * that call so the listener can tell who is speaking: `meta.tool_call_id` and `meta.tool_name` name the
 * call in the agent that receives the chunk, and `meta.tool_call_path` lists every call it came through,
 * outermost first.
 *
 * @param chunk - the inner chunk
 * @param toolCall - the call the tool runs for (`undefined` when invoked directly)
 * @param toolName - the tool's name
 * @example
 * ```ts
 * const tagged = tagToolChunk(new StreamingChunk({ content: "hi" }), call, "research");
 * tagged.meta.tool_name; // "research"
 * ```
 */
export function tagToolChunk(
  chunk: StreamingChunk,
  toolCall: ToolCall | undefined,
  toolName: string,
): StreamingChunk {
  const id = toolCall?.id ?? "";
  const inner = chunk.meta.tool_call_path;
  const path: ToolCallTag[] = [
    { id, tool_name: toolName },
    ...(Array.isArray(inner) ? (inner as ToolCallTag[]) : []),
  ];
  return new StreamingChunk({
    content: chunk.content,
    meta: { ...chunk.meta, tool_call_id: id, tool_name: toolName, tool_call_path: path },
    componentInfo: chunk.componentInfo,
    index: chunk.index,
    toolCalls: chunk.toolCalls,
    toolCallResult: chunk.toolCallResult,
    start: chunk.start,
    finishReason: chunk.finishReason,
    reasoning: chunk.reasoning,
  });
}
