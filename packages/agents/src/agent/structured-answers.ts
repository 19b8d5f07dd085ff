import { ComponentError, formatIssues, type Issue, type Span } from "@junction/core";
import { type AnyTool, ChatMessage, type ToolCall } from "@junction/llm";
import { AgentRunError } from "../errors.js";
import {
  type AnswerVerdict,
  checkTextAnswer,
  checkToolAnswer,
  textRepairText,
  toolRepairText,
} from "../output/answer.js";
import type { OutputSpec } from "../output/output-schema.js";
import { type State, writeUnchecked } from "../state/state.js";
import { toolResultChunk, toolResultsEndChunk } from "../tools/run-tool-calls.js";
import type { AgentParams } from "./agent-config.js";
import type { PreparedRun } from "./run-setup.js";

/** The concrete strategy of one model call. */
export type CallStrategy = "tool" | "responseFormat";

/** What the structured-answer logic needs from the run. */
export interface StructuredRun {
  readonly params: AgentParams;
  readonly prepared: PreparedRun;
  readonly state: State;
  readonly stepCount: number;
  /** Records an exit and runs the `onExit` hooks. @returns true when the run ends */
  confirmExit(reason: string, parent: Span | undefined): Promise<boolean>;
}

/** A turn's final-answer tool calls, answered. */
export interface AnsweredCalls {
  /** One tool-result message per call of the turn, in call order. */
  readonly messages: ChatMessage[];
  /** The first valid answer, else the first invalid one. */
  readonly verdict: AnswerVerdict;
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The structured-answer part of one agent run: chooses how each call asks for the answer, checks
 * answers, sends the problems back, counts the retries, and ends the run with `"text"` (a valid answer)
 * or `"invalid_output"` (retries used up).
 */
export class StructuredAnswers {
  /** Invalid answers so far in this run. */
  invalidCount = 0;

  constructor(
    readonly run: StructuredRun,
    readonly spec: OutputSpec,
  ) {}

  /** The strategy of a call offering `tools`: `"auto"` uses the response format only without tools. */
  strategy(tools: readonly AnyTool[]): CallStrategy {
    const chosen = this.run.params.outputStrategy;
    if (chosen !== "auto") return chosen;
    return this.run.prepared.generatorHasResponseFormat && tools.length === 0 ? "responseFormat" : "tool";
  }

  /** The tools to offer: with the `"tool"` strategy, the user's tools plus the final-answer tool. */
  offeredTools(tools: readonly AnyTool[], strategy: CallStrategy): readonly AnyTool[] {
    if (strategy !== "tool") return tools;
    const name = this.spec.tool.name;
    if (tools.some((tool) => tool.name === name)) {
      throw new ComponentError(
        `Agent: a tool named "${name}" is offered (from a toolset); the Agent uses that name for structured answers (outputSchema). Rename the tool.`,
      );
    }
    return [...tools, this.spec.tool];
  }

  /** The turn's calls other than final-answer calls; `undefined` when there are no final-answer calls. */
  split(calls: readonly ToolCall[]): readonly ToolCall[] | undefined {
    const name = this.spec.tool.name;
    if (!calls.some((call) => call.toolName === name)) return undefined;
    return calls.filter((call) => call.toolName !== name);
  }

