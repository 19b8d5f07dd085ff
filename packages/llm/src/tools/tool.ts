import {
  excerpt,
  findValueProblem,
  getDefaultLogger,
  type Issue,
  type Logger,
  type MaybePromise,
  noopTracer,
  quoteExcerpt,
  type Registry,
  type Span,
  type Tracer,
} from "@junction/core";
import type { z } from "zod";
import { formatIssues, problems } from "../format-issues.js";
import { checkValueLimits, isRecord } from "../messages/content-part-checks.js";
import type { ToolCall } from "../messages/content-parts.js";
import type { StreamingChunk } from "../streaming/streaming-chunk.js";
import type { JsonSchemaType } from "./json-schema-type.js";
import { decodeNamedValue } from "./named-type-codecs.js";
import {
  checkInputsFromState,
  checkOutputsToState,
  checkOutputsToString,
  type OutputsToString,
  type OutputToState,
  type StateMergeHandler,
} from "./tool-config.js";
import { ToolDefinitionError, ToolInvocationError } from "./tool-errors.js";
import {
  type JsonObjectSchema,
  type NormalizedParameters,
  normalizeParameters,
  parameterNames,
  withoutParameters,
} from "./tool-parameters.js";

/** The names providers accept for tools (OpenAI, Anthropic, Gemini): letters, digits, `_` and `-`, 1–64 long. */
export const toolNamePattern: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The live agent State, as a tool declared with `needsState: true` sees it. `@junction/agents`' `State`
 * satisfies this interface.
 */
export interface ToolState {
  /** The value of `key` (a copy). */
  get(key: string): unknown;
  /** Merges `value` into `key` with the key's handler (or `handlerOverride`). */
  set(key: string, value: unknown, handlerOverride?: StateMergeHandler): void;
  /** True when `key` has a value. */
  has(key: string): boolean;
}

/** What a tool's function receives besides its arguments. */
export interface ToolContext {
  /** Aborts the call; pass it on to every async operation. */
  readonly signal: AbortSignal | undefined;
  /** The live State; set only for tools declared with `needsState: true`. */
  readonly state: ToolState | undefined;
  /** The model's tool call, when the tool runs for one. */
  readonly toolCall: ToolCall | undefined;
  /** The run's tracer (`noopTracer` when nothing is traced). */
  readonly tracer: Tracer;
  /** The span of this call, to parent the spans the tool starts (a sub-agent's run, a pipeline's run). */
  readonly span: Span | undefined;
  /** Where the tool reports warnings. */
  readonly logger: Logger;
  /**
   * Streams a chunk to the calling agent's streaming callback (and its pipeline stream); does nothing
   * when nobody listens. `PipelineTool` and `AgentTool` forward their inner chunks here, tagged with the
   * tool call they belong to.
   */
  readonly emit: (chunk: StreamingChunk) => MaybePromise<void>;
  /** Adds token usage the tool spent (a sub-agent's model calls) to the calling agent's `token_usage`. */
  readonly reportUsage: (usage: Readonly<Record<string, unknown>>) => void;
  /** How deeply the calling run is nested in composite components and agent tools (0 at the top). */
  readonly depth: number;
  /**
   * On a durable run (`durability: "steps"`, or Restate), a key for this call that is unique in the run
   * and the same when the call runs again after a crash (`<run id>/<step name>`): pass it to the
   * service the tool calls so a side effect happens once. `undefined` on an in-process run.
   */
  readonly idempotencyKey: string | undefined;
}

/** What a `needsApproval` function receives besides the call's arguments. */
export interface ToolApprovalContext {
  /** The model's tool call. */
  readonly toolCall: ToolCall;
  /** The run's abort signal. */
  readonly signal: AbortSignal | undefined;
}

/**
 * Whether a call needs a person's approval before it runs: `true`, or a function of the call's arguments
 * (e.g. `({ amount }) => amount > 100`). An Agent stops its run at such a call (see `docs/interrupts.md`).
 */
export type NeedsApproval<TArgs = Record<string, unknown>> =
  | boolean
  // A method type, so the argument is checked bivariantly and any tool is a `Tool` (see ToolFunction).
  | { bivarianceHack(args: TArgs, context: ToolApprovalContext): MaybePromise<boolean> }["bivarianceHack"];

