import { DeserializationError, defineNamedType, type Issue, type MaybePromise } from "@junction/core";
import { z } from "zod";
import { MessageFormatError } from "../errors.js";
import { formatIssues, problems } from "../format-issues.js";
import { checkReasoning, checkToolCallResult, isRecord } from "../messages/content-part-checks.js";
import {
  partFromJSON,
  type ToolCallResultJSON,
  toolCallResultToJSON,
} from "../messages/content-part-json.js";
import type { ReasoningContent, ToolCallResult } from "../messages/content-parts.js";
import { type FinishReason, finishReasons } from "../messages/finish-reason.js";

/** A piece of a tool call being streamed: the name arrives first, the JSON arguments in fragments. */
export interface ToolCallDelta {
  /** Which tool call of the reply this delta belongs to. */
  readonly index: number;
  /** The tool's name (usually only on the first delta). */
  readonly toolName?: string | undefined;
  /** A fragment of the arguments' JSON text (or the whole of it). */
  readonly arguments?: string | undefined;
  /** The provider's call id. */
  readonly id?: string | undefined;
  /** Provider-specific data. */
  readonly extra?: Readonly<Record<string, unknown>> | undefined;
}

/** The component a chunk came from. */
export interface ComponentInfo {
  /** The component's registered type, e.g. `"junction.ScriptedChatGenerator"`. */
  readonly type: string;
  /** Its name in the pipeline, when it runs in one. */
  readonly name?: string | undefined;
}

/** What the {@link StreamingChunk} constructor takes. */
export interface StreamingChunkInit {
  /** Text delta (`""` when the chunk carries something else). */
  readonly content?: string | undefined;
  /** Metadata (model, usage on the last chunk, ...). */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
  /** Which component produced it. */
  readonly componentInfo?: ComponentInfo | undefined;
  /** Which content block of the reply this chunk belongs to. */
  readonly index?: number | undefined;
  /** Tool call deltas. */
  readonly toolCalls?: readonly ToolCallDelta[] | undefined;
  /** A finished tool call's result (emitted by agents). */
  readonly toolCallResult?: ToolCallResult | undefined;
  /** True on the first chunk of a content block. */
  readonly start?: boolean | undefined;
  /** Set on the last chunk. */
  readonly finishReason?: FinishReason | undefined;
  /** A reasoning delta. */
  readonly reasoning?: ReasoningContent | string | undefined;
}

/** The serialized form of a {@link StreamingChunk} (snake_case, as in the reference). */
export interface StreamingChunkJSON {
  /** Text delta. */
  readonly content: string;
  /** Metadata. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** `{ type, name }` or `null`. */
  readonly component_info: { readonly type: string; readonly name: string | null } | null;
  /** Content block index or `null`. */
  readonly index: number | null;
  /** Tool call deltas or `null`. */
  readonly tool_calls:
    | readonly {
        readonly index: number;
        readonly tool_name: string | null;
        readonly arguments: string | null;
        readonly id: string | null;
        readonly extra: Readonly<Record<string, unknown>> | null;
      }[]
    | null;
  /** Tool call result or `null`. */
  readonly tool_call_result: ToolCallResultJSON | null;
  /** Start-of-block flag. */
  readonly start: boolean;
  /** Finish reason or `null`. */
  readonly finish_reason: FinishReason | null;
  /** Reasoning or `null`. */
  readonly reasoning: {
    readonly reasoning_text: string;
    readonly extra: Readonly<Record<string, unknown>>;
  } | null;
}

/**
 * A callback that receives streaming chunks as a model produces them; it may be sync or async
 * (generators await it before emitting the next chunk).
 */
export type StreamingCallback = (chunk: StreamingChunk) => MaybePromise<void>;

function checkDelta(
  value: unknown,
  path: readonly (string | number)[],
  issues: Issue[],
): ToolCallDelta | undefined {
  if (!isRecord(value) || !Number.isInteger(value.index)) {
    issues.push({ path, message: "a tool call delta must be an object with an integer `index`." });
    return undefined;
  }
  const before = issues.length;
  for (const key of ["toolName", "arguments", "id"] as const)
    if (value[key] !== undefined && typeof value[key] !== "string")
      issues.push({ path: [...path, key], message: "must be a string when given." });
  if (value.extra !== undefined && !isRecord(value.extra))
    issues.push({ path: [...path, "extra"], message: "must be an object when given." });
  if (issues.length > before) return undefined;
  return Object.freeze({ ...(value as unknown as ToolCallDelta) });
}

