import {
  type AnyComponent,
  didYouMean,
  excerpt,
  getDefaultLogger,
  type InputSocket,
  type Issue,
  isComponent,
} from "@junction/core";
import {
  type AnyTool,
  chatMessageSchema,
  flattenTools,
  isTool,
  type StreamingCallback,
  supportsResponseFormat,
  Toolset,
  type ToolsInput,
} from "@junction/llm";
import { z } from "zod";
import {
  finalAnswerToolName,
  isZodSchema,
  type OutputSchema,
  type OutputSpec,
  outputIssuesSchema,
  resolveOutputSchema,
} from "../output/output-schema.js";
import { replaceValues } from "../state/handlers.js";
import { prepareStateSchema } from "../state/state.js";
import { listElementSchema, resolveStateSchema, type StateSchema } from "../state/state-schema.js";
import { agentToolIssues } from "../tools/agent-tool.js";
import { conversationIssues, conversationOptionSchema, historyLimitSchema } from "./conversation.js";
import { type AgentHooks, type NormalizedHooks, normalizeHooks } from "./hooks.js";
import { templateVariables } from "./template.js";

/** State keys the Agent reserves for run metadata (they are outputs, not user keys). */
export const reservedStateKeys = [
  "step_count",
  "token_usage",
  "tool_call_counts",
  "exit_reason",
  "last_message",
  "structured_output",
  "output_issues",
];

/** The State keys that exist only when the Agent has an `outputSchema`. */
const outputStateKeys = ["structured_output", "output_issues"];

/** The Agent's run options that are also input sockets; state keys and template variables may not use them. */
export const runInputNames = ["messages", "streaming_callback", "generation_kwargs", "tools"];

const isFunction = (value: unknown): boolean => typeof value === "function";
const isPlainObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isToolsInput(value: unknown): boolean {
  if (value instanceof Toolset) return true;
  return Array.isArray(value) && value.every((item) => isTool(item) || item instanceof Toolset);
}

/** The schema of the Agent's options. */
export const agentParamsSchema = z
  .strictObject({
    chatGenerator: z.custom<AnyComponent>(isComponent, {
      message: "must be a chat generator component instance (e.g. new ScriptedChatGenerator(...)).",
    }),
    tools: z
      .custom<ToolsInput>(isToolsInput, { message: "must be a Toolset or a list of tools and toolsets." })
      .optional(),
    systemPrompt: z.string().optional(),
    userPrompt: z.string().optional(),
    exitConditions: z.array(z.string().min(1)).min(1).default(["text"]),
    stateSchema: z
      .custom<StateSchema>(isPlainObject, { message: "must be an object { key: { type, handler? } }." })
      .default({}),
    maxAgentSteps: z.number().int().min(1).default(100),
    toolConcurrencyLimit: z.number().int().optional(),
    raiseOnToolInvocationFailure: z.boolean().default(false),
    streamingCallback: z.custom<StreamingCallback>(isFunction, { message: "must be a function." }).optional(),
    hooks: z
      .custom<AgentHooks>(isPlainObject, { message: "must be an object keyed by hook point." })
      .optional(),
    finalAnswerOnMaxSteps: z.boolean().default(false),
    outputSchema: z
      .custom<OutputSchema>((value) => isZodSchema(value) || isPlainObject(value), {
        message: "must be a zod schema or a JSON Schema object.",
      })
      .optional(),
    outputStrategy: z.enum(["tool", "responseFormat", "auto"]).default("auto"),
    maxOutputRetries: z.number().int().min(0).default(2),
    raiseOnInvalidOutput: z.boolean().default(false),
    conversation: conversationOptionSchema.optional(),
    historyLimit: historyLimitSchema.optional(),
  })
  .superRefine((params, context) => {
    for (const issue of [...checkAgentParams(params), ...conversationIssues(params)]) {
      context.addIssue({ code: "custom", path: [...issue.path], message: issue.message });
    }
  });

/** The Agent's validated options. */
export type AgentParams = z.output<typeof agentParamsSchema>;

/** Everything decided once per Agent instance. */
export interface AgentSetup {
  /** The user's state schema plus `messages` and the run-metadata keys. */
  readonly stateSchema: StateSchema;
  /** The user's state keys (one input and one output socket each). */
  readonly userStateKeys: readonly string[];
  /** Hooks by point. */
  readonly hooks: NormalizedHooks;
  /** Variables of the system and user prompt templates. */
  readonly templateVariables: readonly string[];
  /** The resolved `outputSchema`, when the Agent has one. */
  readonly output: OutputSpec | undefined;
  /**
   * The chat generator's input sockets other than `messages` and `tools` whose run value is not
   * `undefined` when nothing is given (a default, or a variadic socket's list).
   */
  readonly generatorDefaults: readonly InputSocket[];
}