/** Options of {@link Tool.invoke}. */
export interface ToolInvokeOptions {
  /** Aborts the call. */
  readonly signal?: AbortSignal | undefined;
  /** The live State (required by tools declared with `needsState: true`). */
  readonly state?: ToolState | undefined;
  /** The model's tool call being answered. */
  readonly toolCall?: ToolCall | undefined;
  /** The tracer (default: none). */
  readonly tracer?: Tracer | undefined;
  /** The parent of the spans the tool starts. */
  readonly span?: Span | undefined;
  /** Where warnings go (default: the default logger). */
  readonly logger?: Logger | undefined;
  /** Receives the chunks the tool streams (default: dropped). */
  readonly emit?: ((chunk: StreamingChunk) => MaybePromise<void>) | undefined;
  /** Receives the token usage the tool reports (default: dropped). */
  readonly reportUsage?: ((usage: Readonly<Record<string, unknown>>) => void) | undefined;
  /** The calling run's nesting depth (default 0). */
  readonly depth?: number | undefined;
  /** The call's idempotency key on a durable run (see {@link ToolContext.idempotencyKey}). */
  readonly idempotencyKey?: string | undefined;
}

/** Options of {@link Tool.toDocument}. */
export interface ToolDocumentOptions {
  /** Where functions and component types are looked up. */
  readonly registry: Registry;
  /** Where the tool sits in the enclosing document, for error messages. */
  readonly path: readonly (string | number)[];
}

/**
 * A tool's function: sync or async, receiving the validated arguments and a {@link ToolContext}.
 *
 * Declared as a method type so that its argument is checked bivariantly: a `Tool<{ city: string }>`
 * is a `Tool` (`const tools: Tool[] = [weather, clock]` compiles). The arguments are validated against
 * the tool's own schema before the function runs, so a collection of tools never passes one tool's
 * arguments to another.
 */
export type ToolFunction<TArgs = Record<string, unknown>, TResult = unknown> = {
  bivarianceHack(args: TArgs, context: ToolContext): MaybePromise<TResult>;
}["bivarianceHack"];

/** What the {@link Tool} constructor and {@link tool} take. */
export interface ToolInit<TArgs = Record<string, unknown>, TResult = unknown> {
  /** The name the model calls the tool by; must match {@link toolNamePattern}. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The parameters: a JSON Schema object, or a zod object (converted with `z.toJSONSchema`). */
  readonly parameters: JsonObjectSchema | z.ZodObject;
  /** The implementation. */
  readonly function: ToolFunction<TArgs, TResult>;
  /** `{ stateKey: parameterName }`: fills a parameter from State when the model did not supply it. */
  readonly inputsFromState?: Readonly<Record<string, keyof TArgs & string>> | undefined;
  /** `{ stateKey: { source?, handler? } }`: merges (part of) an object result into State. */
  readonly outputsToState?: Readonly<Record<string, OutputToState>> | undefined;
  /** How the result becomes the tool message (see {@link toolResultToString}). */
  readonly outputsToString?: OutputsToString | undefined;
  /**
   * The function receives the live State as `context.state`. Such a tool may read and write any key,
   * so the agent runs it alone (a barrier in the tool schedule).
   */
  readonly needsState?: boolean | undefined;
  /**
   * The call must be approved by a person before it runs: `true`, or a function of the arguments. An
   * Agent then stops the run with a `RunInterruptedError` and continues on `resume` with the decision.
   */
  readonly needsApproval?: NeedsApproval<TArgs> | undefined;
}

/** Options for subclasses of {@link Tool}. */
export interface ToolSubclassOptions {
  /** The result keys `outputsToState` sources may name (checked when given). */
  readonly validOutputs?: readonly string[] | undefined;
  /** Descriptions for zod parameters that have none (shown to the model). */
  readonly defaultDescriptions?: Readonly<Record<string, string>> | undefined;
}

/** The tool description a chat generator sends to the model. */
export interface ToolSpec {
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The parameters the model fills (without those filled from State). */
  readonly parameters: JsonObjectSchema;
}

/** A tool of any argument and result type. */
export type AnyTool = Tool<any, any>;

/**
 * A function the model can call: name, description, parameters schema and implementation, plus how
 * it exchanges values with the agent's State and how its result is shown to the model.
 *
 * Arguments are validated against the parameters schema before the function runs; invalid arguments
 * raise a {@link ToolInvocationError} listing every problem (agents send it back to the model).
 *
 * @example
 * ```ts
 * const weather = new Tool({
 *   name: "weather",
 *   description: "Current weather for a city",
 *   parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
 *   function: ({ city }) => `Sunny in ${String(city)}`,
 * });
 * await weather.invoke({ city: "Paris" }); // "Sunny in Paris"
 * ```
 */
