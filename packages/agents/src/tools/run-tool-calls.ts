import type { Durable, Logger, MaybePromise, Span, Tracer } from "@junction/core";
import { didYouMean, excerpt, isPromiseLike, noopTracer, quoteExcerpt } from "@junction/core";
import {
  type AnyTool,
  ChatMessage,
  callTool,
  errorType,
  StreamingChunk,
  type ToolCall,
  ToolInvocationError,
  toolCallError,
  toolResultToString,
} from "@junction/llm";
import type PQueue from "p-queue";
import { raceAbort } from "../abort.js";
import { StateError } from "../errors.js";
import type { State } from "../state/state.js";
import { planToolCalls } from "./plan-tool-calls.js";

/** What {@link runToolCalls} needs. */
export interface RunToolCallsOptions {
  /** The calls of one model turn, in the order the model requested them. */
  readonly calls: readonly ToolCall[];
  /** The available tools by name. */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The run's State (tools read it through `inputsFromState`, write it through `outputsToState`). */
  readonly state: State;
  /** Bounds how many calls run at once; `undefined` runs a whole batch at once. */
  readonly queue: PQueue | undefined;
  /** Raise tool errors instead of turning them into error tool results. */
  readonly raiseOnFailure: boolean;
  /** Aborts every running tool. */
  readonly signal: AbortSignal | undefined;
  /** Traces each call. */
  readonly tracer: Tracer;
  /** The parent of the tool spans (the step's span), so parallel calls are siblings. */
  readonly parentSpan: Span | undefined;
  /** Where warnings go. */
  readonly logger: Logger;
  /** Receives one chunk per finished call, then a final `tool_call_results` chunk; `undefined` to skip. */
  readonly onChunk: ((chunk: StreamingChunk) => MaybePromise<void>) | undefined;
  /** Receives the token usage a tool reports (an `AgentTool`'s sub-agent), with the tool's name. */
  readonly onUsage?: ((toolName: string, usage: Readonly<Record<string, unknown>>) => void) | undefined;
  /** The agent run's nesting depth, passed on to the tools. */
  readonly depth?: number | undefined;
  /** Send the final `tool_call_results` chunk (default true; false when the caller adds results). */
  readonly endChunk?: boolean | undefined;
  /** Calls answered without running (rejected or answered by a person), by call index. */
  readonly presets?: ReadonlyMap<number, ChatMessage> | undefined;
  /**
   * Durable steps of a durable run (`undefined` in-process): each call is the step
   * `tool#<step>/<call id>`, a batch is joined with `durable.all` in call order.
   */
  readonly durable?: Durable | undefined;
  /** The agent step these calls belong to (names the durable steps). */
  readonly step?: number | undefined;
}

/** The outcome of one call, before it is merged into State (on a durable run, what is journaled). */
interface Outcome {
  readonly message: ChatMessage;
  /** The tool error (ToolInvocationError) when the call failed. */
  readonly error: unknown;
  /** The raw result when the call succeeded and the tool merges it into State (`outputsToState`). */
  readonly result: unknown;
}

/** The tags of a span nobody records. */
const noTags: Readonly<Record<string, unknown>> = Object.freeze({});

function ignore(): void {}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Fills parameters the model did not supply from State (`inputsFromState`); model arguments win. */
export function prepareArguments(
  tool: AnyTool,
  call: ToolCall,
  state: State,
): Readonly<Record<string, unknown>> {
  const mapping = tool.inputsFromState;
  if (mapping === undefined) return call.arguments;
  let args: Record<string, unknown> | undefined;
  for (const [stateKey, parameter] of Object.entries(mapping)) {
    if (Object.hasOwn(call.arguments, parameter) || !state.has(stateKey)) continue;
    args ??= { ...call.arguments };
    args[parameter] = state.get(stateKey);
  }
  return args ?? call.arguments;
}

/**
 * The rule for `inputsFromState` when the State key has no value yet and the model did not supply the
 * parameter: a required parameter fails the call with a message naming the State key (raised when
 * `raiseOnToolInvocationFailure`); an optional parameter is left out.
 */
function missingStateInput(tool: AnyTool, call: ToolCall, state: State): ToolInvocationError | undefined {
  if (tool.inputsFromState === undefined) return undefined;
  const required = new Set(Array.isArray(tool.parameters.required) ? tool.parameters.required : []);
  for (const [stateKey, parameter] of Object.entries(tool.inputsFromState ?? {})) {
    if (Object.hasOwn(call.arguments, parameter) || state.has(stateKey) || !required.has(parameter)) continue;
    return new ToolInvocationError(
      `Tool "${excerpt(tool.name)}": its parameter "${excerpt(parameter)}" is filled from State key "${excerpt(stateKey)}" (inputsFromState), but State key "${excerpt(stateKey)}" has no value yet. Give "${excerpt(stateKey)}" a value before the tool runs (a run input of the agent, or another tool's outputsToState), or make "${excerpt(parameter)}" optional in the tool's parameters.`,
      { toolName: tool.name, arguments: call.arguments },
    );
  }
  return undefined;
}

