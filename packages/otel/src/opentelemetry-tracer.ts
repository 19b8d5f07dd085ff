import type { Span, Tracer } from "@junction/core";
import {
  type Span as OtelSpan,
  type Tracer as OtelTracer,
  context as otelContext,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { CAPTURE_CONTENT_ENV, contentTags, GEN_AI } from "./attributes.js";
import { toAttribute } from "./to-attribute.js";

/** What `new OpenTelemetryTracer(...)` takes. */
export interface OpenTelemetryTracerOptions {
  /** The OpenTelemetry tracer to create spans with; default: `trace.getTracer("junction")` (the global provider). */
  readonly tracer?: OtelTracer | undefined;
  /**
   * Record message content (prompts, replies, tool definitions, pipeline and component data). Default:
   * the `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` environment variable is `"true"`.
   */
  readonly captureContent?: boolean | undefined;
}

/** One Junction span backed by an OpenTelemetry span. */
class OpenTelemetrySpan implements Span {
  readonly tags: Record<string, unknown>;
  #ended = false;
  #error = false;

  constructor(
    readonly span: OtelSpan,
    readonly operationName: string,
    tags: Readonly<Record<string, unknown>>,
    readonly captureContent: boolean,
  ) {
    this.tags = {};
    for (const [key, value] of Object.entries(tags)) this.setTag(key, value);
  }

  setTag(key: string, value: unknown): void {
    if (this.#ended) return;
    this.tags[key] = value;
    if (key === "error") {
      this.#error = value === true;
      return;
    }
    if (contentTags.has(key) && !this.captureContent) return;
    const attribute = toAttribute(value);
    if (attribute !== undefined) this.span.setAttribute(key, attribute);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#error) {
      const type =
        typeof this.tags[GEN_AI.errorType] === "string" ? (this.tags[GEN_AI.errorType] as string) : "_OTHER";
      this.span.setAttribute(GEN_AI.errorType, type);
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    }
    this.span.end();
  }
}

interface Shape {
  readonly name: string;
  readonly kind: SpanKind;
  readonly attributes: Readonly<Record<string, string>>;
}

function componentName(parent: OpenTelemetrySpan | undefined): string | undefined {
  const name = parent?.tags["junction.component.name"];
  return typeof name === "string" ? name : undefined;
}

/** Which GenAI span a Junction operation is: name, kind and the attributes the conventions require. */
function shape(
  operationName: string,
  tags: Readonly<Record<string, unknown>>,
  parent: OpenTelemetrySpan | undefined,
): Shape {
  switch (operationName) {
    case "junction.pipeline.run": {
      const metadata = tags["junction.pipeline.metadata"] as { name?: unknown } | undefined;
      const name =
        typeof tags["junction.pipeline.name"] === "string"
          ? (tags["junction.pipeline.name"] as string)
          : typeof metadata?.name === "string"
            ? metadata.name
            : "pipeline";
      return {
        name: `invoke_workflow ${name}`,
        kind: SpanKind.INTERNAL,
        attributes: { [GEN_AI.operationName]: "invoke_workflow", [GEN_AI.workflowName]: name },
      };
    }
    case "junction.agent.run": {
      const name =
        typeof tags["junction.agent.name"] === "string"
          ? (tags["junction.agent.name"] as string)
          : (componentName(parent) ?? "agent");
      return {
        name: `invoke_agent ${name}`,
        kind: SpanKind.INTERNAL,
        attributes: { [GEN_AI.operationName]: "invoke_agent", [GEN_AI.agentName]: name },
      };
    }
    case "junction.chat": {
      const model = String(tags[GEN_AI.requestModel] ?? "");
      return { name: model === "" ? "chat" : `chat ${model}`, kind: SpanKind.CLIENT, attributes: {} };
    }
    case "junction.agent.tool": {
      const name = String(tags["junction.tool.name"] ?? "tool");
      const id = tags["junction.tool.call_id"];
      return {
        name: `execute_tool ${name}`,
        kind: SpanKind.INTERNAL,
        attributes: {
          [GEN_AI.operationName]: "execute_tool",
          [GEN_AI.toolName]: name,
          [GEN_AI.toolType]: "function",
          ...(typeof id === "string" ? { [GEN_AI.toolCallId]: id } : {}),
        },
      };
    }
    default:
      return { name: operationName, kind: SpanKind.INTERNAL, attributes: {} };
  }
}

/**
 * Junction's spans as OpenTelemetry spans, named and tagged by the GenAI semantic conventions:
 *
 * | Junction span | OpenTelemetry span |
 * |---|---|
 * | `junction.pipeline.run` | `invoke_workflow {name}` (INTERNAL; name from `metadata.name`, else `pipeline`) |
 * | `junction.agent.run` | `invoke_agent {name}` (INTERNAL; the agent's component name, else `agent`) |
 * | `junction.chat` (every model call) | `chat {model}` (CLIENT) with provider, model, usage, finish reasons |
 * | `junction.agent.tool` | `execute_tool {tool}` (INTERNAL) with `gen_ai.tool.call.id` |
 * | components, agent steps, hooks | their `junction.*` names (INTERNAL) |
 *
 * Parents are Junction's explicit parents, so concurrent spans (parallel components, parallel tool calls)
 * are siblings; a span without a parent joins the active OpenTelemetry context (your request span).
 * Message content and pipeline data are recorded only with `captureContent` (or the
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` environment variable). Failed spans get
 * status ERROR and `error.type`.
 *
 * @example
 * ```ts
 * const tracer = new OpenTelemetryTracer({ tracer: provider.getTracer("my-app") });
 * await pipeline.run(inputs, { tracer });
 * ```
 */
export class OpenTelemetryTracer implements Tracer {
  readonly #tracer: OtelTracer;
  /** Whether message content is recorded. */
  readonly captureContent: boolean;

  /** @param options - the OpenTelemetry tracer and content capture */
  constructor(options: OpenTelemetryTracerOptions = {}) {
    this.#tracer = options.tracer ?? trace.getTracer("junction");
    this.captureContent =
      options.captureContent ?? process.env[CAPTURE_CONTENT_ENV]?.toLowerCase() === "true";
  }

  /** @inheritDoc */
  startSpan(operationName: string, tags: Readonly<Record<string, unknown>> = {}, parent?: Span): Span {
    const parentSpan = parent instanceof OpenTelemetrySpan ? parent : undefined;
    const { name, kind, attributes } = shape(operationName, tags, parentSpan);
    const context =
      parentSpan === undefined ? otelContext.active() : trace.setSpan(otelContext.active(), parentSpan.span);
    const span = this.#tracer.startSpan(name, { kind, attributes }, context);
    return new OpenTelemetrySpan(span, operationName, tags, this.captureContent);
  }
}