export class Tool<TArgs = Record<string, unknown>, TResult = unknown> {
  /** The name the model calls the tool by. */
  readonly name: string;
  /** What the tool does. */
  readonly description: string;
  /** The full parameters JSON Schema (including parameters filled from State). */
  readonly parameters: JsonObjectSchema;
  /** The implementation. */
  readonly function: ToolFunction<TArgs, TResult>;
  /** `{ stateKey: parameterName }`. */
  readonly inputsFromState: Readonly<Record<string, string>> | undefined;
  /** `{ stateKey: { source?, handler? } }`. */
  readonly outputsToState: Readonly<Record<string, OutputToState>> | undefined;
  /** How the result becomes the tool message. */
  readonly outputsToString: OutputsToString | undefined;
  /** Whether the function receives the live State. */
  readonly needsState: boolean;
  /** Whether (or when) a call needs a person's approval; `false` when not declared. */
  readonly needsApproval: NeedsApproval<TArgs>;
  /** What a chat generator sends to the model. */
  readonly spec: ToolSpec;
  /** The zod schema of `parameters` when it was given as zod, for serialization and inspection. */
  readonly zodParameters: z.ZodObject | undefined;
  readonly #normalized: NormalizedParameters;

  /**
   * @param init - name, description, parameters, function and state/string mappings
   * @param options - for subclasses: the valid `outputsToState` sources
   * @throws ToolDefinitionError listing every problem
   */
  constructor(init: ToolInit<TArgs, TResult>, options: ToolSubclassOptions = {}) {
    const issues: Issue[] = [];
    if (!isRecord(init))
      throw new ToolDefinitionError(
        "new Tool: expected an object { name, description, parameters, function }.",
      );
    const name = init.name;
    if (typeof name !== "string" || !toolNamePattern.test(name))
      issues.push({
        path: ["name"],
        message: `${quoteExcerpt(name)} is not a valid tool name: use 1 to 64 letters, digits, "_" or "-" (what model providers accept).`,
      });
    if (typeof init.description !== "string")
      issues.push({ path: ["description"], message: "must be a string." });
    if (typeof init.function !== "function")
      issues.push({ path: ["function"], message: "must be a function (sync or async)." });
    const fromState = isRecord(init.inputsFromState)
      ? (Object.values(init.inputsFromState) as unknown[]).filter(
          (value): value is string => typeof value === "string",
        )
      : [];
    const normalized = normalizeParameters(init.parameters, issues, {
      fromState,
      defaultDescriptions: options.defaultDescriptions,
    });
    if (init.inputsFromState !== undefined && normalized !== undefined)
      checkInputsFromState(init.inputsFromState, parameterNames(normalized.jsonSchema), issues);
    if (init.outputsToState !== undefined)
      checkOutputsToState(String(name), init.outputsToState, options.validOutputs, issues);
    if (init.outputsToString !== undefined) checkOutputsToString(init.outputsToString, issues);
    if (init.needsState !== undefined && typeof init.needsState !== "boolean")
      issues.push({ path: ["needsState"], message: "must be a boolean." });
    if (
      init.needsApproval !== undefined &&
      typeof init.needsApproval !== "boolean" &&
      typeof init.needsApproval !== "function"
    )
      issues.push({
        path: ["needsApproval"],
        message: "must be a boolean or a function (args, context) => boolean | Promise<boolean>.",
      });
    if (issues.length > 0 || normalized === undefined) {
      throw new ToolDefinitionError(
        `new Tool(${quoteExcerpt(name)}): invalid tool (${problems(issues)}):\n${formatIssues(issues)}`,
        { issues },
      );
    }
    this.name = name;
    this.description = init.description;
    this.function = init.function;
    this.#normalized = normalized;
    this.parameters = normalized.jsonSchema;
    this.zodParameters = normalized.zodShape === undefined ? undefined : (init.parameters as z.ZodObject);
    this.inputsFromState =
      init.inputsFromState === undefined ? undefined : Object.freeze({ ...init.inputsFromState });
    this.outputsToState =
      init.outputsToState === undefined ? undefined : Object.freeze({ ...init.outputsToState });
    this.outputsToString = init.outputsToString;
    this.needsState = init.needsState ?? false;
    this.needsApproval = init.needsApproval ?? false;
    const hidden = Object.values(this.inputsFromState ?? {});
    this.spec = Object.freeze({
      name,
      description: init.description,
      parameters: withoutParameters(normalized.jsonSchema, hidden),
    });
  }

