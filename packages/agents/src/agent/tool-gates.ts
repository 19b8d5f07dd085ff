import {
  type Decision,
  type Decisions,
  hashJSON,
  type InterruptRequest,
  RunResumeError,
} from "@junction/core";
import { type AnyTool, ChatMessage, type ToolCall } from "@junction/llm";
import type { State } from "../state/state.js";
import { prepareArguments } from "../tools/run-tool-calls.js";
import type { AgentSnapshot, StickyDecision } from "./agent-snapshot.js";

/**
 * Approval gates: which tool calls of a step wait for a person (`needsApproval`, or a `beforeTool` hook's
 * `control.interrupt`), and how decisions turn into what runs. A gated call gets the interrupt id
 * `s<step>/<toolCallId>` (`s<step>/#<index>` when the model gave no id): unique for parallel calls and
 * the same on every resume.
 */

/** A `control.interrupt` made by a `beforeTool` hook. */
export interface HookInterrupt {
  /** The calls it gates (`undefined`: every pending call). */
  readonly callIds: readonly string[] | undefined;
  readonly payload: unknown;
}

/** What the gates decided for one step. */
export interface GateResult {
  /** Interrupts to stop at (empty: nothing waits). */
  readonly interrupts: InterruptRequest[];
  /** The pending calls, for the snapshot. */
  readonly calls: AgentSnapshot["calls"];
  /** Calls answered without running (standing rejections), by call index. */
  readonly presets: Map<number, ChatMessage>;
}

/** The reply a rejected call gets. */
export function rejection(call: ToolCall, message: string | undefined): ChatMessage {
  const text = message ?? `The user rejected this call to tool "${call.toolName}"; it did not run.`;
  return ChatMessage.fromTool(text, call, { error: true });
}

async function needsApproval(tool: AnyTool, call: ToolCall, state: State, signal: AbortSignal | undefined) {
  const rule = tool.needsApproval;
  if (typeof rule === "boolean") return rule;
  const validated = tool.validateArguments(prepareArguments(tool, call, state));
  // Invalid arguments never run (the model gets the validation error), so there is nothing to approve.
  if (!validated.success) return false;
  return (await rule(validated.data, { toolCall: call, signal })) === true;
}

/** The gate result of a step whose calls wait for nothing. */
const open: GateResult = Object.freeze({ interrupts: [], calls: [], presets: new Map() }) as GateResult;

/**
 * True when a step's calls may need a decision: a `beforeTool` hook asked for one, or a called tool
 * has a `needsApproval` rule. Otherwise the step skips {@link gateCalls} (it would find nothing).
 */
export function mayNeedGate(
  pending: readonly ToolCall[],
  tools: ReadonlyMap<string, AnyTool>,
  hookInterrupts: readonly HookInterrupt[],
): boolean {
  if (hookInterrupts.length > 0) return true;
  for (const call of pending) {
    const rule = tools.get(call.toolName)?.needsApproval;
    if (rule !== undefined && rule !== false) return true;
  }
  return false;
}

/** What {@link gateCalls} finds for calls that wait for nothing (shared, frozen). */
export function openGates(): GateResult {
  return open;
}

/** Decides which pending calls wait for a decision. */
export async function gateCalls(options: {
  readonly step: number;
  readonly pending: readonly ToolCall[];
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly state: State;
  readonly hookInterrupts: readonly HookInterrupt[];
  readonly sticky: Readonly<Record<string, StickyDecision>>;
  readonly signal: AbortSignal | undefined;
}): Promise<GateResult> {
  const { pending, tools, state, hookInterrupts, sticky } = options;
  const result: GateResult = { interrupts: [], calls: [], presets: new Map() };
  for (let index = 0; index < pending.length; index++) {
    const call = pending[index]!;
    const tool = tools.get(call.toolName);
    const entry: AgentSnapshot["calls"][number] = { index, tool: call.toolName };
    result.calls.push(entry);
    if (tool === undefined) continue;
    const hooks = hookInterrupts.filter(
      (request) =>
        request.callIds === undefined || (call.id !== undefined && request.callIds.includes(call.id)),
    );
    const byHook = hooks.length > 0;
    if (!byHook && !(await needsApproval(tool, call, state, options.signal))) continue;
    const standing = sticky[tool.name];
    if (standing?.action === "approve") continue;
    if (standing?.action === "reject") {
      entry.rejected = standing.message ?? "";
      result.presets.set(index, rejection(call, standing.message));
      continue;
    }
    const id = `s${options.step}/${call.id ?? `#${index}`}`;
    entry.gate = id;
    entry.argsHash = hashJSON(call.arguments);
    const payloads = hooks.map((request) => request.payload).filter((payload) => payload !== undefined);
    result.interrupts.push({
      id,
      kind: "tool_approval",
      tool: tool.name,
      arguments: call.arguments,
      by: byHook ? "hook" : "needsApproval",
      ...(call.id === undefined ? {} : { callId: call.id }),
      ...(payloads.length === 0 ? {} : { payload: payloads.length === 1 ? payloads[0] : payloads }),
    });
  }
  return result;
}