/**
 * One piece of a streamed model reply: a text delta, tool call deltas, a tool result, or reasoning —
 * at most one of those per chunk (the reference's rule), and `index` is required for all but text.
 *
 * @example
 * ```ts
 * const callback: StreamingCallback = (chunk) => { process.stdout.write(chunk.content); };
 * new StreamingChunk({ content: "Hel" });
 * new StreamingChunk({ index: 0, toolCalls: [{ index: 0, toolName: "search", arguments: '{"q":' }] });
 * ```
 */
export class StreamingChunk {
  /** Text delta; `""` when the chunk carries something else. */
  readonly content: string;
  /** Metadata. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** Which component produced the chunk. */
  readonly componentInfo: ComponentInfo | undefined;
  /** Which content block of the reply the chunk belongs to. */
  readonly index: number | undefined;
  /** Tool call deltas. */
  readonly toolCalls: readonly ToolCallDelta[] | undefined;
  /** A finished tool call's result. */
  readonly toolCallResult: ToolCallResult | undefined;
  /** True on the first chunk of a content block. */
  readonly start: boolean;
  /** Set on the last chunk of a reply. */
  readonly finishReason: FinishReason | undefined;
  /** A reasoning delta. */
  readonly reasoning: ReasoningContent | undefined;

  /**
   * @param init - the chunk's fields
   * @throws MessageFormatError when more than one of content / toolCalls / toolCallResult / reasoning is
   *   set, or `index` is missing for a non-text chunk
   */
  constructor(init: StreamingChunkInit = {}) {
    const issues: Issue[] = [];
    const content = init.content ?? "";
    if (typeof content !== "string") issues.push({ path: ["content"], message: "must be a string." });
    const toolCalls =
      init.toolCalls === undefined || init.toolCalls.length === 0
        ? undefined
        : init.toolCalls.map((delta, index) => checkDelta(delta, ["toolCalls", index], issues));
    const toolCallResult =
      init.toolCallResult === undefined
        ? undefined
        : checkToolCallResult(init.toolCallResult, ["toolCallResult"], issues);
    const reasoning =
      init.reasoning === undefined ? undefined : checkReasoning(init.reasoning, ["reasoning"], issues);
    const set = [
      content !== "",
      toolCalls !== undefined,
      init.toolCallResult !== undefined,
      init.reasoning !== undefined,
    ];
    if (set.filter(Boolean).length > 1)
      issues.push({
        path: [],
        message:
          "only one of `content`, `toolCalls`, `toolCallResult` or `reasoning` may be set in a StreamingChunk; emit separate chunks.",
      });
    else if (!set[0] && set.some(Boolean) && init.index === undefined)
      issues.push({
        path: ["index"],
        message: "`index` is required when `toolCalls`, `toolCallResult` or `reasoning` is set.",
      });
    if (init.index !== undefined && !Number.isInteger(init.index))
      issues.push({ path: ["index"], message: "must be an integer." });
    if (init.finishReason !== undefined && !finishReasons.includes(init.finishReason))
      issues.push({
        path: ["finishReason"],
        message: `must be one of ${finishReasons.map((r) => `"${r}"`).join(", ")}.`,
      });
    if (
      init.componentInfo !== undefined &&
      (!isRecord(init.componentInfo) || typeof init.componentInfo.type !== "string")
    )
      issues.push({ path: ["componentInfo"], message: "must be { type, name? }." });
    if (issues.length > 0)
      throw new MessageFormatError(
        `new StreamingChunk: invalid chunk (${problems(issues)}):\n${formatIssues(issues)}`,
        { issues },
      );
    this.content = content;
    this.meta = init.meta === undefined ? emptyMeta : Object.freeze({ ...init.meta });
    this.componentInfo =
      init.componentInfo === undefined ? undefined : Object.freeze({ ...init.componentInfo });
    this.index = init.index;
    this.toolCalls = toolCalls === undefined ? undefined : Object.freeze(toolCalls as ToolCallDelta[]);
    this.toolCallResult = toolCallResult;
    this.start = init.start ?? false;
    this.finishReason = init.finishReason;
    this.reasoning = reasoning;
    Object.freeze(this);
  }

  /** The serialized form (the reference's field names). */
  toJSON(): StreamingChunkJSON {
    return {
      content: this.content,
      meta: this.meta,
      component_info:
        this.componentInfo === undefined
          ? null
          : { type: this.componentInfo.type, name: this.componentInfo.name ?? null },
      index: this.index ?? null,
      tool_calls:
        this.toolCalls?.map((delta) => ({
          index: delta.index,
          tool_name: delta.toolName ?? null,
          arguments: delta.arguments ?? null,
          id: delta.id ?? null,
          extra: delta.extra ?? null,
        })) ?? null,
      tool_call_result: this.toolCallResult === undefined ? null : toolCallResultToJSON(this.toolCallResult),
      start: this.start,
      finish_reason: this.finishReason ?? null,
      reasoning:
        this.reasoning === undefined
          ? null
          : { reasoning_text: this.reasoning.reasoningText, extra: this.reasoning.extra },
    };
  }

