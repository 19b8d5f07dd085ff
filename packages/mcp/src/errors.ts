import { JunctionError, type JunctionErrorFields } from "@junction/core";

/**
 * An MCP server could not be reached, did not answer in time, or its tool list does not match what was
 * asked for (a name in `toolNames` it does not offer). Failures of single tool calls are not this error:
 * they become tool errors the model reads.
 */
export class MCPError extends JunctionError {
  /** @param message - what failed and how to fix it @param fields - structured fields (`cause`) */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("MCP_ERROR", message, fields);
  }
}
