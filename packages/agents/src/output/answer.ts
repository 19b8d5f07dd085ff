import { formatIssues, type Issue } from "@junction/core";
import type { ToolCall } from "@junction/llm";
import type { OutputSpec } from "./output-schema.js";

/**
 * Checking a model's answer against the output schema. An answer is never accepted unless the schema
 * parses it; the problems (with paths) are what the model is told and what `output_issues` holds.
 */

/** The outcome of checking one answer. */
export type AnswerVerdict =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly Issue[]; readonly kind: "json" | "schema" | "missing" };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const fence = /^```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)\n?```$/;

/** Checks a parsed candidate (the model's JSON) against the schema, unwrapping `{ value }` when wrapped. */
export function checkAnswer(spec: OutputSpec, candidate: unknown): AnswerVerdict {
  let value = candidate;
  if (spec.wrapped) {
    if (!isRecord(candidate) || !Object.hasOwn(candidate, "value")) {
      return {
        ok: false,
        kind: "schema",
        issues: [{ path: [], message: 'expected an object { "value": <answer> }.' }],
      };
    }
    value = candidate.value;
  }
  const parsed = spec.schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    kind: "schema",
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
      message: issue.message,
    })),
  };
}

/** Checks a text answer: JSON (a surrounding Markdown code fence is tolerated), then the schema. */
export function checkTextAnswer(spec: OutputSpec, text: string | undefined): AnswerVerdict {
  const trimmed = (text ?? "").trim();
  if (trimmed === "") {
    return { ok: false, kind: "missing", issues: [{ path: [], message: "the reply has no answer." }] };
  }
  const source = fence.exec(trimmed)?.[1] ?? trimmed;
  let candidate: unknown;
  try {
    candidate = JSON.parse(source);
  } catch (error) {
    return {
      ok: false,
      kind: "json",
      issues: [{ path: [], message: `the reply is not valid JSON (${(error as Error).message}).` }],
    };
  }
  return checkAnswer(spec, candidate);
}

/** Checks the arguments of a final-answer tool call (arguments a generator could not parse are invalid JSON). */
export function checkToolAnswer(spec: OutputSpec, call: ToolCall): AnswerVerdict {
  const malformed = call.extra?.malformed_arguments;
  if (typeof malformed === "string") {
    const reason = typeof call.extra?.arguments_error === "string" ? ` (${call.extra.arguments_error})` : "";
    return {
      ok: false,
      kind: "json",
      issues: [{ path: [], message: `the arguments are not valid JSON${reason}.` }],
    };
  }
  return checkAnswer(spec, call.arguments);
}

function issueList(spec: OutputSpec, issues: readonly Issue[]): string {
  const shown = spec.wrapped ? issues.map((issue) => ({ ...issue, path: ["value", ...issue.path] })) : issues;
  return `(${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(shown)}`;
}

/** The tool-error text for an invalid final-answer call. */
export function toolRepairText(spec: OutputSpec, issues: readonly Issue[]): string {
  return `Invalid final answer ${issueList(spec, issues)}\nCall "${spec.tool.name}" again with arguments that match its schema.`;
}

/** The user message sent after an invalid text answer. */
export function textRepairText(
  spec: OutputSpec,
  verdict: Extract<AnswerVerdict, { ok: false }>,
  strategy: "tool" | "responseFormat",
): string {
  if (strategy === "tool" && verdict.kind !== "schema") {
    return `To give your final answer, call the "${spec.tool.name}" tool with the answer as its arguments.`;
  }
  if (verdict.kind !== "schema") {
    return `Your answer is not a JSON value ${issueList(spec, verdict.issues)}\nReply with only JSON that matches the required schema.`;
  }
  const fix =
    strategy === "tool"
      ? `Call the "${spec.tool.name}" tool with a corrected answer.`
      : "Reply again with only the corrected JSON.";
  return `Your answer does not match the required schema ${issueList(spec, verdict.issues)}\n${fix}`;
}
