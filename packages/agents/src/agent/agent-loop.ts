import {
  type Decisions,
  isPromiseLike,
  type MaybePromise,
  noopTracer,
  type RunContext,
  type Span,
} from "@junction/core";
import {
  type AnyTool,
  ChatMessage,
  flattenTools,
  type JsonSchemaResponseFormat,
  type ToolCall,
  Toolset,
} from "@junction/llm";
import PQueue from "p-queue";
import { type State, writeUnchecked } from "../state/state.js";
import { runToolCalls } from "../tools/run-tool-calls.js";
import type { AgentParams, AgentSetup } from "./agent-config.js";
import { type AgentSnapshot, type StickyDecision, stateDataToJSON } from "./agent-snapshot.js";
import type { ConversationTurn } from "./conversation.js";
import { modelExit, modelStopReason, toolExit } from "./exits.js";
import { type HookPoint, runHooks } from "./hooks.js";
import { callChatGenerator, copyRecord, fixedModelCaller, type ModelCaller } from "./model-call.js";
import { RunControl } from "./run-control.js";
import type { PreparedRun } from "./run-setup.js";
import { type CallStrategy, StructuredAnswers } from "./structured-answers.js";
import { applyDecisions, type GateResult, gateCalls, mayNeedGate, openGates } from "./tool-gates.js";
import { addsNoUsage, addTokenUsage } from "./usage.js";

/** The tags of a span nobody records (shared). */
const noTags: Readonly<Record<string, unknown>> = Object.freeze({});

/** One step's tool calls under way: the calls run, the final-answer calls set aside, their results. */
interface ToolRound {
  readonly calls: readonly ToolCall[];
  /** The calls other than final-answer calls, when the run checks structured answers. */
  readonly others: readonly ToolCall[] | undefined;
  readonly results: MaybePromise<ChatMessage[]>;
}

/** Where a resumed run continues: the paused step and the decisions for its gated calls. */
export interface AgentResume {
  readonly snapshot: AgentSnapshot;
  readonly decisions: Decisions;
}

function isUsageRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The state of one run of the loop. */
export class AgentRun {
  readonly state: State;
  readonly control: RunControl;
  readonly queue: PQueue | undefined;
  readonly exitSet: ReadonlySet<string>;
  readonly checkToolExit: boolean;
  /** Checks structured answers; `undefined` without an `outputSchema`. */
  readonly answers: StructuredAnswers | undefined;
  stepCount = 0;
  tokenUsage: Readonly<Record<string, unknown>> = {};
  toolCallCounts: Record<string, number> = {};
  runSpan: Span | undefined;
  /** The conversation turn this run is (stored when it completes); `undefined` for a stateless run. */
  conversation: ConversationTurn | undefined;
  /** Decisions made with scope "run", by tool name. */
  readonly sticky: Record<string, StickyDecision> = {};
  /** True when nothing can read State during the run, so the tool call counts need no copy per step. */
  readonly countsInPlace: boolean;
  /** The run's tools when they cannot change (no Toolset among them). */
  fixedTools: AnyTool[] | undefined;
  toolMapFor: readonly AnyTool[] | undefined;
  toolMapCache: ReadonlyMap<string, AnyTool> | undefined;

  readonly modelCaller: ModelCaller | undefined;
  /** {@link addToolUsage}, bound once (not a new closure per step). */
  readonly onToolUsage = (toolName: string, usage: Readonly<Record<string, unknown>>): void =>
    this.addToolUsage(toolName, usage);

  constructor(
    readonly params: AgentParams,
    readonly setup: AgentSetup,
    readonly context: RunContext<AgentParams, AgentSetup>,
    readonly prepared: PreparedRun,
  ) {
    this.state = prepared.state;
    this.control = new RunControl(context.signal, context.logger);
    const limit = params.toolConcurrencyLimit;
    this.queue = limit === undefined ? undefined : new PQueue({ concurrency: limit });
    this.exitSet = new Set(params.exitConditions);
    this.checkToolExit = !(params.exitConditions.length === 1 && params.exitConditions[0] === "text");
    this.answers = setup.output === undefined ? undefined : new StructuredAnswers(this, setup.output);
    this.countsInPlace = noHooks(setup.hooks) && toolsLeaveStateAlone(prepared.tools);
    this.modelCaller = fixedModelCaller(params, context, prepared);
  }

  async hooks(point: HookPoint, parent: Span | undefined): Promise<void> {
    const hooks = this.setup.hooks[point];
    if (hooks.length === 0) return;
    this.control.point = point;
    this.control.stepCount = this.stepCount;
    await runHooks(point, hooks, this.state, this.control, { tracer: this.context.tracer, parent });
  }

