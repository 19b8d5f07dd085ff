import { type DeserializeContext, SerializationError, type SerializeContext } from "@junction/core";
import type { ToolsInput } from "@junction/llm";

/** Writes the Agent's tools (pending: `@junction/llm`'s tool serialization). */
export function toolsToJSON(tools: ToolsInput, context: SerializeContext): unknown {
  void tools;
  throw new SerializationError("Agent: tool serialization is not available yet.", {
    issues: [{ path: [...context.path, "tools"], message: "tool serialization is not available yet." }],
  });
}

/** Reads the Agent's tools back. */
export function toolsFromJSON(doc: unknown, context: DeserializeContext): ToolsInput | undefined {
  void doc;
  context.issues.push({
    path: [...context.path, "tools"],
    message: "tool deserialization is not available yet.",
  });
  return undefined;
}
