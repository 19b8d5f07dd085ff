import { type Issue, JunctionError, socketSchemaFromJSON, socketSchemaToJSON } from "@junction/core";
import type { z } from "zod";

/**
 * State key types as JSON Schema, through core's socket-schema conversion: named types (`ChatMessage`)
 * are written by name, `{ "x-junction-type": "ChatMessage" }`, and resolved through the named-type
 * registry on load. Problems are recorded with their path instead of thrown, so a document reports
 * every one at once.
 */

type JsonSchema = Record<string, unknown>;

function record(error: unknown, path: readonly (string | number)[], issues: Issue[]): void {
  if (JunctionError.isInstance(error) && error.issues.length > 0) {
    for (const issue of error.issues) issues.push({ path: [...path, ...issue.path], message: issue.message });
  } else {
    issues.push({ path, message: error instanceof Error ? error.message : String(error) });
  }
}

/** Writes a key's zod schema as JSON Schema; records what cannot be written. */
export function schemaToJSON(
  schema: z.ZodType,
  path: readonly (string | number)[],
  issues: Issue[],
): JsonSchema {
  try {
    const json = socketSchemaToJSON(schema);
    delete json.$schema;
    return json;
  } catch (error) {
    record(error, path, issues);
    return {};
  }
}

/** Reads a key's JSON Schema back into a zod schema; records every problem. */
export function schemaFromJSON(
  node: unknown,
  path: readonly (string | number)[],
  issues: Issue[],
): z.ZodType {
  try {
    return socketSchemaFromJSON(node);
  } catch (error) {
    record(error, path, issues);
    return socketSchemaFromJSON({});
  }
}