  currentTools(): AnyTool[] {
    // A list of plain tools never changes during the run; a Toolset may (its tools are asked each step).
    let tools = this.fixedTools;
    if (tools === undefined) {
      tools = flattenTools(this.prepared.tools);
      if (!hasToolset(this.prepared.tools)) this.fixedTools = tools;
    }
    this.control.tools = tools;
    return tools;
  }

  /** The tools by name; made once per tool list. */
  toolMap(tools: readonly AnyTool[]): ReadonlyMap<string, AnyTool> {
    if (this.toolMapFor !== tools) {
      this.toolMapCache = new Map(tools.map((tool) => [tool.name, tool]));
      this.toolMapFor = tools;
    }
    return this.toolMapCache!;
  }

  /** The model call of the current step: the durable step `llm#<step>` on a durable run. */
  modelStep(
    tools: readonly AnyTool[],
    parent: Span | undefined,
    responseFormat?: JsonSchemaResponseFormat,
  ): MaybePromise<ChatMessage[]> {
    const durable = this.context.durable;
    if (durable === undefined) return callChatGenerator(this, tools, parent, responseFormat);
    return durable.step(`llm#${this.stepCount}`, async () =>
      callChatGenerator(this, tools, parent, responseFormat),
    );
  }

  addUsage(replies: readonly ChatMessage[]): void {
    let total = this.tokenUsage;
    for (const reply of replies) {
      const usage = reply.meta.usage;
      if (typeof usage !== "object" || usage === null) continue;
      const counts = usage as unknown as Record<string, unknown>;
      if (!addsNoUsage(total, counts)) total = addTokenUsage(total, counts);
    }
    if (total !== this.tokenUsage) {
      this.tokenUsage = total;
      writeUnchecked(this.state, "token_usage", total);
    }
  }

  /**
   * Adds what a tool spent (an `AgentTool`'s sub-agent) to the run's total, and keeps it per tool under
   * `token_usage.by_tool[toolName]` (the sub-agent's own breakdown stays inside its entry).
   */
  addToolUsage(toolName: string, usage: Readonly<Record<string, unknown>>): void {
    const { by_tool: _nested, ...spent } = usage;
    const total = addTokenUsage(this.tokenUsage, spent);
    const byTool = isUsageRecord(this.tokenUsage.by_tool) ? this.tokenUsage.by_tool : {};
    const own = isUsageRecord(byTool[toolName]) ? byTool[toolName] : {};
    total.by_tool = { ...byTool, [toolName]: addTokenUsage(own, usage) };
    this.tokenUsage = total;
    writeUnchecked(this.state, "token_usage", total);
  }

  finishStep(): void {
    this.stepCount++;
    writeUnchecked(this.state, "step_count", this.stepCount);
  }

  /** Records an exit; runs `onExit` hooks, which may veto it. @returns true when the run ends */
  async confirmExit(reason: string, parent: Span | undefined): Promise<boolean> {
    writeUnchecked(this.state, "exit_reason", reason);
    if (this.setup.hooks.onExit.length === 0) return true;
    this.control.exitReason = reason;
    this.control.continueRequested = false;
    await this.hooks("onExit", parent);
    this.control.exitReason = undefined;
    if (!this.control.continueRequested) return true;
    this.control.continueRequested = false;
    writeUnchecked(this.state, "exit_reason", null);
    return false;
  }

  /**
   * One step: `beforeLlm` hooks, the model call, then the tool round. Not an async function, and written
   * as phases that each wait only for a promise: a step whose model answers at once and whose tool is
   * the only thing that waits makes no promise of its own (each is a measurable share of a step).
   *
   * @returns the exit reason when the run ends, else `undefined` (or a promise of it)
   */
  step(span: Span | undefined): MaybePromise<string | undefined> {
    const tools = this.currentTools();
    const strategy = this.answers?.strategy(tools);
    if (this.setup.hooks.beforeLlm.length === 0) return this.callModel(tools, strategy, span);
    return this.hooks("beforeLlm", span).then(() => this.callModel(tools, strategy, span));
  }

  /** The step's model call, unless a hook stopped the run. */
  callModel(
    tools: AnyTool[],
    strategy: CallStrategy | undefined,
    span: Span | undefined,
  ): MaybePromise<string | undefined> {
    if (this.control.stopReason !== undefined) {
      writeUnchecked(this.state, "exit_reason", this.control.stopReason);
      return this.control.stopReason;
    }
    const answers = this.answers;
    const replies = this.modelStep(
      answers === undefined || strategy === undefined ? tools : answers.offeredTools(tools, strategy),
      span,
      strategy === "responseFormat" ? answers?.spec.responseFormat : undefined,
    );
    if (isPromiseLike(replies)) return replies.then((value) => this.afterModel(value, tools, strategy, span));
    return this.afterModel(replies, tools, strategy, span);
  }

