import type { Issue } from "@junction/core";
import { checkPart, isRecord } from "./content-part-checks.js";
import type {
  ContentPart,
  ImageContent,
  ReasoningContent,
  ToolCall,
  ToolCallResult,
} from "./content-parts.js";

/** The serialized shapes of content parts: the reference's dict format (snake_case keys). */

/** A serialized tool call. */
export interface ToolCallJSON {
  /** The tool's name. */
  readonly tool_name: string;
  /** The parsed arguments. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The provider's call id. */
  readonly id: string | null;
  /** Provider-specific data. */
  readonly extra: Readonly<Record<string, unknown>> | null;
}

/** A serialized image. */
export interface ImageContentJSON {
  /** Base64 image data. */
  readonly base64_image: string;
  /** The MIME type. */
  readonly mime_type: string | null;
  /** The detail level. */
  readonly detail: "auto" | "high" | "low" | null;
  /** Metadata. */
  readonly meta: Readonly<Record<string, unknown>>;
}

/** A serialized tool call result. */
export interface ToolCallResultJSON {
  /** The result string, or a list of `{ text }` / `{ image }` parts. */
  readonly result: string | readonly ({ readonly text: string } | { readonly image: ImageContentJSON })[];
  /** The call that produced it. */
  readonly origin: ToolCallJSON;
  /** Whether the tool failed. */
  readonly error: boolean;
}

/** One serialized content part: `{ text }`, `{ tool_call }`, `{ tool_call_result }`, `{ reasoning }` or `{ image }`. */
export type ContentPartJSON =
  | { readonly text: string }
  | { readonly tool_call: ToolCallJSON }
  | { readonly tool_call_result: ToolCallResultJSON }
  | {
      readonly reasoning: {
        readonly reasoning_text: string;
        readonly extra: Readonly<Record<string, unknown>>;
      };
    }
  | { readonly image: ImageContentJSON };

/** Serializes a tool call. */
export function toolCallToJSON(call: ToolCall): ToolCallJSON {
  return {
    tool_name: call.toolName,
    arguments: call.arguments,
    id: call.id ?? null,
    extra: call.extra ?? null,
  };
}

function imageToJSON(image: ImageContent): ImageContentJSON {
  return {
    base64_image: image.base64Image,
    mime_type: image.mimeType ?? null,
    detail: image.detail ?? null,
    meta: image.meta ?? {},
  };
}

function reasoningToJSON(reasoning: ReasoningContent) {
  return { reasoning_text: reasoning.reasoningText, extra: reasoning.extra };
}

/** Serializes a tool call result. */
export function toolCallResultToJSON(result: ToolCallResult): ToolCallResultJSON {
  return {
    result:
      typeof result.result === "string"
        ? result.result
        : result.result.map((part) =>
            part.type === "text" ? { text: part.text } : { image: imageToJSON(part.image) },
          ),
    origin: toolCallToJSON(result.origin),
    error: result.error,
  };
}

/** Serializes one content part. */
export function partToJSON(part: ContentPart): ContentPartJSON {
  switch (part.type) {
    case "text":
      return { text: part.text };
    case "image":
      return { image: imageToJSON(part.image) };
    case "tool_call":
      return { tool_call: toolCallToJSON(part.toolCall) };
    case "tool_call_result":
      return { tool_call_result: toolCallResultToJSON(part.toolCallResult) };
    case "reasoning":
      return { reasoning: reasoningToJSON(part.reasoning) };
  }
}

const jsonFieldNames: Readonly<Record<string, string>> = {
  toolName: "tool_name",
  toolCall: "tool_call",
  toolCallResult: "tool_call_result",
  base64Image: "base64_image",
  mimeType: "mime_type",
  reasoningText: "reasoning_text",
};

function optional(value: unknown): unknown {
  return value === null ? undefined : value;
}

function toolCallFromJSON(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return {
    toolName: value.tool_name,
    arguments: value.arguments,
    id: optional(value.id),
    extra: optional(value.extra),
  };
}

function imageFromJSON(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return {
    base64Image: value.base64_image,
    mimeType: optional(value.mime_type),
    detail: optional(value.detail),
    // An empty meta is how an image without metadata is written; read it back as absent.
    meta: isRecord(value.meta) && Object.keys(value.meta).length === 0 ? undefined : optional(value.meta),
  };
}

function resultItemFromJSON(value: unknown): unknown {
  if (isRecord(value) && typeof value.text === "string") return { type: "text", text: value.text };
  if (isRecord(value) && "image" in value) return { type: "image", image: imageFromJSON(value.image) };
  return value;
}

/** Translates a serialized part into the in-memory shape (unchecked); `undefined` when no known key. */
function translate(part: Record<string, unknown>): unknown {
  if ("text" in part) return { type: "text", text: part.text };
  if ("tool_call" in part) return { type: "tool_call", toolCall: toolCallFromJSON(part.tool_call) };
  if ("tool_call_result" in part) {
    const raw = part.tool_call_result;
    if (!isRecord(raw)) return { type: "tool_call_result", toolCallResult: raw };
    return {
      type: "tool_call_result",
      toolCallResult: {
        result: Array.isArray(raw.result) ? raw.result.map(resultItemFromJSON) : raw.result,
        origin: toolCallFromJSON(raw.origin),
        error: raw.error,
      },
    };
  }
  if ("reasoning" in part) {
    const raw = part.reasoning;
    return {
      type: "reasoning",
      reasoning: isRecord(raw) ? { reasoningText: raw.reasoning_text, extra: optional(raw.extra) } : raw,
    };
  }
  if ("image" in part) return { type: "image", image: imageFromJSON(part.image) };
  // Flat shapes (pydantic model_dump output in the reference).
  if ("tool_name" in part && "arguments" in part)
    return { type: "tool_call", toolCall: toolCallFromJSON(part) };
  if ("reasoning_text" in part) return translate({ reasoning: part });
  if ("base64_image" in part) return translate({ image: part });
  if ("result" in part && "origin" in part) return translate({ tool_call_result: part });
  return undefined;
}

/**
 * Reads one serialized content part, recording problems (with snake_case paths) in `issues`.
 *
 * @param value - the serialized part
 * @param path - where it sits in the document
 * @param issues - collects every problem
 */
export function partFromJSON(
  value: unknown,
  path: readonly (string | number)[],
  issues: Issue[],
): ContentPart | undefined {
  const translated = isRecord(value) ? translate(value) : undefined;
  if (translated === undefined) {
    issues.push({
      path,
      message:
        "unsupported content part. Each part must be an object with one of the keys 'text', 'image', 'reasoning', 'tool_call' or 'tool_call_result', e.g. { text: 'Hello' } or { tool_call: { tool_name: 'search', arguments: {}, id: 'call_1' } }.",
    });
    return undefined;
  }
  const local: Issue[] = [];
  const part = checkPart(translated, path, local);
  for (const issue of local) {
    issues.push({ ...issue, path: issue.path.map((segment) => jsonFieldNames[segment] ?? segment) });
  }
  return part;
}
