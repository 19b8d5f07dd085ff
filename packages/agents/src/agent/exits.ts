import type { ChatMessage, ToolCall } from "@junction/llm";
import { AgentRunError } from "../errors.js";

/** How a step ends: the model's exit, a tool exit, and the error a failed run rejects with. */

const modelExitReasons = new Set(["length", "content_filter"]);

/**
 * The exit reason of a model turn without tool calls: `"length"` / `"content_filter"` when the model
 * stopped for that reason, `"text"` for a non-empty assistant text (or any reply when there are no
 * tools), else `undefined` (an empty reply: the loop retries).
 */
export function modelExit(replies: readonly ChatMessage[], hasTools: boolean): string | undefined {
  const stopped = modelStopReason(replies);
  if (stopped !== undefined) return stopped;
  const last = replies[replies.length - 1];
  if (!hasTools) return "text";
  return last !== undefined && last.role === "assistant" && (last.text ?? "") !== "" ? "text" : undefined;
}

/** `"length"` / `"content_filter"` when the model stopped for that reason, else `undefined`. */
export function modelStopReason(replies: readonly ChatMessage[]): string | undefined {
  const finish = replies[replies.length - 1]?.meta.finish_reason;
  return typeof finish === "string" && modelExitReasons.has(finish) ? finish : undefined;
}

/** The first exit-condition tool called, unless any exit-condition call failed. */
export function toolExit(
  calls: readonly ToolCall[],
  results: readonly ChatMessage[],
  exitSet: ReadonlySet<string>,
): string | undefined {
  let first: string | undefined;
  for (let index = 0; index < calls.length; index++) {
    const name = calls[index]!.toolName;
    if (!exitSet.has(name)) continue;
    if (results[index]?.toolCallResult?.error === true) return undefined;
    first ??= name;
  }
  return first;
}

/** What {@link toRunError} reads from a run. */
interface RunSnapshot {
  readonly state: { get(key: "messages"): unknown };
  readonly stepCount: number;
}

/** Wraps a failure into an `AgentRunError` carrying the conversation so far. */
export function toRunError(
  error: unknown,
  run: RunSnapshot | undefined,
  signal: AbortSignal | undefined,
): AgentRunError {
  if (error instanceof AgentRunError) return error;
  const messages = run === undefined ? [] : Array.from(run.state.get("messages") as readonly unknown[]);
  const stepCount = run?.stepCount ?? 0;
  if (signal?.aborted) {
    return new AgentRunError("AGENT_ABORTED", `Agent: the run was aborted during step ${stepCount + 1}.`, {
      cause: signal.reason,
      messages,
      stepCount,
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new AgentRunError("AGENT_RUN_ERROR", `Agent: step ${stepCount + 1} failed: ${reason}`, {
    cause: error,
    messages,
    stepCount,
  });
}
