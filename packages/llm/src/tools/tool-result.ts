import { excerpt, getDefaultLogger, type Issue, type Logger } from "@junction/core";
import { checkTextOrImagePart, isRecord } from "../messages/content-part-checks.js";
import type { ToolCallResultContent } from "../messages/content-parts.js";
import { isSingleOutputConfig, type OutputsToString, type OutputToStringConfig } from "./tool-config.js";
import { ToolInvocationError } from "./tool-errors.js";

/** The part of a tool {@link toolResultToString} reads. */
export interface ToolResultSource {
  /** The tool's name (for messages). */
  readonly name: string;
  /** Its `outputsToString` configuration. */
  readonly outputsToString?: OutputsToString | undefined;
}

/** Options of {@link toolResultToString}. */
export interface ToolResultToStringOptions {
  /** Re-throw (as {@link ToolInvocationError}) when a handler fails, instead of falling back. Default false. */
  readonly raiseOnFailure?: boolean | undefined;
  /** Where warnings go (a failing handler, a result that is not JSON-serializable); default: the default logger. */
  readonly logger?: Logger | undefined;
}

/**
 * The default conversion of a tool result: strings unchanged, everything else as JSON (objects with a
 * `toJSON` method, such as `ChatMessage`, are converted by it; `undefined` becomes `"null"`), falling
 * back to `String(value)` when JSON fails (cycles, BigInt).
 *
 * @param value - the result
 * @param logger - receives a warning on the fallback
 */
export function stringifyToolResult(value: unknown, logger?: Logger): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value === undefined ? null : value) ?? "null";
  } catch (error) {
    logger?.warn("Tool result is not JSON-serializable; falling back to String().", {
      error: error instanceof Error ? error.message : String(error),
    });
    return String(value);
  }
}

function asContent(value: unknown): ToolCallResultContent | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const issues: Issue[] = [];
  const parts = value.map((item, index) => checkTextOrImagePart(item, [index], issues));
  return issues.length > 0 ? undefined : (parts as Exclude<ToolCallResultContent, string>);
}

function processOutput(
  tool: ToolResultSource,
  config: OutputToStringConfig,
  result: unknown,
  options: ToolResultToStringOptions,
): ToolCallResultContent {
  const value = config.source !== undefined && isRecord(result) ? result[config.source] : result;
  const handler = config.handler;
  if (handler === undefined) {
    if (config.rawResult === true) return asContent(value) ?? stringifyToolResult(value, options.logger);
    return stringifyToolResult(value, options.logger);
  }
  let converted: unknown;
  try {
    converted = handler(value);
  } catch (error) {
    if (options.raiseOnFailure === true) {
      throw new ToolInvocationError(
        `Tool "${excerpt(tool.name)}": its outputsToString handler failed: ${error instanceof Error ? error.message : String(error)}`,
        { toolName: tool.name, cause: error },
      );
    }
    options.logger?.warn(
      `Tool "${excerpt(tool.name)}": outputsToString handler failed; falling back to string conversion.`,
      {
        tool: tool.name,
        error: error instanceof Error ? error.message : String(error),
      },
    );
    return stringifyToolResult(value, options.logger);
  }
  return asContent(converted) ?? stringifyToolResult(converted, options.logger);
}

/**
 * Turns a tool result into the content of the tool message the model reads, following the tool's
 * `outputsToString` (the reference's rules):
 *
 * - none: strings unchanged, anything else as JSON;
 * - `{ source?, handler?, rawResult? }`: take `result[source]` (object results), apply `handler`;
 *   with `rawResult` and no handler, text/image part lists are passed through unconverted;
 * - `{ name: { source, handler? } }`: each entry is converted as above and the collected object is
 *   sent as JSON.
 *
 * A failing handler falls back to the default conversion with a warning, or raises with `raiseOnFailure`.
 *
 * @param tool - the tool (its name and `outputsToString`)
 * @param result - what the tool's function returned
 * @param options - `raiseOnFailure`, `logger`
 * @example
 * ```ts
 * const content = toolResultToString(search, await search.invoke(args));
 * ChatMessage.fromTool(content, toolCall);
 * ```
 */
export function toolResultToString(
  tool: ToolResultSource,
  result: unknown,
  options: ToolResultToStringOptions = {},
): ToolCallResultContent {
  const config = tool.outputsToString;
  options = options.logger === undefined ? { ...options, logger: getDefaultLogger() } : options;
  if (config === undefined || Object.keys(config).length === 0)
    return stringifyToolResult(result, options.logger);
  if (isSingleOutputConfig(config)) return processOutput(tool, config, result, options);
  const collected: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(config)) {
    collected[key] = processOutput(tool, { source: entry.source, handler: entry.handler }, result, options);
  }
  return stringifyToolResult(collected, options.logger);
}