  /**
   * Checks arguments against the parameters schema (turning JSON chat messages into `ChatMessage`s
   * where the schema expects them).
   *
   * @param args - the arguments, e.g. from a model's tool call
   * @returns the parsed arguments (defaults filled) or every problem found
   */
  validateArguments(args: unknown): { success: true; data: TArgs } | { success: false; issues: Issue[] } {
    if (!isRecord(args))
      return { success: false, issues: [{ path: [], message: "arguments must be an object." }] };
    // Before any walker sees them: a model (or a hostile server) may send arguments nested 100,000 deep.
    // Frozen arguments come from a ChatMessage, whose factories checked them already (once per call,
    // not twice per agent step); anything else is measured here.
    if (!Object.isFrozen(args) && findValueProblem(args) !== undefined) {
      const limitIssues: Issue[] = [];
      checkValueLimits(args, [], limitIssues, "the arguments object");
      return { success: false, issues: limitIssues };
    }
    let prepared: Record<string, unknown> = args;
    const shape = this.#normalized.zodShape;
    if (shape !== undefined) {
      let issues: Issue[] | undefined;
      // Copied only when a value is decoded (a named type's JSON): plain parameters cost no copy.
      let copied: Record<string, unknown> | undefined;
      for (const key in args) {
        if (!Object.hasOwn(args, key)) continue;
        const schema = shape[key];
        if (schema === undefined) continue;
        const value = args[key];
        try {
          const decoded = decodeNamedValue(schema, value);
          if (decoded !== value) {
            copied ??= { ...args };
            copied[key] = decoded;
          }
        } catch (error) {
          issues ??= [];
          issues.push({ path: [key], message: (error as Error).message });
        }
      }
      if (issues !== undefined) return { success: false, issues };
      if (copied !== undefined) prepared = copied;
    }
    let parsed: ReturnType<z.ZodType["safeParse"]>;
    try {
      parsed = this.#normalized.validator.safeParse(prepared);
    } catch (error) {
      // A recursive parameters schema (z.lazy) can still run out of stack on a cyclic value.
      if (!(error instanceof RangeError)) throw error;
      const message = `validation ran out of stack (${error.message}): the arguments are cyclic or nest too deeply for this recursive parameters schema. Send smaller arguments.`;
      return { success: false, issues: [{ path: [], message }] };
    }
    if (parsed.success) return { success: true, data: parsed.data as TArgs };
    return {
      success: false,
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
        message: issue.message,
      })),
    };
  }

  /**
   * Validates the arguments and runs the function.
   *
   * @param args - the arguments (from the model, after State injection)
   * @param options - `signal`, the live `state` (for `needsState` tools) and the `toolCall` answered
   * @throws ToolInvocationError for invalid arguments or when the function throws; the signal's reason when aborted
   */
  async invoke(args: Readonly<Record<string, unknown>>, options: ToolInvokeOptions = {}): Promise<TResult> {
    const result = callTool(this, args, {
      signal: options.signal,
      state: this.needsState ? options.state : undefined,
      toolCall: options.toolCall,
      tracer: options.tracer ?? noopTracer,
      span: options.span,
      logger: options.logger ?? getDefaultLogger(),
      emit: options.emit ?? ignore,
      reportUsage: options.reportUsage ?? ignore,
      depth: options.depth ?? 0,
      idempotencyKey: options.idempotencyKey,
    });
    try {
      return await result;
    } catch (error) {
      throw toolCallError(this, args, error, options.signal);
    }
  }

  /** Prepares expensive resources before the first call; idempotent. A no-op for plain tools. */
  warmUp(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * How a tool class defined outside `@junction/llm` writes itself into a saved pipeline: `{ type, data }`
   * with JSON `data`, read back by the function registered under `type` in the registry
   * (`registry.registerFunction(type, (data, { registry, path }) => tool)`); `AgentTool` does this.
   * Plain tools return `undefined` and are written as `junction.Tool`.
   *
   * @param _options - the registry and the tool's path, for nested components and functions
   * @throws SerializationError listing what cannot be written
   */
  toDocument(
    _options: ToolDocumentOptions,
  ): { readonly type: string; readonly data: Record<string, unknown> } | undefined {
    return undefined;
  }
}

