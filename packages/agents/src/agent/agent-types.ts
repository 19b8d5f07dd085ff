import type { Component, ComponentDefinition } from "@junction/core";
import type { z } from "zod";
import type { outputIssuesSchema } from "../output/output-schema.js";
import type { InferOutputSchema } from "../output/output-types.js";
import type { StateSchema } from "../state/state-schema.js";
import type { AgentParams, AgentSetup, agentParamsSchema } from "./agent-config.js";
import type { agentMetadataOutputs, agentRunInputs } from "./agent-sockets.js";
import type { conversationInputs } from "./conversation.js";

/**
 * Type-level machinery of the Agent: its input and output sockets, its result and its exit reasons,
 * inferred from the options passed to `new Agent(...)`.
 *
 * Inference reads the options object (kept literal by a `const` type parameter):
 * - `stateSchema` keys become optional inputs and optional outputs with their zod types;
 * - `{{ variable }}` placeholders of a literal `systemPrompt` / `userPrompt` become mandatory inputs;
 * - `exitConditions` names join `exit_reason`, and so does `string` when `hooks` are given (a hook may
 *   stop the run with any reason).
 *
 * Options that add outputs or exit reasons (for example `outputSchema` → `structured_output`) extend
 * {@link AgentOptionOutputSpecs} and {@link AgentOptionExitReasons}: the one place for option-derived
 * sockets (and {@link AgentAlwaysPresentOptionOutputs} for those every run reports).
 */

type AgentParamsInput = z.input<typeof agentParamsSchema>;
type ReadonlyArrays<T> = T extends readonly (infer TElement)[] ? readonly TElement[] : T;

/** What `new Agent(...)` accepts: the Agent's options (lists may be read-only). */
export type AgentOptions = { readonly [K in keyof AgentParamsInput]: ReadonlyArrays<AgentParamsInput[K]> };

/** Rejects option names the Agent does not know (a misspelled option is a compile error). */
export type KnownAgentOptions<TOptions> = {
  readonly [K in Exclude<keyof TOptions, keyof AgentOptions>]: never;
};

/** The exit reasons every Agent may end with. */
export type BuiltInExitReason = "text" | "max_agent_steps" | "length" | "content_filter";

/** The State schema given in the options (`{}` when none). */
export type AgentStateSchemaOf<TOptions> = TOptions extends { readonly stateSchema?: infer TSchema }
  ? unknown extends TSchema
    ? {}
    : NonNullable<TSchema> extends StateSchema
      ? NonNullable<TSchema>
      : {}
  : {};

/** The user's State keys (each one an optional input and an optional output). */
export type AgentStateKeys<TOptions> = Exclude<keyof AgentStateSchemaOf<TOptions> & string, "messages">;

type ExitConditionsOf<TOptions> = TOptions extends { readonly exitConditions?: infer TExit }
  ? NonNullable<TExit> extends readonly (infer TName extends string)[]
    ? TName
    : never
  : never;

type HookStopReason<TOptions> = TOptions extends { readonly hooks?: infer THooks }
  ? unknown extends THooks
    ? never
    : [NonNullable<THooks>] extends [never]
      ? never
      : string & {}
  : never;

/** The `outputSchema` given in the options (`never` when none). */
export type AgentOutputSchemaOf<TOptions> = TOptions extends { readonly outputSchema?: infer TSchema }
  ? unknown extends TSchema
    ? never
    : Exclude<TSchema, undefined>
  : never;

/** The type of `structured_output` for these options (`never` without an `outputSchema`). */
export type AgentStructuredOutput<TOptions> = [AgentOutputSchemaOf<TOptions>] extends [never]
  ? never
  : InferOutputSchema<AgentOutputSchemaOf<TOptions>>;

/**
 * Exit reasons added by options beyond `exitConditions` and `hooks`: `"invalid_output"` with an
 * `outputSchema`. Extend this type when an option makes the Agent end with a new reason.
 */
export type AgentOptionExitReasons<TOptions> = [AgentOutputSchemaOf<TOptions>] extends [never]
  ? never
  : "invalid_output";

/**
 * The `exit_reason` an Agent built with these options can report: the built-in reasons, the names in
 * `exitConditions`, and any `string` when hooks may stop the run.
 */
export type AgentExitReason<TOptions = AgentOptions> =
  | BuiltInExitReason
  | ExitConditionsOf<TOptions>
  | HookStopReason<TOptions>
  | AgentOptionExitReasons<TOptions>;

type Whitespace = " " | "\n" | "\t" | "\r";
type Trim<S extends string> = S extends `${Whitespace}${infer R}`
  ? Trim<R>
  : S extends `${infer R}${Whitespace}`
    ? Trim<R>
    : S;
type RootName<S extends string> = S extends `${infer Head}.${string}` ? Head : S;

/** The variable names of a prompt template's `{{ placeholders }}` (`string` for a non-literal template). */
export type TemplateVariables<S extends string> = string extends S
  ? string
  : S extends `${string}{{${infer Body}}}${infer Rest}`
    ? RootName<Trim<Body>> | TemplateVariables<Rest>
    : never;

type PromptOf<TOptions, K extends "systemPrompt" | "userPrompt"> = TOptions extends {
  readonly [P in K]?: infer S;
}
  ? Extract<S, string>
  : never;

/** The template variables of the options' `systemPrompt` and `userPrompt` (each one a mandatory input). */
export type AgentTemplateVariables<TOptions> =
  | TemplateVariables<PromptOf<TOptions, "systemPrompt">>
  | TemplateVariables<PromptOf<TOptions, "userPrompt">>;