const messagesSpec = { type: z.array(chatMessageSchema) };

/**
 * The resolved state schema: user keys, `messages`, and the run metadata the loop writes (with an
 * output schema, also `structured_output` and `output_issues`; `null` when unset).
 */
export function buildStateSchema(userSchema: StateSchema, output?: OutputSpec): StateSchema {
  const schema: StateSchema = {
    ...userSchema,
    messages: userSchema.messages ?? messagesSpec,
    step_count: { type: z.number().int() },
    token_usage: { type: z.record(z.string(), z.unknown()) },
    tool_call_counts: { type: z.record(z.string(), z.number()) },
    exit_reason: { type: z.string().nullable() },
  };
  if (output === undefined) return schema;
  return {
    ...schema,
    structured_output: { type: output.schema.nullable(), handler: replaceValues },
    output_issues: { type: outputIssuesSchema.nullable(), handler: replaceValues },
  };
}

function promptVariables(params: {
  systemPrompt?: string | undefined;
  userPrompt?: string | undefined;
}): string[] {
  return [
    ...new Set([
      ...templateVariables(params.systemPrompt ?? ""),
      ...templateVariables(params.userPrompt ?? ""),
    ]),
  ];
}

function tryFlatten(tools: ToolsInput | undefined, issues: Issue[]): AnyTool[] {
  try {
    return flattenTools(tools);
  } catch (error) {
    issues.push({ path: ["tools"], message: error instanceof Error ? error.message : String(error) });
    return [];
  }
}

/** Cross-option checks; every problem is returned with its path. */
export function checkAgentParams(
  params: Omit<AgentParams, "chatGenerator"> & { chatGenerator: unknown },
): Issue[] {
  const issues: Issue[] = [];
  const tools = tryFlatten(params.tools, issues);
  const generator = params.chatGenerator as AnyComponent;
  if (tools.length > 0 && !Object.hasOwn(generator.inputSockets, "tools")) {
    issues.push({
      path: ["chatGenerator"],
      message: `the chat generator "${excerpt(generator.type)}" has no "tools" input, so it cannot offer tools to the model. Use a generator that accepts tools, or remove the tools.`,
    });
  }
  if (params.toolConcurrencyLimit !== undefined && params.toolConcurrencyLimit < 1) {
    issues.push({
      path: ["toolConcurrencyLimit"],
      message: `must be at least 1 (got ${params.toolConcurrencyLimit}). Leave it out to run every call of a batch at once.`,
    });
  }
  const schemaIssues: Issue[] = [];
  const resolved = resolveStateSchema(params.stateSchema, schemaIssues);
  issues.push(
    ...schemaIssues.map((issue) => ({ path: ["stateSchema", ...issue.path], message: issue.message })),
  );
  for (const key of Object.keys(params.stateSchema)) {
    if (reservedStateKeys.includes(key) || (key !== "messages" && runInputNames.includes(key))) {
      issues.push({
        path: ["stateSchema", key],
        message: `"${excerpt(key)}" is reserved by the Agent (reserved: ${[...reservedStateKeys, ...runInputNames.slice(1)].map((name) => `"${excerpt(name)}"`).join(", ")}). Rename the key.`,
      });
    }
  }
  const messages = resolved.get("messages");
  if (messages !== undefined && (messages.element === undefined || messages.element !== chatMessageSchema)) {
    issues.push({
      path: ["stateSchema", "messages", "type"],
      message: 'a user-declared "messages" key must be z.array(chatMessageSchema).',
    });
  }
  const hookIssues: Issue[] = [];
  normalizeHooks(params.hooks, hookIssues);
  issues.push(...hookIssues);
  issues.push(...agentToolIssues(tools));
  checkOutputParams(params, tools, issues);
  const known = new Set([
    ...Object.keys(params.stateSchema),
    "messages",
    ...reservedStateKeys.filter((key) => params.outputSchema !== undefined || !outputStateKeys.includes(key)),
  ]);
  for (const tool of tools) {
    for (const stateKey of Object.keys(tool.inputsFromState ?? {})) {
      if (!known.has(stateKey)) {
        issues.push({
          path: ["tools", tool.name, "inputsFromState", stateKey],
          message: `tool "${excerpt(tool.name)}" reads State key "${excerpt(stateKey)}", which the stateSchema does not define.${didYouMean(stateKey, known)} Add "${excerpt(stateKey)}" to stateSchema or fix the tool's inputsFromState.`,
        });
      }
    }
    for (const stateKey of Object.keys(tool.outputsToState ?? {})) {
      if (!known.has(stateKey) || reservedStateKeys.includes(stateKey)) {
        issues.push({
          path: ["tools", tool.name, "outputsToState", stateKey],
          message: `tool "${excerpt(tool.name)}" writes State key "${excerpt(stateKey)}", which the stateSchema does not define.${didYouMean(
            stateKey,
            [...known].filter((key) => !reservedStateKeys.includes(key)),
          )} Add "${excerpt(stateKey)}" to stateSchema or fix the tool's outputsToState.`,
        });
      }
    }
  }
  for (const variable of promptVariables(params)) {
    if (known.has(variable) || runInputNames.includes(variable)) {
      issues.push({
        path: [params.userPrompt?.includes(variable) ? "userPrompt" : "systemPrompt"],
        message: `the template variable "${excerpt(variable)}" collides with a State key or run input of the same name. Rename the variable.`,
      });
    }
  }
  return issues;
}

