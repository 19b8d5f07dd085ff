export type { GraphEdge, GraphNode, GraphNodeKind, GraphSocket, PipelineGraph } from "./graph.js";
export { describeGraph } from "./graph.js";
export type { PlaygroundOptions } from "./playground-routes.js";
export { playgroundRoutes } from "./playground-routes.js";
export type { RunRecord, RunStatus, SpanListener, SpanRecord } from "./run-log.js";
export { RunLog, recordingTracer } from "./run-log.js";
