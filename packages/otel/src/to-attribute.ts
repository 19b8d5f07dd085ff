import type { AttributeValue } from "@opentelemetry/api";

function isMessage(value: unknown): value is { role: string; toJSON(): unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { role?: unknown }).role === "string" &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  );
}

interface MessagePart {
  readonly type: string;
  readonly text?: string;
  readonly toolCall?: { toolName: string; arguments: unknown; id?: string };
  readonly toolCallResult?: { result: unknown; origin: { id?: string } };
  readonly reasoning?: { reasoningText: string };
}

/** A chat message in the GenAI conventions' message shape (`{ role, parts: [{ type, ... }] }`). */
function toGenAIMessage(message: {
  role: string;
  content?: readonly MessagePart[];
  meta?: Record<string, unknown>;
}) {
  const parts = (message.content ?? []).map((part) => {
    switch (part.type) {
      case "text":
        return { type: "text", content: part.text };
      case "reasoning":
        return { type: "reasoning", content: part.reasoning?.reasoningText };
      case "tool_call":
        return {
          type: "tool_call",
          id: part.toolCall?.id ?? null,
          name: part.toolCall?.toolName,
          arguments: part.toolCall?.arguments,
        };
      case "tool_call_result":
        return {
          type: "tool_call_response",
          id: part.toolCallResult?.origin.id ?? null,
          response: part.toolCallResult?.result,
        };
      default:
        return { type: part.type };
    }
  });
  const finish = message.meta?.finish_reason;
  return { role: message.role, parts, ...(typeof finish === "string" ? { finish_reason: finish } : {}) };
}

/** Chat messages (anywhere in arrays) in the conventions' shape; `JSON.stringify` would call their `toJSON` first. */
function prepare(value: unknown): unknown {
  if (isMessage(value)) return toGenAIMessage(value as never);
  if (Array.isArray(value)) return value.map(prepare);
  return value;
}

function json(value: unknown): string {
  try {
    return (
      JSON.stringify(prepare(value), (_key, item: unknown) => {
        if (typeof item === "bigint") return item.toString();
        if (typeof item === "function") return `[function ${item.name || "anonymous"}]`;
        return item;
      }) ?? String(value)
    );
  } catch {
    return String(value);
  }
}

/**
 * Converts a Junction tag value into an OpenTelemetry attribute value: strings, numbers and booleans
 * as they are, arrays of one primitive type as arrays, anything else as JSON (chat messages in the GenAI
 * conventions' message shape). `undefined` and `null` give `undefined` (no attribute).
 */
export function toAttribute(value: unknown): AttributeValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value) && value.length > 0) {
    const kind = typeof value[0];
    if (
      (kind === "string" || kind === "number" || kind === "boolean") &&
      value.every((item) => typeof item === kind)
    )
      return value as AttributeValue;
  }
  return json(value);
}