/** Checks the structured-output options against the generator and the tools. */
function checkOutputParams(
  params: Omit<AgentParams, "chatGenerator"> & { chatGenerator: unknown },
  tools: readonly AnyTool[],
  issues: Issue[],
): void {
  if (params.outputSchema === undefined) return;
  resolveOutputSchema(params.outputSchema, issues);
  const generator = params.chatGenerator as AnyComponent;
  const hasTools = Object.hasOwn(generator.inputSockets, "tools");
  const hasFormat = supportsResponseFormat(generator);
  const strategy = params.outputStrategy;
  if (strategy === "responseFormat" && !hasFormat) {
    issues.push({
      path: ["outputStrategy"],
      message: `"responseFormat" needs a chat generator that declares a "response_format" input; "${generator.type}" does not. Use outputStrategy "tool" or "auto".`,
    });
  }
  if (!hasTools && (strategy === "tool" || (strategy === "auto" && !hasFormat))) {
    issues.push({
      path: ["outputStrategy"],
      message: `the chat generator "${generator.type}" has neither a "tools" input (for a final-answer tool) nor a "response_format" input, so it cannot be asked for a structured answer. Use a generator that supports one of them.`,
    });
  }
  if (strategy !== "responseFormat" && tools.some((tool) => tool.name === finalAnswerToolName)) {
    issues.push({
      path: ["tools", finalAnswerToolName],
      message: `the tool name "${finalAnswerToolName}" is used by the Agent for structured answers (outputSchema). Rename the tool.`,
    });
  }
}

/** Builds what the Agent decides once per instance, and warns about risky state wiring. */
export function setupAgent(params: AgentParams): AgentSetup {
  const hooks = normalizeHooks(params.hooks, []);
  const output = resolveOutputSchema(params.outputSchema, []);
  const stateSchema = buildStateSchema(params.stateSchema, output);
  warnAboutWriteConflicts(flattenTools(params.tools), stateSchema);
  // Resolved once here, not on every run (the object is the Agent's own and never changes).
  prepareStateSchema(stateSchema);
  const generatorSockets = Object.values(
    params.chatGenerator.inputSockets as Readonly<Record<string, InputSocket>>,
  );
  return {
    stateSchema,
    generatorDefaults: generatorSockets.filter(
      (socket) =>
        socket.name !== "messages" &&
        socket.name !== "tools" &&
        (socket.hasDefault || socket.variadic !== "none"),
    ),
    userStateKeys: Object.keys(params.stateSchema).filter((key) => key !== "messages"),
    hooks,
    templateVariables: promptVariables(params),
    output,
  };
}

function warnAboutWriteConflicts(tools: readonly AnyTool[], schema: StateSchema): void {
  const writers = new Map<string, string[]>();
  for (const tool of tools) {
    for (const [stateKey, entry] of Object.entries(tool.outputsToState ?? {})) {
      const spec = schema[stateKey];
      if (spec === undefined) continue;
      const handler =
        entry.handler ?? spec.handler ?? (listElementSchema(spec.type) ? undefined : replaceValues);
      if (handler !== replaceValues) continue;
      writers.set(stateKey, [...(writers.get(stateKey) ?? []), tool.name]);
    }
  }
  for (const [stateKey, names] of writers) {
    if (names.length < 2) continue;
    getDefaultLogger().warn(
      `Agent: tools ${listNames(names)} all write State key "${excerpt(stateKey)}", which replaces its value. When the model calls them in one turn, the last call (in call order) wins. Give the key a merging handler if the values should be combined.`,
      { stateKey, tools: names },
    );
  }
}

function listNames(names: readonly string[]): string {
  const quoted = names.map((name) => `"${excerpt(name)}"`);
  return quoted.length <= 2 ? quoted.join(" and ") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}