  /** The replies into State; then the end of the step (no tool call) or the `beforeTool` hooks and tools. */
  afterModel(
    replies: ChatMessage[],
    tools: AnyTool[],
    strategy: CallStrategy | undefined,
    span: Span | undefined,
  ): MaybePromise<string | undefined> {
    writeUnchecked(this.state, "messages", replies);
    this.addUsage(replies);
    if (!callsTools(replies)) {
      const answers = this.answers;
      if (answers !== undefined && strategy !== undefined && modelStopReason(replies) === undefined) {
        this.finishStep();
        return answers.settleText(replies, strategy, span);
      }
      const reason = modelExit(replies, tools.length > 0);
      this.finishStep();
      return reason === undefined ? undefined : this.exitUnlessVetoed(reason, span);
    }
    if (this.setup.hooks.beforeTool.length === 0) return this.toolRound(tools, span);
    // What a beforeTool hook's control.interrupt() may name.
    this.control.pendingCallIds = new Set(
      replies.flatMap((reply) => reply.toolCalls.flatMap((call) => (call.id === undefined ? [] : [call.id]))),
    );
    this.control.interrupts = [];
    return this.hooks("beforeTool", span).then(() => this.toolRound(tools, span));
  }

  /** The step's tool calls: approvals first when a tool has a rule or a hook asked for one. */
  toolRound(tools: AnyTool[], span: Span | undefined): MaybePromise<string | undefined> {
    const pending = this.pendingCalls();
    const toolMap = this.toolMap(tools);
    const hookInterrupts = this.control.interrupts;
    // Approvals cost nothing when no called tool has a rule and no hook asked for one.
    if (!mayNeedGate(pending, toolMap, hookInterrupts))
      return this.runTools(pending, toolMap, openGates().presets, span);
    return gateCalls({
      step: this.stepCount + 1,
      pending,
      tools: toolMap,
      state: this.state,
      hookInterrupts,
      sticky: this.sticky,
      signal: this.context.signal,
    }).then((gates) => {
      if (hookInterrupts.length > 0) this.control.interrupts = [];
      if (gates.interrupts.length > 0) this.pause(gates);
      return this.runTools(pending, toolMap, gates.presets, span);
    });
  }

  /** The tool calls of the last assistant message (what the step runs). */
  pendingCalls(): readonly ToolCall[] {
    const last = this.state.lastItem("messages");
    return last instanceof ChatMessage && last.role === "assistant" ? last.toolCalls : [];
  }

  /** Stops the run before the step's tools: the snapshot holds the State and which calls wait. */
  pause(gates: GateResult): never {
    const snapshot: AgentSnapshot = {
      kind: "junction.Agent",
      version: 1,
      at: "beforeTool",
      step: this.stepCount,
      state: stateDataToJSON(this.state, Object.keys(this.setup.stateSchema)),
      calls: gates.calls,
      sticky: { ...this.sticky },
      ...(this.control.stopReason === undefined ? {} : { stopReason: this.control.stopReason }),
      ...(this.conversation === undefined ? {} : { conversation: this.conversation.toJSON() }),
    };
    return this.context.interrupt({ interrupts: gates.interrupts, state: snapshot });
  }

  /** The paused step, continued: decisions applied, then the tools, `afterTool`, and the exit check. */
  resumeStep(resume: AgentResume, span: Span | undefined): MaybePromise<string | undefined> {
    const tools = this.currentTools();
    const toolMap = this.toolMap(tools);
    const applied = applyDecisions(
      this.pendingCalls(),
      resume.snapshot.calls,
      resume.decisions,
      toolMap,
      this.sticky,
      this.state,
    );
    return this.runTools(applied.calls, toolMap, applied.presets, span);
  }

  /**
   * Runs the step's tool calls, the `afterTool` hooks, ends the step and checks for a tool exit. Waits
   * only for what is a promise (a step whose tools answer at once makes none here).
   */
  runTools(
    pending: readonly ToolCall[],
    toolMap: ReadonlyMap<string, AnyTool>,
    presets: ReadonlyMap<number, ChatMessage>,
    span: Span | undefined,
  ): MaybePromise<string | undefined> {
    const round = this.startTools(pending, toolMap, presets, span);
    const results = round.results;
    if (isPromiseLike(results)) return results.then((value) => this.endTools(pending, round, value, span));
    return this.endTools(pending, round, results, span);
  }

