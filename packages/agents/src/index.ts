export { StateError } from "./errors.js";
export type { MergeHandler } from "./state/handlers.js";
export { mergeLists, replaceValues } from "./state/handlers.js";
export type {
  StateData,
  StateKeyDefinition,
  StateOptions,
  StateReadValue,
  StateSetValue,
  StateValue,
} from "./state/state.js";
export { State } from "./state/state.js";
export type { StateKeySpec, StateSchema } from "./state/state-schema.js";
export type { PlannableTool, PlannableToolCall, StateAccess } from "./tools/plan-tool-calls.js";
export { planToolCalls, stateAccessOf } from "./tools/plan-tool-calls.js";
