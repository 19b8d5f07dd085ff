import type { Issue } from "@junction/core";
import { excerpt } from "@junction/core";
import { isRecord } from "../messages/content-part-checks.js";

/** Merges a value into a State key: `(current, incoming) => merged`. Agents' `mergeLists` / `replaceValues` fit. */
export type StateMergeHandler = (current: unknown, incoming: unknown) => unknown;

/** Where one State key gets its value from a tool result. */
export interface OutputToState {
  /** The result key to take (the whole result when omitted). Only applies when the result is an object. */
  readonly source?: string | undefined;
  /** Overrides the State key's merge handler for this tool. */
  readonly handler?: StateMergeHandler | undefined;
}

/** Turns (part of) a tool result into what the model reads. */
export type OutputHandler = (value: unknown) => unknown;

/** Single-output form of `outputsToString`: `source`, `handler` and/or `rawResult` at the root. */
export interface OutputToStringConfig {
  /** The result key to convert (the whole result when omitted). */
  readonly source?: string | undefined;
  /** Converts the value; its return is sent to the model (strings as-is, anything else as JSON). */
  readonly handler?: OutputHandler | undefined;
  /** Without a handler, send the value unconverted (for results that are lists of text/image parts). */
  readonly rawResult?: boolean | undefined;
}

/** One entry of the multi-output form of `outputsToString`. */
export interface NamedOutputToString {
  /** The result key to convert (required). */
  readonly source: string;
  /** Converts the value. */
  readonly handler?: OutputHandler | undefined;
}

/**
 * How a tool result becomes the tool message the model reads: one config at the root, or one entry per
 * output name (the entries' strings are collected into an object and sent as JSON).
 */
export type OutputsToString = OutputToStringConfig | Readonly<Record<string, NamedOutputToString>>;

const singleKeys = new Set(["source", "handler", "rawResult"]);

/** True for the single-output form (any of `source` / `handler` / `rawResult` at the root). */
export function isSingleOutputConfig(config: OutputsToString): config is OutputToStringConfig {
  return "source" in config || "handler" in config || "rawResult" in config;
}

function checkSourceAndHandler(config: Record<string, unknown>, path: (string | number)[], issues: Issue[]) {
  if (config.source !== undefined && typeof config.source !== "string")
    issues.push({ path: [...path, "source"], message: "must be a string (a key of the tool's result)." });
  if (config.handler !== undefined && typeof config.handler !== "function")
    issues.push({ path: [...path, "handler"], message: "must be a function." });
}

/** Checks `outputsToString`, recording every problem. */
export function checkOutputsToString(config: unknown, issues: Issue[]): void {
  const path = ["outputsToString"];
  if (!isRecord(config)) {
    issues.push({ path, message: "must be an object." });
    return;
  }
  if (isSingleOutputConfig(config as OutputsToString)) {
    checkSourceAndHandler(config, path, issues);
    if (config.rawResult !== undefined && typeof config.rawResult !== "boolean")
      issues.push({ path: [...path, "rawResult"], message: "must be a boolean." });
    for (const key of Object.keys(config))
      if (!singleKeys.has(key))
        issues.push({
          path: [...path, key],
          message:
            "with `source`, `handler` or `rawResult` at the root no other keys are allowed; use the per-output form { name: { source, handler? } } instead.",
        });
    return;
  }
  for (const [key, entry] of Object.entries(config)) {
    if (!isRecord(entry)) {
      issues.push({ path: [...path, key], message: "must be an object { source, handler? }." });
      continue;
    }
    checkSourceAndHandler(entry, [...path, key], issues);
    if (entry.source === undefined)
      issues.push({ path: [...path, key, "source"], message: "is required in the per-output form." });
    if ("rawResult" in entry)
      issues.push({ path: [...path, key, "rawResult"], message: "is not supported in the per-output form." });
  }
}

/** Checks `outputsToState`, recording every problem; `validOutputs` restricts `source` when known. */
export function checkOutputsToState(
  toolName: string,
  config: unknown,
  validOutputs: readonly string[] | undefined,
  issues: Issue[],
): void {
  if (!isRecord(config)) {
    issues.push({
      path: ["outputsToState"],
      message: "must be an object { stateKey: { source?, handler? } }.",
    });
    return;
  }
  for (const [stateKey, entry] of Object.entries(config)) {
    const path = ["outputsToState", stateKey];
    if (!isRecord(entry)) {
      issues.push({ path, message: "must be an object { source?, handler? }." });
      continue;
    }
    checkSourceAndHandler(entry, path, issues);
    if (
      typeof entry.source === "string" &&
      validOutputs !== undefined &&
      !validOutputs.includes(entry.source)
    )
      issues.push({
        path: [...path, "source"],
        message: `"${excerpt(toolName)}" maps state key "${excerpt(stateKey)}" to unknown output "${excerpt(entry.source)}". Valid outputs: ${validOutputs.map((name) => `"${excerpt(name)}"`).join(", ")}.`,
      });
  }
}

/** Checks `inputsFromState` targets against the parameter names. */
export function checkInputsFromState(config: unknown, parameters: readonly string[], issues: Issue[]): void {
  if (!isRecord(config)) {
    issues.push({ path: ["inputsFromState"], message: "must be an object { stateKey: parameterName }." });
    return;
  }
  for (const [stateKey, target] of Object.entries(config)) {
    if (typeof target !== "string")
      issues.push({ path: ["inputsFromState", stateKey], message: "must be a parameter name (a string)." });
    else if (!parameters.includes(target))
      issues.push({
        path: ["inputsFromState", stateKey],
        message: `maps to unknown parameter "${excerpt(target)}". Valid parameters: ${parameters.map((name) => `"${excerpt(name)}"`).join(", ") || "none"}.`,
      });
  }
}
