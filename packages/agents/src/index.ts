export type { AgentInputSpecs, AgentOutputSpecs } from "./agent/agent.js";
export { Agent } from "./agent/agent.js";
export type { AgentParams } from "./agent/agent-config.js";
export type { AgentSnapshot } from "./agent/agent-snapshot.js";
export { agentSnapshotJSONSchema, agentSnapshotSchema } from "./agent/agent-snapshot.js";
export type {
  AgentAlwaysPresentOptionOutputs,
  AgentClass,
  AgentExitReason,
  AgentInputSpecsOf,
  AgentInstance,
  AgentOptionExitReasons,
  AgentOptionInputSpecs,
  AgentOptionOutputSpecs,
  AgentOptions,
  AgentOutputSchemaOf,
  AgentOutputSpecsOf,
  AgentResult,
  AgentStateKeys,
  AgentStateSchemaOf,
  AgentStructuredOutput,
  AgentTemplateVariables,
  BuiltInExitReason,
  KnownAgentOptions,
  TemplateVariables,
} from "./agent/agent-types.js";
export type {
  ConversationOption,
  ConversationTurnJSON,
  HistoryLimit,
  SummarizeHistory,
} from "./agent/conversation.js";
export type {
  AgentHook,
  AgentHooks,
  HookControl,
  HookFunction,
  HookObject,
  HookPoint,
} from "./agent/hooks.js";
export { hookPoints } from "./agent/hooks.js";
export type { AgentRunErrorFields } from "./errors.js";
export { AgentRunError, StateError } from "./errors.js";
export type { OutputSchema, OutputStrategy } from "./output/output-schema.js";
export type { InferOutputSchema, JsonSchemaValue } from "./output/output-types.js";
export type { MergeHandler } from "./state/handlers.js";
export { mergeById, mergeLists, replaceValues } from "./state/handlers.js";
export type {
  StateData,
  StateKeyDefinition,
  StateOptions,
  StateReadValue,
  StateSetValue,
  StateSnapshot,
  StateValue,
  WithMessages,
} from "./state/state.js";
export { State } from "./state/state.js";
export type { StateFromJSONOptions, StateJSON, StateToJSONOptions } from "./state/state-json.js";
export type { StateKeySpec, StateSchema } from "./state/state-schema.js";
export type { AgentToolInit } from "./tools/agent-tool.js";
export { AgentTool, agentToolType, defaultMaxAgentDepth } from "./tools/agent-tool.js";
export type { PlannableTool, PlannableToolCall, StateAccess } from "./tools/plan-tool-calls.js";
export { planToolCalls, stateAccessOf } from "./tools/plan-tool-calls.js";