  /**
   * Reads a serialized chunk.
   *
   * @param value - the serialized chunk (`content` is required)
   * @throws DeserializationError when the shape is wrong; MessageFormatError when the chunk breaks the rules
   */
  static fromJSON(value: unknown): StreamingChunk {
    if (!isRecord(value) || typeof value.content !== "string") {
      throw new DeserializationError("StreamingChunk.fromJSON: the field 'content' (a string) is required.");
    }
    const issues: Issue[] = [];
    const info = value.component_info;
    const toolCallResult = isRecord(value.tool_call_result)
      ? partFromJSON({ tool_call_result: value.tool_call_result }, ["tool_call_result"], issues)
      : undefined;
    const reasoning = isRecord(value.reasoning)
      ? partFromJSON({ reasoning: value.reasoning }, ["reasoning"], issues)
      : undefined;
    if (issues.length > 0)
      throw new DeserializationError(
        `StreamingChunk.fromJSON: invalid chunk (${problems(issues)}):\n${formatIssues(issues)}`,
        { issues },
      );
    const toolCalls = Array.isArray(value.tool_calls)
      ? value.tool_calls.map((delta: unknown) => {
          const raw = isRecord(delta) ? delta : {};
          return {
            index: raw.index as number,
            ...(typeof raw.tool_name === "string" ? { toolName: raw.tool_name } : {}),
            ...(typeof raw.arguments === "string" ? { arguments: raw.arguments } : {}),
            ...(typeof raw.id === "string" ? { id: raw.id } : {}),
            ...(isRecord(raw.extra) ? { extra: raw.extra } : {}),
          };
        })
      : undefined;
    return new StreamingChunk({
      content: value.content,
      meta: isRecord(value.meta) ? value.meta : undefined,
      componentInfo: isRecord(info)
        ? { type: info.type as string, ...(typeof info.name === "string" ? { name: info.name } : {}) }
        : undefined,
      index: typeof value.index === "number" ? value.index : undefined,
      toolCalls,
      toolCallResult: toolCallResult?.type === "tool_call_result" ? toolCallResult.toolCallResult : undefined,
      start: value.start === true,
      finishReason:
        typeof value.finish_reason === "string" ? (value.finish_reason as FinishReason) : undefined,
      reasoning: reasoning?.type === "reasoning" ? reasoning.reasoning : undefined,
    });
  }
}

const emptyMeta: Readonly<Record<string, unknown>> = Object.freeze({});

/** The named socket type `"StreamingChunk"` (for sockets and events that carry chunks). */
export const streamingChunkSchema = defineNamedType("StreamingChunk", z.instanceof(StreamingChunk), {
  fromJSON: (value) => (value instanceof StreamingChunk ? value : StreamingChunk.fromJSON(value)),
});

/**
 * Picks the callback to stream with: the one given at run time wins over the one given at construction.
 *
 * @param initCallback - the component's configured callback
 * @param runtimeCallback - the callback passed to this run
 */
export function selectStreamingCallback(
  initCallback: StreamingCallback | undefined,
  runtimeCallback: StreamingCallback | undefined,
): StreamingCallback | undefined {
  return runtimeCallback ?? initCallback;
}

/**
 * Calls a streaming callback and awaits it when it returns a promise (sync and async callbacks alike).
 *
 * @param callback - the callback
 * @param chunk - the chunk to deliver
 */
export async function invokeStreamingCallback(
  callback: StreamingCallback,
  chunk: StreamingChunk,
): Promise<void> {
  const result = callback(chunk);
  if (result instanceof Promise) await result;
}

/**
 * True when `value` is a {@link StreamingChunk}: narrows the `unknown` chunk of a pipeline's `chunk`
 * event (core knows no LLM types) without a cast.
 *
 * @param value - anything, typically `event.chunk`
 * @example
 * ```ts
 * for await (const event of pipeline.stream(inputs)) {
 *   if (event.type === "chunk" && isStreamingChunk(event.chunk)) process.stdout.write(event.chunk.content);
 * }
 * ```
 */
export function isStreamingChunk(value: unknown): value is StreamingChunk {
  return value instanceof StreamingChunk;
}
