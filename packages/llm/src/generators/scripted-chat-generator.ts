import {
  ComponentError,
  defineComponent,
  isPromiseLike,
  type MaybePromise,
  noopTracer,
  type RunContext,
} from "@junction/core";
import { z } from "zod";
import type { ChatMessage } from "../messages/chat-message.js";
import type { StreamingChunk } from "../streaming/streaming-chunk.js";
import type { AnyTool } from "../tools/tool.js";
import { flattenTools, Toolset } from "../tools/toolset.js";
import { chatGeneratorInputs, chatGeneratorOutputs } from "./chat-generator.js";
import { traceChatCall } from "./chat-span.js";
import { type JsonSchemaResponseFormat, responseFormatInputs } from "./response-format.js";
import { buildScriptedReply, type ScriptedReply, scriptedReplySchema } from "./scripted-reply.js";
import { streamScriptedReply } from "./scripted-streaming.js";

/** What a reply function receives besides the conversation. */
export interface ScriptedReplyContext {
  /** The 1-based number of this call to the generator instance. */
  readonly call: number;
  /** The tools offered on this call (flattened). */
  readonly tools: readonly AnyTool[];
  /** The call's `generation_kwargs`. */
  readonly generationKwargs: Readonly<Record<string, unknown>> | undefined;
  /** The call's `response_format` (the generator declares the input, as a real model adapter would). */
  readonly responseFormat: JsonSchemaResponseFormat | undefined;
  /** Aborts the call. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Chooses a reply from the conversation. Return `undefined` to fall through to the next script entry.
 * Keep it cheap when benchmarking: the generator itself does no work proportional to the conversation.
 */
export type ScriptedReplyFunction = (
  messages: readonly ChatMessage[],
  context: ScriptedReplyContext,
) => MaybePromise<string | ScriptedReply | ChatMessage | undefined>;

const params = z.object({
  /** Replies in order; a string is a text reply. */
  script: z.array(scriptedReplySchema).default([]),
  /** Chooses replies by a function of the conversation (serialized by registered name). */
  respond: z
    .custom<ScriptedReplyFunction>((value) => typeof value === "function", {
      message: "expected a function (messages, context) => reply",
    })
    .optional(),
  /** The model name reported in `meta.model`. */
  model: z.string().default("scripted"),
  /** What happens after the last script entry: fail (default), repeat the last reply, or start over. */
  onScriptEnd: z.enum(["error", "repeatLast", "loop"]).default("error"),
  /** Stream every reply (through `context.emit`) even without a `streaming_callback`. */
  stream: z.boolean().default(false),
  /** Simulated latency per call in milliseconds (honours the abort signal). */
  delayMs: z.number().int().nonnegative().default(0),
});

type Params = z.output<typeof params>;

/** Each instance's script position, by its params object (one per instance). */
/** Per instance: the script position, the call count, and the last tools input flattened. */
interface ScriptState {
  position: number;
  calls: number;
  toolsInput: unknown;
  offered: AnyTool[];
  fixed: boolean;
}

const scriptStates = new WeakMap<object, ScriptState>();

function nextScripted(p: Params, state: { position: number }, call: number): string | ScriptedReply {
  const script = p.script;
  if (state.position >= script.length) {
    if (script.length > 0 && p.onScriptEnd === "repeatLast") return script[script.length - 1]!;
    if (script.length > 0 && p.onScriptEnd === "loop") state.position = 0;
    else
      throw new ComponentError(
        `ScriptedChatGenerator: the script has ${script.length} repl${script.length === 1 ? "y" : "ies"} and all were used; call ${call} has none. Add replies to \`script\`, set onScriptEnd: "repeatLast" or "loop", or give a \`respond\` function.`,
        { componentType: "junction.ScriptedChatGenerator" },
      );
  }
  return script[state.position++]!;
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** One call's inputs, as {@link scriptedReplies} needs them. */
interface ScriptedTurn extends ScriptedReplyContext {
  readonly messages: readonly ChatMessage[];
  readonly streamingCallback: ((chunk: StreamingChunk) => unknown) | undefined;
}

/**
 * Asks `respond`, then the script, for this call's reply; streams it when asked to. Synchronous when
 * nothing waits (a synchronous `respond` or the script, no delay, no streaming): a test's or a
 * benchmark's model then adds no promise to the step.
 */
function scriptedReplies(
  turn: ScriptedTurn,
  context: RunContext<Params, ScriptState>,
): MaybePromise<ChatMessage[]> {
  const p = context.params;
  if (p.respond === undefined) return finishReply(undefined, turn, context);
  // The turn is the reply context too (one object per call, not two).
  const answered = p.respond(turn.messages, turn);
  if (isPromiseLike(answered))
    return Promise.resolve(answered).then((reply) => finishReply(reply, turn, context));
  return finishReply(answered, turn, context);
}

/** The reply (the script's next entry when `respond` gave none), after the delay and streamed if asked. */
function finishReply(
  answered: string | ScriptedReply | ChatMessage | undefined,
  turn: ScriptedTurn,
  context: RunContext<Params, ScriptState>,
): MaybePromise<ChatMessage[]> {
  const { params: p, resources: state } = context;
  const reply = answered ?? nextScripted(p, state, turn.call);
  const streams = turn.streamingCallback !== undefined || p.stream;
  if (p.delayMs === 0 && !streams) return [buildScriptedReply(reply, p.model, turn.call)];
  return delayedReply(reply, turn, context, streams);
}

async function delayedReply(
  reply: string | ScriptedReply | ChatMessage,
  turn: ScriptedTurn,
  context: RunContext<Params, ScriptState>,
  streams: boolean,
): Promise<ChatMessage[]> {
  const { params: p, signal } = context;
  if (p.delayMs > 0) await delay(p.delayMs, signal);
  const message = buildScriptedReply(reply, p.model, turn.call);
  if (streams) {
    const sinks: ((chunk: StreamingChunk) => unknown)[] = [];
    if (turn.streamingCallback !== undefined) sinks.push(turn.streamingCallback);
    sinks.push(context.emit);
    const componentInfo =
      context.componentName === undefined
        ? { type: "junction.ScriptedChatGenerator" }
        : { type: "junction.ScriptedChatGenerator", name: context.componentName };
    await streamScriptedReply(message, componentInfo, sinks, signal);
  }
  return [message];
}

function toOutputs(replies: ChatMessage[]): { replies: ChatMessage[] } {
  return { replies };
}

/** The component definition; exported as {@link ScriptedChatGenerator} with `reset()` added. */
const ScriptedChatGeneratorComponent = defineComponent({
  type: "junction.ScriptedChatGenerator",
  description: "Replays scripted model replies (for tests, demos and benchmarks).",
  params,
  inputs: { ...chatGeneratorInputs, ...responseFormatInputs },
  outputs: chatGeneratorOutputs,
  setup: (validated) => {
    const state: ScriptState = { position: 0, calls: 0, toolsInput: null, offered: [], fixed: false };
    scriptStates.set(validated, state);
    return state;
  },
  // Not async: a reply that needs no waiting is returned as it is (see scriptedReplies).
  run: ({ messages, tools, generation_kwargs, streaming_callback, response_format }, context) => {
    const { params: p, resources: state, signal } = context;
    signal?.throwIfAborted();
    const call = ++state.calls;
    // An agent offers the same list of tools every step: it is flattened (and checked) once. A Toolset
    // may change its tools, so a list holding one is flattened on every call.
    if (state.toolsInput !== tools || !state.fixed) {
      state.offered = tools === undefined ? [] : flattenTools(tools);
      state.toolsInput = tools;
      state.fixed = Array.isArray(tools) && !tools.some((item) => item instanceof Toolset);
    }
    const offered = state.offered;
    const turn: ScriptedTurn = {
      call,
      tools: offered,
      generationKwargs: generation_kwargs,
      responseFormat: response_format,
      signal,
      messages,
      streamingCallback: streaming_callback,
    };
    // Nobody records spans: the reply is made directly (no request record, no closure).
    if (context.tracer === noopTracer) {
      const replies = scriptedReplies(turn, context);
      return isPromiseLike(replies) ? replies.then(toOutputs) : { replies };
    }
    return traceChatCall(
      context,
      { model: p.model, provider: "scripted", messages, tools: offered, generationKwargs: generation_kwargs },
      async () => scriptedReplies(turn, context),
    ).then(toOutputs);
  },
  serializer: {
    toInitParameters: (value, context) => ({
      script: context.serializeValue(value.script, "script"),
      model: value.model,
      onScriptEnd: value.onScriptEnd,
      stream: value.stream,
      delayMs: value.delayMs,
      ...(value.respond === undefined ? {} : { respond: context.functionName(value.respond, "respond") }),
    }),
    fromInitParameters: (init, context) => {
      const { respond, ...rest } = init;
      if (respond === undefined || respond === null) return rest;
      return { ...rest, respond: context.resolveFunction(respond, "respond") };
    },
  },
});

Object.defineProperty(ScriptedChatGeneratorComponent.prototype, "reset", {
  value(this: { readonly params: object }): void {
    const state = scriptStates.get(this.params);
    if (state === undefined) return;
    state.position = 0;
    state.calls = 0;
  },
  writable: true,
  configurable: true,
});

/**
 * A deterministic chat generator for tests, offline demos and benchmarks. It replays `script` (texts,
 * tool calls, finish reasons, usage) one reply per call, or asks `respond` for a reply; streams the reply
 * as chunks (text deltas, tool call deltas, a final chunk with the finish reason) to `streaming_callback`
 * and `context.emit`; honours `signal`; and fails clearly when the script runs out. It declares the
 * `response_format` input (so agents treat it like a model that supports JSON-schema replies); a
 * `respond` function sees the requested format as `context.responseFormat`, the script ignores it.
 *
 * The script position lives in the instance and carries over from one run to the next (an agent that
 * makes two calls per run starts its second run at the third reply). Call `reset()` between runs to
 * replay the script from the start, or set `onScriptEnd: "loop"` when every run uses the whole script.
 *
 * @example
 * ```ts
 * const generator = new ScriptedChatGenerator({
 *   script: [
 *     { toolCalls: [{ toolName: "weather", arguments: { city: "Paris" } }] },
 *     "It is sunny in Paris.",
 *   ],
 * });
 * const { replies } = await generator.run({ messages: [ChatMessage.fromUser("Weather in Paris?")] });
 * ```
 */
export const ScriptedChatGenerator = ScriptedChatGeneratorComponent as (new (
  ...args: ConstructorParameters<typeof ScriptedChatGeneratorComponent>
) => ScriptedChatGenerator) &
  typeof ScriptedChatGeneratorComponent;

/** A `ScriptedChatGenerator` instance (the class doubles as the instance type: `function f(x: ScriptedChatGenerator)`). */
export type ScriptedChatGenerator = InstanceType<typeof ScriptedChatGeneratorComponent> & {
  /** Rewinds the script to its first reply (and the call count to 0), for a fresh run. */
  reset(): void;
};