/**
 * Merges a result into State through the tool's `outputsToState` (object results only). A failure is
 * an error of the run, never hidden in a tool message. A result without the `source` key is skipped
 * with a warning naming the keys it has (a function tool's result shape is only known at run time;
 * component, pipeline and agent tools refuse an unknown `source` when they are built).
 */
export function mergeOutputs(tool: AnyTool, result: unknown, state: State, logger?: Logger): void {
  const config = tool.outputsToState;
  if (config === undefined || !isRecord(result)) return;
  for (const [stateKey, entry] of Object.entries(config)) {
    let value: unknown = result;
    if (entry.source !== undefined) {
      if (!Object.hasOwn(result, entry.source)) {
        const keys = Object.keys(result);
        logger?.warn(
          `Tool "${excerpt(tool.name)}": its result has no key "${excerpt(entry.source)}", which outputsToState writes to State key "${excerpt(stateKey)}"; nothing was written.${didYouMean(entry.source, keys)} The result's keys: ${keys.map((key) => `"${excerpt(key)}"`).join(", ") || "none"}. Fix outputsToState.${excerpt(stateKey)}.source or the tool's result.`,
          { toolName: tool.name, stateKey, source: entry.source },
        );
        continue;
      }
      value = result[entry.source];
    }
    try {
      state.set(stateKey, value as never, entry.handler);
    } catch (error) {
      throw new StateError(
        `Tool "${excerpt(tool.name)}": merging its result into State key "${excerpt(stateKey)}" failed: ${error instanceof Error ? error.message : String(error)}\nFix the tool's result or its outputsToState mapping so the value matches the key's schema.`,
        { cause: error, issues: StateError.isInstance(error) ? error.issues : [] },
      );
    }
  }
}

function errorMessage(call: ToolCall, error: unknown): ChatMessage {
  const text = error instanceof Error ? error.message : String(error);
  return ChatMessage.fromTool(text, call, { error: true });
}

/**
 * Runs one call and hands its outcome to `finish` (the caller's next step: settling it, or `sameOutcome`).
 * Not an async function: a synchronous tool's outcome comes back at once, and an async tool's own
 * promise is the only one waited on — one promise reaction both builds the outcome and finishes it
 * (each promise is a measurable share of an agent step). A failure is an outcome carrying the error;
 * only an abort rejects (with the signal's reason).
 */
function execute<R>(
  index: number,
  call: ToolCall,
  tool: AnyTool | undefined,
  args: Readonly<Record<string, unknown>>,
  options: RunToolCallsOptions,
  idempotencyKey: string | undefined,
  finish: (outcome: Outcome) => R,
): MaybePromise<R> {
  if (tool === undefined) {
    const available = [...options.tools.keys()].map((name) => `"${excerpt(name)}"`).join(", ") || "none";
    const error = new ToolInvocationError(
      `Tool "${excerpt(call.toolName)}" not found.${didYouMean(call.toolName, options.tools.keys())} Available tools: ${available}. Call one of the available tools.`,
      { toolName: call.toolName, arguments: call.arguments },
    );
    return finish({ message: errorMessage(call, error), error, result: undefined });
  }
  const malformed = call.extra?.malformed_arguments;
  if (typeof malformed === "string") {
    // A generator could not parse the model's arguments (see OpenAIChatGenerator): never run the tool
    // with made-up arguments; tell the model what was wrong so it can call again.
    const reason = typeof call.extra?.arguments_error === "string" ? ` (${call.extra.arguments_error})` : "";
    const error = new ToolInvocationError(
      `The arguments for tool "${excerpt(call.toolName)}" were not a usable JSON object${reason}: ${quoteExcerpt(malformed)}. Call the tool again with a JSON object of arguments.`,
      { toolName: call.toolName, arguments: call.arguments },
    );
    return finish({ message: errorMessage(call, error), error, result: undefined });
  }
  const missing = missingStateInput(tool, call, options.state);
  if (missing !== undefined)
    return finish({ message: errorMessage(call, missing), error: missing, result: undefined });
  const span = options.tracer.startSpan(
    "junction.agent.tool",
    options.tracer !== noopTracer
      ? {
          "junction.tool.name": tool.name,
          "junction.tool.call_id": call.id,
          "junction.tool.call_index": index,
          "gen_ai.tool.call.arguments": args,
        }
      : noTags,
    options.parentSpan,
  );
  const onUsage = options.onUsage;
  let result: unknown;
  try {
    result = callTool(tool, args, {
      signal: options.signal,
      state: tool.needsState ? options.state : undefined,
      toolCall: call,
      tracer: options.tracer,
      span,
      logger: options.logger,
      emit: options.onChunk ?? ignore,
      reportUsage: onUsage === undefined ? ignore : (usage) => onUsage(tool.name, usage),
      depth: options.depth ?? 0,
      idempotencyKey,
    });
  } catch (error) {
    return finish(failed(call, error, span, options));
  }
  if (!isPromiseLike(result)) return finish(succeeded(tool, call, result, span, options));
  return Promise.resolve(result).then(
    (value) => finish(succeeded(tool, call, value, span, options)),
    (error: unknown) => finish(failed(call, toolCallError(tool, args, error, options.signal), span, options)),
  );
}

