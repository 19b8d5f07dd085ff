import type { Issue } from "@junction/core";
import {
  describeValueProblem,
  describeValueProblemFix,
  findValueProblem,
  quoteExcerpt,
} from "@junction/core";
import type {
  ContentPart,
  ImageContent,
  ImagePart,
  ReasoningContent,
  TextPart,
  ToolCall,
  ToolCallResult,
  ToolCallResultContent,
} from "./content-parts.js";

/** Internal: checks parts and returns frozen copies, collecting problems instead of throwing. */

type Path = readonly (string | number)[];

const base64Pattern = /^[A-Za-z0-9+/_-]*={0,2}$/;
const imageDetails = new Set(["auto", "high", "low"]);

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A shallow copy of a record, as `{ ...value }` makes it (a `"__proto__"` key is copied as data) but
 * built with `Object.assign`: on Node 20 an object made by a spread becomes slow (~1 µs) to freeze or
 * to add a key to, which messages do on every model and tool turn.
 */
export function copyRecord<T extends object>(value: T): T {
  if (Object.hasOwn(value, "__proto__")) return { ...value };
  return Object.assign({}, value);
}

/**
 * Records an issue when a free-form value of a message (tool call arguments, `extra`, `meta`) nests
 * deeper than core's `maxValueDepth` or holds a huge sparse array: every later `JSON.stringify` of the
 * message (a conversation store, serve, a snapshot) would otherwise throw a `RangeError`. Small values
 * are measured without allocating (the agent step builds a message per model reply and tool result).
 *
 * @returns false when an issue was recorded
 */
export function checkValueLimits(value: object, path: Path, issues: Issue[], what = "the value"): boolean {
  const problem = findValueProblem(value);
  if (problem === undefined) return true;
  issues.push({
    path,
    message: `${what} ${describeValueProblem(problem)}. ${describeValueProblemFix(problem)}`,
  });
  return false;
}

function freezeRecord(value: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return Object.isFrozen(value) ? value : Object.freeze(copyRecord(value));
}

/** Checks a tool call; returns a frozen copy or `undefined` after recording issues. */
export function checkToolCall(value: unknown, path: Path, issues: Issue[]): ToolCall | undefined {
  if (!isRecord(value)) {
    issues.push({ path, message: "a tool call must be an object { toolName, arguments, id?, extra? }." });
    return undefined;
  }
  const before = issues.length;
  const { toolName, arguments: args, id, extra } = value;
  if (typeof toolName !== "string" || toolName === "")
    issues.push({ path: [...path, "toolName"], message: "must be a non-empty string." });
  if (!isRecord(args))
    issues.push({ path: [...path, "arguments"], message: "must be an object of argument values." });
  if (id !== undefined && id !== null && typeof id !== "string")
    issues.push({ path: [...path, "id"], message: "must be a string when given." });
  if (extra !== undefined && extra !== null && !isRecord(extra))
    issues.push({ path: [...path, "extra"], message: "must be an object when given." });
  if (issues.length > before) return undefined;
  // Measured first, paths built only for a problem (this runs for every tool call a model makes).
  if (findValueProblem(args) !== undefined || (isRecord(extra) && findValueProblem(extra) !== undefined)) {
    checkValueLimits(args as Record<string, unknown>, [...path, "arguments"], issues);
    if (isRecord(extra)) checkValueLimits(extra, [...path, "extra"], issues);
    return undefined;
  }
  const call: {
    toolName: string;
    arguments: Readonly<Record<string, unknown>>;
    id?: string;
    extra?: object;
  } = {
    toolName: toolName as string,
    arguments: freezeRecord(args as Record<string, unknown>),
  };
  if (typeof id === "string") call.id = id;
  if (isRecord(extra)) call.extra = freezeRecord(extra);
  // Built key by key, not with spreads: cheaper to make and to freeze (see copyRecord).
  return Object.freeze(call) as ToolCall;
}

/**
 * A tool call that is already a checked, frozen one (a call taken from a message, answered by a tool
 * result): kept as it is instead of copied again. `undefined` for anything else.
 */
function checkedToolCall(value: unknown): ToolCall | undefined {
  if (!isRecord(value) || !Object.isFrozen(value)) return undefined;
  const { toolName, arguments: args, id, extra } = value;
  if (typeof toolName !== "string" || toolName === "" || !isRecord(args) || !Object.isFrozen(args))
    return undefined;
  if (id !== undefined && typeof id !== "string") return undefined;
  if (extra !== undefined && !(isRecord(extra) && Object.isFrozen(extra))) return undefined;
  return value as unknown as ToolCall;
}