  /** Starts the step's tool calls; final-answer calls are set aside for the structured-answer logic. */
  startTools(
    pending: readonly ToolCall[],
    toolMap: ReadonlyMap<string, AnyTool>,
    presets: ReadonlyMap<number, ChatMessage>,
    span: Span | undefined,
  ): ToolRound {
    const others = this.answers?.split(pending);
    const calls = others ?? pending;
    if (calls.length === 0) return { calls, others, results: [] };
    const results = runToolCalls({
      calls,
      tools: toolMap,
      state: this.state,
      queue: this.queue,
      raiseOnFailure: this.params.raiseOnToolInvocationFailure,
      signal: this.context.signal,
      tracer: this.context.tracer,
      parentSpan: span,
      logger: this.context.logger,
      onChunk: this.prepared.onChunk,
      onUsage: this.onToolUsage,
      depth: this.context.depth,
      presets: others === undefined ? presets : reindexPresets(pending, calls, presets),
      endChunk: others === undefined,
      durable: this.context.durable,
      step: this.stepCount,
    });
    return { calls, others, results };
  }

  /**
   * After the tool calls: the results (or the structured answer) into State, `afterTool` hooks, the end
   * of the step and the exit check. Synchronous unless a structured answer, a hook or an exit waits.
   */
  endTools(
    pending: readonly ToolCall[],
    round: ToolRound,
    results: ChatMessage[],
    span: Span | undefined,
  ): MaybePromise<string | undefined> {
    const { calls, others } = round;
    if (calls.length > 0) this.countToolCalls(calls);
    if (others !== undefined || this.setup.hooks.afterTool.length > 0)
      return this.endToolsWaiting(pending, round, results, span);
    if (results.length > 0) writeUnchecked(this.state, "messages", results);
    this.finishStep();
    const reason = this.checkToolExit ? toolExit(calls, results, this.exitSet) : undefined;
    return reason === undefined ? undefined : this.exitUnlessVetoed(reason, span);
  }

  /** {@link endTools} with a structured answer to check or `afterTool` hooks to run. */
  async endToolsWaiting(
    pending: readonly ToolCall[],
    { calls, others }: ToolRound,
    results: ChatMessage[],
    span: Span | undefined,
  ): Promise<string | undefined> {
    const answers = this.answers;
    const answer = others === undefined ? undefined : await answers!.answerCalls(pending, results);
    if (answer !== undefined) writeUnchecked(this.state, "messages", answer.messages);
    else if (results.length > 0) writeUnchecked(this.state, "messages", results);
    if (this.setup.hooks.afterTool.length > 0) await this.hooks("afterTool", span);
    this.finishStep();
    if (answer?.verdict.ok === true) return answers!.settle(answer.verdict, span);
    const reason = this.checkToolExit ? toolExit(calls, results, this.exitSet) : undefined;
    if (reason !== undefined) return this.exitUnlessVetoed(reason, span);
    if (answer !== undefined) return answers!.settle(answer.verdict, span);
    return undefined;
  }

  /** An exit (the model's or a tool's), unless an `onExit` hook vetoes it. */
  async exitUnlessVetoed(reason: string, span: Span | undefined): Promise<string | undefined> {
    return (await this.confirmExit(reason, span)) ? reason : undefined;
  }

  countToolCalls(calls: readonly ToolCall[]): void {
    // A value someone read from State never changes afterwards, so the counts are copied — unless nothing
    // can read State during this run (no hooks, no tool that gets the State or reads this key): then the
    // run's own record is updated in place.
    const counts = this.countsInPlace ? this.toolCallCounts : copyRecord(this.toolCallCounts);
    for (const call of calls) counts[call.toolName] = (counts[call.toolName] ?? 0) + 1;
    this.toolCallCounts = counts;
    writeUnchecked(this.state, "tool_call_counts", counts);
  }

  /**
   * After `maxAgentSteps`: one last model call without tools, so the user gets an answer (with an
   * output schema, a structured one: offered only the final-answer tool, or with the response format).
   */
  async finalAnswer(parent: Span | undefined): Promise<void> {
    const span = this.context.tracer.startSpan(
      "junction.agent.step",
      { "junction.agent.step": this.stepCount, "junction.agent.final_answer": true },
      parent,
    );
    try {
      const answers = this.answers;
      const strategy = answers?.strategy([]);
      const replies = await this.modelStep(
        answers === undefined || strategy === undefined ? [] : answers.offeredTools([], strategy),
        span,
        strategy === "responseFormat" ? answers?.spec.responseFormat : undefined,
      );
      writeUnchecked(this.state, "messages", replies);
      this.addUsage(replies);
      if (answers !== undefined && strategy !== undefined) await answers.finalAnswer(replies, strategy);
      this.finishStep();
    } finally {
      span.end();
    }
  }