function sameOutcome(outcome: Outcome): Outcome {
  return outcome;
}

/** The outcome of a call whose tool returned `result` (a failure to turn it into text fails the call). */
function succeeded(
  tool: AnyTool,
  call: ToolCall,
  result: unknown,
  span: Span,
  options: RunToolCallsOptions,
): Outcome {
  let content: ReturnType<typeof toolResultToString>;
  try {
    content = toolResultToString(tool, result, {
      raiseOnFailure: options.raiseOnFailure,
      logger: options.logger,
    });
  } catch (error) {
    return failed(call, error, span, options);
  }
  if (options.tracer !== noopTracer) span.setTag("gen_ai.tool.call.result", content);
  span.end();
  // Only a result merged into State is kept: it is all the caller needs (and all a journal stores).
  const kept = tool.outputsToState === undefined ? undefined : result;
  return { message: ChatMessage.fromTool(content, call), error: undefined, result: kept };
}

/** The outcome of a failed call; an aborted run throws the signal's reason instead. */
function failed(call: ToolCall, error: unknown, span: Span, options: RunToolCallsOptions): Outcome {
  try {
    if (options.signal?.aborted) throw options.signal.reason;
    span.setTag("error", true);
    span.setTag("error.type", errorType(error));
    return { message: errorMessage(call, error), error, result: undefined };
  } finally {
    span.end();
  }
}

/**
 * Runs the tool calls of one model turn: plans them into batches ({@link planToolCalls}), prepares each
 * batch's arguments at its start (so readers see earlier batches' writes), runs a batch's calls
 * concurrently, then merges results into State in call order.
 *
 * @returns one tool-result message per call, in call order (independent of which call finished first)
 */
export function runToolCalls(options: RunToolCallsOptions): MaybePromise<ChatMessage[]> {
  const { calls } = options;
  // One call with nothing to queue, race, journal, stream or answer for it: no batch, and no promise
  // when the tool answers at once.
  if (
    calls.length === 1 &&
    options.queue === undefined &&
    options.signal === undefined &&
    options.durable === undefined &&
    options.onChunk === undefined &&
    (options.presets === undefined || options.presets.size === 0)
  ) {
    if (options.tracer !== noopTracer) tagPlan(options, [[0]]);
    const call = calls[0]!;
    const tool = options.tools.get(call.toolName);
    const args = tool === undefined ? call.arguments : prepareArguments(tool, call, options.state);
    return execute(0, call, tool, args, options, undefined, (outcome) => [settle(outcome, tool, options)]);
  }
  return runBatches(options);
}

/** The general case of {@link runToolCalls}: batch by batch, each batch's calls at once. */
async function runBatches(options: RunToolCallsOptions): Promise<ChatMessage[]> {
  const { calls, tools, durable } = options;
  const messages = new Array<ChatMessage>(calls.length);
  const plan = planToolCalls(calls, tools);
  tagPlan(options, plan);
  for (const batch of plan) {
    // Calls start in call order (a durable backend matches steps by start order).
    const runs: Promise<Outcome>[] = [];
    for (const index of batch) runs.push(startCallAsync(index, calls[index]!, options));
    const outcomes = await settleBatch(runs, options.signal, durable);
    for (let position = 0; position < batch.length; position++) {
      const index = batch[position]!;
      const tool = options.presets?.has(index) ? undefined : tools.get(calls[index]!.toolName);
      messages[index] = settle(outcomes[position]!, tool, options);
    }
  }
  if (calls.length > 0 && options.onChunk !== undefined && options.endChunk !== false) {
    await options.onChunk(toolResultsEndChunk());
  }
  return messages;
}

/** The schedule, for tracing UIs: one list of `{ index, tool, call_id }` per batch, in run order. */
function tagPlan(options: RunToolCallsOptions, plan: readonly (readonly number[])[]): void {
  if (options.tracer === noopTracer) return;
  const { calls } = options;
  options.parentSpan?.setTag(
    "junction.agent.tool_plan",
    plan.map((batch) =>
      batch.map((index) => ({ index, tool: calls[index]!.toolName, call_id: calls[index]!.id ?? null })),
    ),
  );
}