function fail(
  code: "RESUME_INCOMPLETE" | "RESUME_INVALID_DECISION" | "RESUME_ARGS_CHANGED",
  message: string,
): never {
  throw new RunResumeError(code, `Agent.resume: ${message}`);
}

/** What a resumed step runs: the calls (with edited arguments) and the answers given without running. */
export interface AppliedDecisions {
  readonly calls: ToolCall[];
  readonly presets: Map<number, ChatMessage>;
}

/**
 * Applies the decisions to the paused step's calls, failing closed before anything runs: a missing
 * decision, arguments that changed since the pause, or edited arguments the tool's schema rejects.
 * Standing (`scope: "run"`) decisions are recorded in `sticky`.
 */
export function applyDecisions(
  pending: readonly ToolCall[],
  entries: AgentSnapshot["calls"],
  decisions: Decisions,
  tools: ReadonlyMap<string, AnyTool>,
  sticky: Record<string, StickyDecision>,
  state: State,
): AppliedDecisions {
  if (entries.length !== pending.length || entries.some((entry, i) => pending[i]?.toolName !== entry.tool)) {
    fail(
      "RESUME_ARGS_CHANGED",
      "the pending tool calls in the snapshot's messages do not match its call list.",
    );
  }
  const calls = [...pending];
  const presets = new Map<number, ChatMessage>();
  for (const entry of entries) {
    const call = pending[entry.index]!;
    if (entry.rejected !== undefined) {
      presets.set(entry.index, rejection(call, entry.rejected === "" ? undefined : entry.rejected));
      continue;
    }
    if (entry.gate === undefined) continue;
    if (entry.argsHash !== hashJSON(call.arguments)) {
      fail("RESUME_ARGS_CHANGED", `the arguments of call "${entry.gate}" changed since the pause.`);
    }
    const decision: Decision | undefined = decisions[entry.gate];
    if (decision === undefined) fail("RESUME_INCOMPLETE", `no decision for "${entry.gate}".`);
    applyOne(
      decision,
      entry.gate,
      entry.index,
      call,
      tools.get(call.toolName),
      calls,
      presets,
      sticky,
      state,
    );
  }
  return { calls, presets };
}

function applyOne(
  decision: Decision,
  id: string,
  index: number,
  call: ToolCall,
  tool: AnyTool | undefined,
  calls: ToolCall[],
  presets: Map<number, ChatMessage>,
  sticky: Record<string, StickyDecision>,
  state: State,
): void {
  switch (decision.action) {
    case "approve":
      if (decision.scope === "run") sticky[call.toolName] = { action: "approve" };
      return;
    case "edit":
      calls[index] = checkEdit(decision.arguments, id, call, tool, state);
      return;
    case "reject":
      presets.set(index, rejection(call, decision.message));
      if (decision.scope === "run") {
        sticky[call.toolName] =
          decision.message === undefined
            ? { action: "reject" }
            : { action: "reject", message: decision.message };
      }
      return;
    case "respond": {
      const value = decision.value;
      presets.set(
        index,
        ChatMessage.fromTool(typeof value === "string" ? value : (JSON.stringify(value) ?? ""), call),
      );
      return;
    }
  }
}

/** The call with edited arguments, checked against the tool's schema (State inputs filled in). */
function checkEdit(
  args: Readonly<Record<string, unknown>>,
  id: string,
  call: ToolCall,
  tool: AnyTool | undefined,
  state: State,
): ToolCall {
  const edited = { ...call, arguments: args };
  const checked = tool?.validateArguments(prepareArguments(tool, edited, state));
  if (checked === undefined || !checked.success) {
    const reason =
      checked === undefined ? `the tool "${call.toolName}" is gone` : JSON.stringify(checked.issues);
    fail(
      "RESUME_INVALID_DECISION",
      `the edited arguments for "${id}" are invalid: ${reason}. The run is still interrupted; resume it with arguments that fit the tool "${call.toolName}".`,
    );
  }
  return edited;
}

/**
 * Checks a resume's `edit` decisions against the paused calls' tools before the run is claimed (the
 * Agent's `checkResume`), so edited arguments the tool refuses leave the run interrupted. Tools that are
 * not among the Agent's configured tools (supplied at run time) are checked when the step runs.
 */
export function checkEditDecisions(
  snapshot: AgentSnapshot,
  state: State,
  decisions: Decisions,
  tools: ReadonlyMap<string, AnyTool>,
): void {
  const last = state.lastItem("messages");
  const pending = last instanceof ChatMessage && last.role === "assistant" ? last.toolCalls : [];
  for (const entry of snapshot.calls) {
    const decision = entry.gate === undefined ? undefined : decisions[entry.gate];
    const call = pending[entry.index];
    if (decision?.action !== "edit" || call === undefined) continue;
    const tool = tools.get(call.toolName);
    if (tool !== undefined) checkEdit(decision.arguments, entry.gate!, call, tool, state);
  }
}