  async loop(resume: AgentResume | undefined): Promise<string> {
    const { params, context } = this;
    this.control.tools = this.prepared.initialTools;
    // A resumed run already ran its beforeRun hooks.
    if (resume === undefined) await this.hooks("beforeRun", this.runSpan);
    // A beforeRun hook may have restored a saved run.
    this.stepCount = (this.state.get("step_count") as number | undefined) ?? 0;
    this.tokenUsage = (this.state.get("token_usage") as Record<string, unknown> | undefined) ?? {};
    this.toolCallCounts = {
      ...((this.state.get("tool_call_counts") as Record<string, number> | undefined) ?? {}),
    };
    let exitReason: string | undefined;
    if (resume !== undefined) {
      Object.assign(this.sticky, resume.snapshot.sticky);
      if (resume.snapshot.stopReason !== undefined) this.control.stopReason = resume.snapshot.stopReason;
      const span = context.tracer.startSpan(
        "junction.agent.step",
        { "junction.agent.step": this.stepCount, "junction.agent.resumed": true },
        this.runSpan,
      );
      try {
        exitReason = await this.resumeStep(resume, span);
      } finally {
        span.end();
      }
    }
    while (exitReason === undefined && this.stepCount < params.maxAgentSteps) {
      const span = context.tracer.startSpan(
        "junction.agent.step",
        context.tracer === noopTracer ? noTags : { "junction.agent.step": this.stepCount },
        this.runSpan,
      );
      try {
        const stepped = this.step(span);
        exitReason = isPromiseLike(stepped) ? await stepped : stepped;
      } finally {
        span.end();
      }
    }
    if (exitReason === undefined) {
      exitReason = "max_agent_steps";
      // A pipeline that consumes exit_reason routes on it: reaching the limit is then a normal outcome.
      const routed = context.consumedOutputs?.has("exit_reason") === true;
      (routed ? context.logger.info : context.logger.warn).call(
        context.logger,
        `Agent reached maximum agent steps (${params.maxAgentSteps}) without an exit condition; stopping${routed ? ' (exit_reason "max_agent_steps" is routed by the pipeline)' : ""}.`,
        { maxAgentSteps: params.maxAgentSteps },
      );
      writeUnchecked(this.state, "exit_reason", exitReason);
      if (params.finalAnswerOnMaxSteps) await this.finalAnswer(this.runSpan);
    }
    this.control.exitReason = exitReason;
    await this.hooks("afterRun", this.runSpan);
    return (this.state.get("exit_reason") as string | null | undefined) ?? exitReason;
  }
}

/** True when a reply asks for at least one tool call. */
function callsTools(replies: readonly ChatMessage[]): boolean {
  for (const reply of replies) if (reply.toolCall !== undefined) return true;
  return false;
}

function noHooks(hooks: AgentSetup["hooks"]): boolean {
  for (const point of Object.values(hooks)) if (point.length > 0) return false;
  return true;
}

/** True when no tool of a fixed list gets the live State or reads the tool call counts from it. */
function toolsLeaveStateAlone(tools: PreparedRun["tools"]): boolean {
  if (tools === undefined) return true;
  if (hasToolset(tools)) return false;
  for (const tool of flattenTools(tools)) {
    if (tool.needsState) return false;
    if (tool.inputsFromState !== undefined && Object.hasOwn(tool.inputsFromState, "tool_call_counts"))
      return false;
  }
  return true;
}

/** True when the tools input holds a Toolset (whose tools may change between steps). */
function hasToolset(tools: PreparedRun["tools"]): boolean {
  if (tools === undefined) return false;
  return tools instanceof Toolset || tools.some((item) => item instanceof Toolset);
}

/** Presets keyed by index in `pending`, re-keyed by index in `calls` (a subsequence of `pending`). */
function reindexPresets(
  pending: readonly ToolCall[],
  calls: readonly ToolCall[],
  presets: ReadonlyMap<number, ChatMessage>,
): ReadonlyMap<number, ChatMessage> {
  if (presets.size === 0) return presets;
  const out = new Map<number, ChatMessage>();
  let position = 0;
  pending.forEach((call, index) => {
    if (calls[position] !== call) return;
    const preset = presets.get(index);
    if (preset !== undefined) out.set(position, preset);
    position++;
  });
  return out;
}
