import { type DeserializeContext, JunctionError, type SerializeContext } from "@junction/core";
import { toolsFromJSON as readTools, type ToolsInput, toolsToJSON as writeTools } from "@junction/llm";

/** Writes the Agent's tools with `@junction/llm`'s tool serialization (functions by registered name). */
export function toolsToJSON(tools: ToolsInput, context: SerializeContext): unknown {
  return writeTools(tools, { registry: context.registry, path: [...context.path, "tools"] });
}

/** Reads the Agent's tools back; problems are recorded in the context. */
export function toolsFromJSON(doc: unknown, context: DeserializeContext): ToolsInput | undefined {
  try {
    return readTools(doc, { registry: context.registry, path: [...context.path, "tools"] });
  } catch (error) {
    if (JunctionError.isInstance(error) && error.issues.length > 0) context.issues.push(...error.issues);
    else context.issues.push({ path: [...context.path, "tools"], message: String(error) });
    return undefined;
  }
}