/**
 * A call's outcome, settled in call order: a failure is raised when the run raises tool failures, a
 * result is merged into State (`outputsToState`; not for a call answered without running).
 */
function settle(outcome: Outcome, tool: AnyTool | undefined, options: RunToolCallsOptions): ChatMessage {
  if (outcome.error !== undefined && options.raiseOnFailure) throw outcome.error;
  if (outcome.error === undefined && tool !== undefined)
    mergeOutputs(tool, outcome.result, options.state, options.logger);
  return outcome.message;
}

/** {@link startCall} as a promise: a call that fails at once (an abort) rejects like one that fails later. */
function startCallAsync(index: number, call: ToolCall, options: RunToolCallsOptions): Promise<Outcome> {
  try {
    const started = startCall(index, call, options);
    // A durable backend's own promise is passed on as it is: its `all` joins only its own promises
    // (Restate's combinators refuse a native promise wrapped around one).
    return isPromiseLike(started) ? (started as Promise<Outcome>) : Promise.resolve(started);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Starts one call of a batch: answered by its preset, or run (through the queue and as a durable step when set). */
function startCall(index: number, call: ToolCall, options: RunToolCallsOptions): MaybePromise<Outcome> {
  const { durable, state } = options;
  const preset = options.presets?.get(index);
  const tool = preset === undefined ? options.tools.get(call.toolName) : undefined;
  const args = tool === undefined ? call.arguments : prepareArguments(tool, call, state);
  if (durable === undefined && (options.queue === undefined || tool === undefined || preset !== undefined)) {
    // Nobody streams and nobody answered the call: the call itself (one async hop fewer).
    if (preset === undefined && options.onChunk === undefined)
      return execute(index, call, tool, args, options, undefined, sameOutcome);
    return runCall(index, call, tool, args, preset, options, undefined);
  }
  const stepName = durable === undefined ? undefined : toolStepName(options.step ?? 0, call, index);
  const idempotencyKey = stepName === undefined ? undefined : durable?.idempotencyKey?.(stepName);
  const queued = () =>
    options.queue === undefined || tool === undefined || preset !== undefined
      ? runCall(index, call, tool, args, preset, options, idempotencyKey)
      : options.queue.add(() => runCall(index, call, tool, args, preset, options, idempotencyKey), {
          signal: options.signal,
        });
  return durable === undefined || stepName === undefined ? queued() : durable.step(stepName, queued);
}

/** One call: a call a person rejected or answered does not run (its answer is the result); then its chunk. */
async function runCall(
  index: number,
  call: ToolCall,
  tool: AnyTool | undefined,
  args: Readonly<Record<string, unknown>>,
  preset: ChatMessage | undefined,
  options: RunToolCallsOptions,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  const outcome =
    preset === undefined
      ? await execute(index, call, tool, args, options, idempotencyKey, sameOutcome)
      : { message: preset, error: undefined, result: undefined };
  if (options.onChunk !== undefined) await options.onChunk(toolResultChunk(outcome.message, call, index));
  return outcome;
}

/** The durable step name of one call: `tool#<step>/<call id>` (`@<index>` when the call has no id). */
function toolStepName(step: number, call: ToolCall, index: number): string {
  return `tool#${step}/${call.id ? call.id : `@${index}`}`;
}

/** The chunk that ends a turn's tool results. */
export function toolResultsEndChunk(): StreamingChunk {
  return new StreamingChunk({
    finishReason: "tool_call_results",
    meta: { finish_reason: "tool_call_results" },
  });
}

/** The chunk that carries one tool call's result. */
export function toolResultChunk(message: ChatMessage, call: ToolCall, index: number): StreamingChunk {
  const toolCallResult = message.toolCallResult!;
  return new StreamingChunk({
    index,
    start: true,
    toolCallResult,
    meta: { tool_result: toolCallResult.result, tool_call: call },
  });
}

/**
 * Waits for every call of a batch. On abort, gives calls that honour the signal one macrotask to wind
 * down (so none is left running) and rejects with the signal's reason.
 */
async function settleBatch(
  runs: Promise<Outcome>[],
  signal: AbortSignal | undefined,
  durable: Durable | undefined,
): Promise<Outcome[]> {
  const all = durable === undefined ? Promise.all(runs) : durable.all(runs);
  if (signal === undefined) return all;
  try {
    return await raceAbort(all, signal);
  } catch (error) {
    if (signal.aborted) {
      await Promise.race([Promise.allSettled(runs), new Promise((resolve) => setTimeout(resolve, 0))]);
      throw signal.reason;
    }
    throw error;
  }
}