  /**
   * Answers the final-answer calls of a turn (a valid one gets the accepted value as its result, an
   * invalid one an error result listing the problems) and merges them with the other calls' results.
   */
  async answerCalls(
    calls: readonly ToolCall[],
    otherResults: readonly ChatMessage[],
  ): Promise<AnsweredCalls> {
    const name = this.spec.tool.name;
    const onChunk = this.run.prepared.onChunk;
    const messages = new Array<ChatMessage>(calls.length);
    let other = 0;
    let chosen: AnswerVerdict | undefined;
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index]!;
      if (call.toolName !== name) {
        messages[index] = otherResults[other++]!;
        continue;
      }
      const verdict = checkToolAnswer(this.spec, call);
      if (chosen === undefined || (!chosen.ok && verdict.ok)) chosen = verdict;
      const message = verdict.ok
        ? ChatMessage.fromTool(stringify(verdict.value), call)
        : ChatMessage.fromTool(toolRepairText(this.spec, verdict.issues), call, { error: true });
      messages[index] = message;
      await onChunk?.(toolResultChunk(message, call, index));
    }
    await onChunk?.(toolResultsEndChunk());
    return { messages, verdict: chosen! };
  }

  /** Checks a turn without tool calls as a text answer and settles it. */
  settleText(replies: readonly ChatMessage[], strategy: CallStrategy, span: Span | undefined) {
    const verdict = this.#textVerdict(replies, strategy);
    return this.settle(verdict, span, verdict.ok ? undefined : textRepairText(this.spec, verdict, strategy));
  }

  #textVerdict(replies: readonly ChatMessage[], strategy: CallStrategy): AnswerVerdict {
    const verdict = checkTextAnswer(this.spec, replies[replies.length - 1]?.text);
    if (verdict.ok || strategy !== "tool" || verdict.kind === "schema") return verdict;
    const issues = [
      {
        path: [],
        message: `the model replied in text instead of calling the "${this.spec.tool.name}" tool.`,
      },
    ];
    return { ok: false, kind: verdict.kind, issues };
  }

  /**
   * Settles an answer. A valid one is put in `structured_output` and ends the run with `"text"` (unless
   * an `onExit` hook vetoes it). An invalid one is recorded in `output_issues` and, while retries are
   * left, `repair` is sent to the model; when they are used up the run ends with `"invalid_output"` (or
   * throws, with `raiseOnInvalidOutput`).
   *
   * @returns the exit reason when the run ends, else `undefined`
   */
  async settle(verdict: AnswerVerdict, span: Span | undefined, repair?: string): Promise<string | undefined> {
    const { state } = this.run;
    if (verdict.ok) {
      writeUnchecked(state, "structured_output", verdict.value);
      writeUnchecked(state, "output_issues", null);
      if (await this.run.confirmExit("text", span)) return "text";
      writeUnchecked(state, "structured_output", null);
      return undefined;
    }
    this.invalidCount++;
    writeUnchecked(state, "output_issues", verdict.issues);
    if (this.invalidCount > this.run.params.maxOutputRetries) {
      this.#raiseIfAsked(verdict.issues);
      if (await this.run.confirmExit("invalid_output", span)) return "invalid_output";
    }
    if (repair !== undefined) writeUnchecked(state, "messages", [ChatMessage.fromUser(repair)]);
    return undefined;
  }

  /** Checks the answer of the last call after `maxAgentSteps` (`finalAnswerOnMaxSteps`); no retries. */
  async finalAnswer(replies: readonly ChatMessage[], strategy: CallStrategy): Promise<void> {
    const { state } = this.run;
    const calls = replies.flatMap((reply) => reply.toolCalls);
    let verdict: AnswerVerdict;
    if (calls.length === 0) {
      verdict = this.#textVerdict(replies, strategy);
    } else {
      const others = calls.filter((call) => call.toolName !== this.spec.tool.name);
      const refused = others.map((call) =>
        ChatMessage.fromTool(
          `Tool "${call.toolName}" is not available for the final answer (the step limit was reached).`,
          call,
          { error: true },
        ),
      );
      const answered = calls.length === others.length ? undefined : await this.answerCalls(calls, refused);
      writeUnchecked(state, "messages", answered?.messages ?? refused);
      verdict = answered?.verdict ?? {
        ok: false,
        kind: "missing",
        issues: [{ path: [], message: `the model did not call the "${this.spec.tool.name}" tool.` }],
      };
    }
    if (verdict.ok) {
      writeUnchecked(state, "structured_output", verdict.value);
      writeUnchecked(state, "output_issues", null);
      return;
    }
    this.invalidCount++;
    writeUnchecked(state, "output_issues", verdict.issues);
    this.#raiseIfAsked(verdict.issues);
    writeUnchecked(state, "exit_reason", "invalid_output");
  }

  #raiseIfAsked(issues: readonly Issue[]): void {
    if (!this.run.params.raiseOnInvalidOutput) return;
    const attempts = this.invalidCount;
    throw new AgentRunError(
      "AGENT_INVALID_OUTPUT",
      `Agent: the model's answer does not match the outputSchema after ${attempts} attempt${attempts === 1 ? "" : "s"}:\n${formatIssues(issues)}\nImprove the prompt or the schema's descriptions, raise maxOutputRetries, or handle exit_reason "invalid_output" instead (raiseOnInvalidOutput: false).`,
      {
        messages: Array.from(this.run.state.get("messages") as readonly unknown[]),
        stepCount: this.run.stepCount,
        issues,
      },
    );
  }
}