type KeyedSpecs<TKeys extends string, TSpec> = string extends TKeys
  ? { readonly [key: string]: z.ZodType }
  : { readonly [K in TKeys]: TSpec };

type StateKeyType<TOptions, K> = K extends keyof AgentStateSchemaOf<TOptions>
  ? AgentStateSchemaOf<TOptions>[K] extends { readonly type: infer TType extends z.ZodType }
    ? TType
    : z.ZodType
  : z.ZodType;

/** Input sockets added by options: with a `conversation`, the optional `conversation_id`. */
export type AgentOptionInputSpecs<TOptions> = TOptions extends { readonly conversation?: infer TConversation }
  ? unknown extends TConversation
    ? {}
    : [NonNullable<TConversation>] extends [never]
      ? {}
      : typeof conversationInputs
  : {};

/** The Agent's input sockets for these options: run inputs, State keys (optional), template variables. */
export type AgentInputSpecsOf<TOptions> = typeof agentRunInputs &
  AgentOptionInputSpecs<TOptions> &
  (string extends AgentStateKeys<TOptions>
    ? { readonly [key: string]: z.ZodType }
    : { readonly [K in AgentStateKeys<TOptions>]: z.ZodOptional<StateKeyType<TOptions, K>> }) &
  KeyedSpecs<AgentTemplateVariables<TOptions>, z.ZodUnknown>;

/**
 * Output sockets added by options beyond the State keys: with an `outputSchema`, `structured_output`
 * (typed from the schema) and `output_issues`. Extend this type when an option adds an output socket:
 * it then appears in the Agent's result as an optional key, or as a required one when also named in
 * {@link AgentAlwaysPresentOptionOutputs}.
 */
export type AgentOptionOutputSpecs<TOptions> = [AgentOutputSchemaOf<TOptions>] extends [never]
  ? {}
  : {
      readonly structured_output: z.ZodType<AgentStructuredOutput<TOptions>>;
      readonly output_issues: typeof outputIssuesSchema;
    };

/**
 * Option-derived outputs that every run reports (required in the result); the other option-derived
 * outputs are optional. Extend together with {@link AgentOptionOutputSpecs}.
 */
export type AgentAlwaysPresentOptionOutputs<_TOptions> = never;

/** The Agent's output sockets for these options: run metadata, State keys, option-derived outputs. */
export type AgentOutputSpecsOf<TOptions> = Omit<typeof agentMetadataOutputs, "exit_reason"> & {
  readonly exit_reason: z.ZodType<AgentExitReason<TOptions>>;
} & (string extends AgentStateKeys<TOptions>
    ? { readonly [key: string]: z.ZodType }
    : { readonly [K in AgentStateKeys<TOptions>]: StateKeyType<TOptions, K> }) &
  AgentOptionOutputSpecs<TOptions>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Output<TSpecs, K extends keyof TSpecs> = TSpecs[K] extends z.ZodType ? z.output<TSpecs[K]> : never;
type Metadata = typeof agentMetadataOutputs;

type StateResult<TOptions> =
  string extends AgentStateKeys<TOptions>
    ? { readonly [key: string]: unknown }
    : { [K in AgentStateKeys<TOptions>]?: z.output<StateKeyType<TOptions, K>> };

type OptionResult<TOptions, TSpecs = AgentOptionOutputSpecs<TOptions>> = {
  [K in keyof TSpecs as K extends AgentAlwaysPresentOptionOutputs<TOptions> ? K : never]: Output<TSpecs, K>;
} & {
  [K in keyof TSpecs as K extends AgentAlwaysPresentOptionOutputs<TOptions> ? never : K]?: Output<TSpecs, K>;
};

/**
 * What a run of an Agent built with these options resolves to: `messages`, `exit_reason`,
 * `step_count`, `token_usage` and `tool_call_counts` are always present; `last_message` (absent for an
 * empty conversation) and the State keys (absent until they have a value) are optional.
 */
export type AgentResult<TOptions = AgentOptions> = Simplify<
  {
    messages: z.output<Metadata["messages"]>;
    exit_reason: AgentExitReason<TOptions>;
    step_count: z.output<Metadata["step_count"]>;
    token_usage: z.output<Metadata["token_usage"]>;
    tool_call_counts: z.output<Metadata["tool_call_counts"]>;
    last_message?: z.output<Metadata["last_message"]>;
  } & StateResult<TOptions> &
    OptionResult<TOptions>
>;

/**
 * An Agent instance. `Agent` alone accepts every agent; `Agent<typeof options>` is the instance built
 * from those options.
 */
export type AgentInstance<TOptions = AgentOptions> = Component<
  AgentInputSpecsOf<TOptions>,
  AgentOutputSpecsOf<TOptions>,
  AgentParams,
  AgentResult<TOptions>
>;

/** The Agent class: `new Agent(options)` infers the instance's sockets and result from the options. */
export interface AgentClass {
  /**
   * Creates an agent; throws `ComponentError` listing every invalid option.
   *
   * @param options - chat generator, tools, prompts, exit conditions, State schema, limits and hooks
   */
  new <const TOptions extends AgentOptions>(
    options: TOptions & KnownAgentOptions<TOptions>,
  ): AgentInstance<TOptions>;
  /** The registered type name, `"junction.Agent"`. */
  readonly type: string;
  /** The definition the class was made from. */
  readonly definition: ComponentDefinition<typeof agentParamsSchema, any, any, AgentSetup, any>;
}
