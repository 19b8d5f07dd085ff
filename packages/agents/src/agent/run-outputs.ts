import type { ChatMessage } from "@junction/llm";
import { copyList } from "../state/list-view.js";
import type { State } from "../state/state.js";
import type { AgentSetup } from "./agent-config.js";

/** What one agent run returns (the output sockets). */
export type AgentRunOutputs = Record<string, unknown>;

/**
 * The output sockets of a finished run, read from its State: the conversation and `last_message`, the
 * run metadata, the structured answer (with an output schema) and every user State key that has a
 * value. Lists are plain copies, so later use of the State never changes them.
 *
 * @param state - the run's State
 * @param setup - the Agent's setup (which State keys are the user's)
 * @param structured - whether the run checks structured answers (`outputSchema`)
 * @param exitReason - why the run ended
 */
export function runOutputs(
  state: State,
  setup: AgentSetup,
  structured: boolean,
  exitReason: string,
): AgentRunOutputs {
  const messages = copyList(state.get("messages") as readonly ChatMessage[]);
  const out: AgentRunOutputs = {
    messages,
    exit_reason: exitReason,
    step_count: state.get("step_count"),
    token_usage: state.get("token_usage"),
    tool_call_counts: state.get("tool_call_counts"),
  };
  if (messages.length > 0) out.last_message = messages[messages.length - 1];
  if (structured) {
    const value = state.get("structured_output");
    if (value !== null && value !== undefined) out.structured_output = value;
    const issues = state.get("output_issues");
    if (issues !== null && issues !== undefined) out.output_issues = copyList(issues as readonly unknown[]);
  }
  for (const key of setup.userStateKeys) {
    if (!state.has(key)) continue;
    const value = state.get(key);
    out[key] = Array.isArray(value) ? copyList(value) : value;
  }
  return out;
}
