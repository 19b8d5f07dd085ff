import { JunctionError, type JunctionErrorFields } from "@junction/core";

/** Fields of a {@link ToolInvocationError}. */
export interface ToolInvocationErrorFields extends JunctionErrorFields {
  /** The tool that failed. */
  readonly toolName: string;
  /** The arguments it was called with. */
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A tool call failed: its arguments did not match the parameters schema (`issues` lists each
 * problem), or its function threw (`cause`). Agents turn it into an error tool result the model can
 * read, unless told to raise.
 *
 * @example
 * ```ts
 * try { await weather.invoke({ city: 3 }); } catch (error) {
 *   if (error instanceof ToolInvocationError) console.log(error.toolName, error.issues);
 * }
 * ```
 */
export class ToolInvocationError extends JunctionError {
  /** The tool that failed. */
  readonly toolName: string;
  /** The arguments it was called with. */
  readonly arguments: Readonly<Record<string, unknown>> | undefined;

  /** @param message - what failed and how to fix it @param fields - the tool's name, arguments, issues, cause */
  constructor(message: string, fields: ToolInvocationErrorFields) {
    super("TOOL_INVOCATION_ERROR", message, fields);
    this.toolName = fields.toolName;
    this.arguments = fields.arguments;
  }
}

/**
 * A tool or toolset was declared wrongly: an invalid name, a parameters schema that is not a JSON
 * Schema object, a state mapping to an unknown parameter, duplicate tool names, a component socket
 * that cannot be described to a model.
 */
export class ToolDefinitionError extends JunctionError {
  /** @param message - what is wrong and how to fix it @param fields - structured fields (issues) */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("TOOL_DEFINITION_ERROR", message, fields);
  }
}
