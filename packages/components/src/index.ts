export type { BranchJoinerClass } from "./branch-joiner.js";
export { BranchJoiner } from "./branch-joiner.js";
export { ChatPromptBuilder } from "./chat-prompt-builder.js";
export { ConditionalRouter } from "./conditional-router.js";
export type { RouteErrorFields } from "./errors.js";
export {
  NoRouteSelectedError,
  OutputAdaptationError,
  PromptRenderError,
  RouteConditionError,
} from "./errors.js";
export { ListJoiner } from "./list-joiner.js";
export { OutputAdapter } from "./output-adapter.js";
export { PromptBuilder } from "./prompt-builder.js";
export type { Route, RouteInput } from "./route-params.js";
export type {
  ConditionalRouterClass,
  ConditionalRouterInstance,
  ConditionalRouterOptions,
  RouteOptions,
  RouterInputSpecs,
  RouterOutputSpecs,
  RouterParams,
} from "./router-types.js";
export type { SocketTypeInput } from "./socket-type.js";
export { StringJoiner } from "./string-joiner.js";
