/**
 * The GenAI semantic-convention names this package writes, as constants of its own: the npm package's
 * `ATTR_GEN_AI_*` are deprecated ("moved to semantic-conventions-genai"). Pinned to the conventions of
 * open-telemetry/semantic-conventions-genai `docs/gen-ai/gen-ai-agent-spans.md` and `gen-ai-spans.md`
 * (Development status, 2026).
 */
export const GEN_AI = Object.freeze({
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  agentName: "gen_ai.agent.name",
  workflowName: "gen_ai.workflow.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  toolDefinitions: "gen_ai.tool.definitions",
  errorType: "error.type",
});

/** The environment variable that switches message content capture on (`"true"`). */
export const CAPTURE_CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";

/** Tags that hold content (prompts, replies, tool arguments and results, pipeline data): kept only with capture on. */
export const contentTags: ReadonlySet<string> = new Set([
  GEN_AI.inputMessages,
  GEN_AI.outputMessages,
  GEN_AI.toolDefinitions,
  GEN_AI.toolCallArguments,
  GEN_AI.toolCallResult,
  "junction.pipeline.input_data",
  "junction.pipeline.output_data",
  "junction.component.input",
  "junction.component.output",
]);
