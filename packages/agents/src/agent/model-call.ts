import {
  callComponent,
  componentCaller,
  isPromiseLike,
  type MaybePromise,
  noopTracer,
  type RunContext,
  type Span,
} from "@junction/core";
import { type AnyTool, ChatMessage, type JsonSchemaResponseFormat } from "@junction/llm";
import { raceAbort } from "../abort.js";
import type { State } from "../state/state.js";
import type { AgentParams, AgentSetup } from "./agent-config.js";
import type { PreparedRun } from "./run-setup.js";

/** The tags of a span that has none (shared: a tracer copies what it records). */
const noTags: Readonly<Record<string, unknown>> = Object.freeze({});

/** What one model call needs from the run. */
export interface ModelCallSite {
  readonly params: AgentParams;
  readonly context: RunContext<AgentParams, AgentSetup>;
  readonly prepared: PreparedRun;
  readonly state: State;
  /** Calls the chat generator with options fixed for the run ({@link fixedModelCaller}), when it can. */
  readonly modelCaller: ModelCaller | undefined;
}

/** Calls the chat generator with its inputs. */
export type ModelCaller = (inputs: Record<string, unknown>) => MaybePromise<Record<string, unknown>>;

/**
 * The chat generator's caller for a whole run, when every call gets the same options: nothing traces
 * (every model call's span is the tracer's one no-op span), so the generator's run context is built
 * once per run instead of once per step. `undefined` when a tracer records the calls.
 */
export function fixedModelCaller(
  params: AgentParams,
  context: RunContext<AgentParams, AgentSetup>,
  prepared: PreparedRun,
): ModelCaller | undefined {
  if (context.tracer !== noopTracer) return undefined;
  return componentCaller(params.chatGenerator, {
    signal: context.signal,
    tracer: noopTracer,
    span: noopTracer.startSpan("junction.agent.llm"),
    logger: context.logger,
    onEmit: prepared.onGeneratorEmit,
  });
}

/**
 * Calls the chat generator with the conversation so far and the offered tools, in a
 * `junction.agent.llm` span. Not an async function: a generator that answers at once (a scripted or
 * cached model) costs the step no promise; an async one is raced against the run's abort signal.
 *
 * @throws TypeError when the generator does not return `{ replies: ChatMessage[] }`
 */
export function callChatGenerator(
  site: ModelCallSite,
  tools: readonly AnyTool[],
  parent: Span | undefined,
  responseFormat: JsonSchemaResponseFormat | undefined,
): MaybePromise<ChatMessage[]> {
  const { context, prepared } = site;
  const span = context.tracer.startSpan("junction.agent.llm", noTags, parent);
  let result: MaybePromise<Record<string, unknown>>;
  try {
    // Not `{ ...inputs, messages }`: on Node 20 an object made by a spread is slow (~1 µs) to add a key
    // to, more than the rest of the model call's bookkeeping. Most generators get no other input.
    const other = prepared.generatorInputs;
    const inputs: Record<string, unknown> = other === undefined ? {} : copyRecord(other);
    inputs.messages = site.state.get("messages");
    if (prepared.generatorHasTools) inputs.tools = tools.length > 0 ? tools : undefined;
    if (responseFormat !== undefined) inputs.response_format = responseFormat;
    const caller = site.modelCaller;
    result =
      caller !== undefined
        ? caller(inputs)
        : callComponent(site.params.chatGenerator, inputs, {
            signal: context.signal,
            tracer: context.tracer,
            span,
            logger: context.logger,
            onEmit: prepared.onGeneratorEmit,
          });
  } catch (error) {
    span.end();
    throw error;
  }
  if (!isPromiseLike(result)) {
    span.end();
    return repliesOf(site, result);
  }
  return raceAbort(Promise.resolve(result), context.signal).then(
    (outputs) => {
      span.end();
      return repliesOf(site, outputs);
    },
    (error: unknown) => {
      span.end();
      throw error;
    },
  );
}

/** The generator's replies, checked. */
function repliesOf(site: ModelCallSite, outputs: Record<string, unknown>): ChatMessage[] {
  const replies = outputs.replies;
  if (!areMessages(replies)) {
    throw new TypeError(
      `the chat generator "${site.params.chatGenerator.type}" did not return { replies: ChatMessage[] }.`,
    );
  }
  return replies;
}

/** True when `value` is a list of `ChatMessage`s (what a chat generator must return). */
function areMessages(value: unknown): value is ChatMessage[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!(item instanceof ChatMessage)) return false;
  return true;
}

/** A shallow copy as a spread makes it, built so that V8 adds keys to it cheaply (see `callChatGenerator`). */
export function copyRecord<T extends object>(value: T): T {
  if (Object.hasOwn(value, "__proto__")) return { ...value };
  return Object.assign({}, value);
}