/** Checks an image; returns a frozen copy or `undefined` after recording issues. */
export function checkImage(value: unknown, path: Path, issues: Issue[]): ImageContent | undefined {
  if (!isRecord(value)) {
    issues.push({ path, message: "an image must be an object { base64Image, mimeType?, detail?, meta? }." });
    return undefined;
  }
  const before = issues.length;
  const { base64Image, mimeType, detail, meta } = value;
  if (typeof base64Image !== "string" || base64Image === "" || !base64Pattern.test(base64Image))
    issues.push({
      path: [...path, "base64Image"],
      message: "must be a non-empty base64 string (without a data: prefix).",
    });
  if (
    mimeType !== undefined &&
    mimeType !== null &&
    (typeof mimeType !== "string" || !mimeType.startsWith("image/"))
  )
    issues.push({ path: [...path, "mimeType"], message: `must be an image MIME type such as "image/png".` });
  if (detail !== undefined && detail !== null && !imageDetails.has(detail as string))
    issues.push({ path: [...path, "detail"], message: `must be "auto", "high" or "low".` });
  if (meta !== undefined && meta !== null && !isRecord(meta))
    issues.push({ path: [...path, "meta"], message: "must be an object when given." });
  else if (isRecord(meta)) checkValueLimits(meta, [...path, "meta"], issues);
  if (issues.length > before) return undefined;
  return Object.freeze({
    base64Image: base64Image as string,
    ...(typeof mimeType === "string" ? { mimeType } : {}),
    ...(typeof detail === "string" ? { detail: detail as "auto" | "high" | "low" } : {}),
    ...(isRecord(meta) ? { meta: freezeRecord(meta) } : {}),
  });
}

/** Checks reasoning content (a string is accepted as the reasoning text). */
export function checkReasoning(value: unknown, path: Path, issues: Issue[]): ReasoningContent | undefined {
  if (typeof value === "string") return Object.freeze({ reasoningText: value, extra: Object.freeze({}) });
  if (!isRecord(value) || typeof value.reasoningText !== "string") {
    issues.push({ path, message: "reasoning must be a string or an object { reasoningText, extra? }." });
    return undefined;
  }
  if (value.extra !== undefined && !isRecord(value.extra)) {
    issues.push({ path: [...path, "extra"], message: "must be an object when given." });
    return undefined;
  }
  if (value.extra !== undefined && !checkValueLimits(value.extra, [...path, "extra"], issues))
    return undefined;
  return Object.freeze({
    reasoningText: value.reasoningText,
    extra: freezeRecord((value.extra as Record<string, unknown> | undefined) ?? {}),
  });
}

/** Checks a text or image part (a string is a text part). */
export function checkTextOrImagePart(
  value: unknown,
  path: Path,
  issues: Issue[],
): TextPart | ImagePart | undefined {
  if (typeof value === "string") return Object.freeze({ type: "text", text: value });
  if (isRecord(value) && value.type === "text" && typeof value.text === "string")
    return Object.freeze({ type: "text", text: value.text });
  if (isRecord(value) && value.type === "image") {
    const image = checkImage(value.image, [...path, "image"], issues);
    return image === undefined ? undefined : Object.freeze({ type: "image", image });
  }
  issues.push({
    path,
    message: `expected a string, { type: "text", text } or { type: "image", image }.`,
  });
  return undefined;
}

function checkResultContent(value: unknown, path: Path, issues: Issue[]): ToolCallResultContent | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const before = issues.length;
    const parts = value.map((item, index) => checkTextOrImagePart(item, [...path, index], issues));
    return issues.length > before ? undefined : Object.freeze(parts as (TextPart | ImagePart)[]);
  }
  issues.push({ path, message: "a tool result must be a string or a list of text and image parts." });
  return undefined;
}

/** Checks a tool call result; returns a frozen copy or `undefined` after recording issues. */
export function checkToolCallResult(value: unknown, path: Path, issues: Issue[]): ToolCallResult | undefined {
  if (!isRecord(value)) {
    issues.push({ path, message: "a tool call result must be an object { result, origin, error }." });
    return undefined;
  }
  const before = issues.length;
  const raw = value.result;
  // Paths are built only when a part needs checking (a result is usually a string).
  const result = typeof raw === "string" ? raw : checkResultContent(raw, [...path, "result"], issues);
  const origin = checkedToolCall(value.origin) ?? checkToolCall(value.origin, [...path, "origin"], issues);
  if (typeof value.error !== "boolean")
    issues.push({ path: [...path, "error"], message: "must be a boolean." });
  if (issues.length > before || result === undefined || origin === undefined) return undefined;
  return Object.freeze({ result, origin, error: value.error as boolean });
}

/** Checks any content part; returns a frozen copy or `undefined` after recording issues. */
export function checkPart(value: unknown, path: Path, issues: Issue[]): ContentPart | undefined {
  if (!isRecord(value)) {
    issues.push({ path, message: "a content part must be an object with a `type`." });
    return undefined;
  }
  switch (value.type) {
    case "text":
    case "image":
      return checkTextOrImagePart(value, path, issues);
    case "tool_call": {
      const toolCall = checkToolCall(value.toolCall, [...path, "toolCall"], issues);
      return toolCall && Object.freeze({ type: "tool_call", toolCall });
    }
    case "tool_call_result": {
      const toolCallResult = checkToolCallResult(value.toolCallResult, [...path, "toolCallResult"], issues);
      return toolCallResult && Object.freeze({ type: "tool_call_result", toolCallResult });
    }
    case "reasoning": {
      const reasoning = checkReasoning(value.reasoning, [...path, "reasoning"], issues);
      return reasoning && Object.freeze({ type: "reasoning", reasoning });
    }
    default:
      issues.push({
        path: [...path, "type"],
        message: `unknown part type ${quoteExcerpt(value.type)}; expected "text", "image", "tool_call", "tool_call_result" or "reasoning".`,
      });
      return undefined;
  }
}
