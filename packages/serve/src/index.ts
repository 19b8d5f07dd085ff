export type { AppContext, CreateAppOptions } from "./create-app.js";
export { createApp } from "./create-app.js";
export type { ErrorBody } from "./http-error.js";
export { HttpError } from "./http-error.js";
export type { ServeMcpStdioOptions } from "./mcp.js";
export { serveMcpStdio } from "./mcp.js";
export type { RunAnswer, ServedRunOptions, WireEvent } from "./run-served.js";
export { runServed, streamServed, stringifyWire } from "./run-served.js";
export type { AuthOptions } from "./security.js";
export { loopbackHosts } from "./security.js";
export type { RunningServer, ServeOptions } from "./serve.js";
export { serve } from "./serve.js";
export type { ChatMapping, Servable, ServedPipeline } from "./served-pipeline.js";
export { preparePipeline } from "./served-pipeline.js";
export type {
  InterruptedAnswer,
  ResumedAnswer,
  ResumeServedOptions,
  RunListEntry,
  RunView,
} from "./served-runs.js";
export { describeRun, listRuns, readDecisions, resumeServed } from "./served-runs.js";