function ignore(): void {}

/**
 * Validates the arguments and runs the function, as {@link Tool.invoke} does, but takes the function's
 * complete {@link ToolContext} and hands back the function's result as it comes: the value of a
 * synchronous function, or the async function's own promise — no promise is made around it, which is a
 * measurable share of an agent step. Invalid arguments and a synchronous failure throw a
 * {@link ToolInvocationError}; a rejection of the returned promise is the function's own error: pass it
 * through {@link toolCallError} to get what `invoke` would reject with. For loops that call tools many
 * times (the Agent); everyone else calls `tool.invoke`.
 *
 * @param tool - the tool
 * @param args - the arguments (from the model, after State injection)
 * @param context - what the function receives (`state` set for `needsState` tools)
 * @throws ToolInvocationError for invalid arguments or a synchronous failure
 */
export function callTool<TArgs, TResult>(
  tool: Tool<TArgs, TResult>,
  args: Readonly<Record<string, unknown>>,
  context: ToolContext,
): MaybePromise<TResult> {
  const signal = context.signal;
  signal?.throwIfAborted();
  const validated = tool.validateArguments(args);
  if (!validated.success) {
    throw new ToolInvocationError(
      `Tool "${excerpt(tool.name)}": invalid arguments (${problems(validated.issues)}):\n${formatIssues(validated.issues)}\nCall the tool again with arguments that match its parameters schema.`,
      { toolName: tool.name, arguments: args, issues: validated.issues },
    );
  }
  if (tool.needsState && context.state === undefined) {
    throw new ToolInvocationError(
      `Tool "${excerpt(tool.name)}" is declared with needsState: true but was invoked without a State. Pass { state } to invoke, or run it through an Agent.`,
      { toolName: tool.name, arguments: args },
    );
  }
  let result: MaybePromise<TResult>;
  try {
    result = tool.function(validated.data, context);
  } catch (error) {
    throw toolCallError(tool, args, error, signal);
  }
  return result;
}

/**
 * What a failed tool call is reported as (what {@link Tool.invoke} rejects with): the signal's reason
 * when the call was aborted, the error itself when it is a {@link ToolInvocationError}, otherwise a
 * `ToolInvocationError` naming the tool and its arguments with the error as its cause.
 *
 * @param tool - the tool that failed
 * @param args - the arguments it was called with
 * @param error - what its function threw or rejected with
 * @param signal - the call's abort signal
 */
export function toolCallError(
  tool: { readonly name: string },
  args: Readonly<Record<string, unknown>>,
  error: unknown,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof ToolInvocationError) return error;
  return new ToolInvocationError(
    `Tool "${excerpt(tool.name)}" failed with arguments ${safeJson(args)}. Error: ${error instanceof Error ? error.message : String(error)}`,
    { toolName: tool.name, arguments: args, cause: error },
  );
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Declares a tool; with a zod `parameters` schema, the function's argument type is inferred from it
 * (defaults applied, so defaulted fields are not optional inside the function).
 *
 * @param init - name, description, parameters, function and state/string mappings
 * @example
 * ```ts
 * const add = tool({
 *   name: "add",
 *   description: "Adds two numbers",
 *   parameters: z.object({ a: z.number(), b: z.number().default(1) }),
 *   function: ({ a, b }) => a + b,
 * });
 * ```
 */
export function tool<TSchema extends z.ZodObject, TResult>(
  init: ToolInit<z.output<TSchema>, TResult> & { readonly parameters: TSchema },
): Tool<z.output<TSchema>, TResult>;
/**
 * Declares a tool with a JSON Schema `parameters` object. A literal schema (inline, or a constant
 * written `as const`) types the arguments (`{ city: string; days?: number }`); a schema built at run
 * time gives `Record<string, unknown>`.
 */
export function tool<const TSchema extends JsonObjectSchema, TResult>(
  init: ToolInit<JsonSchemaType<TSchema>, TResult> & { readonly parameters: TSchema },
): Tool<JsonSchemaType<TSchema>, TResult>;
export function tool(init: ToolInit<any, any>): AnyTool {
  return new Tool(init);
}

/** True when `value` is a {@link Tool} (or subclass) instance. */
export function isTool(value: unknown): value is AnyTool {
  return value instanceof Tool;
}
