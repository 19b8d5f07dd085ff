import { formatIssues, type Issue, zodIssues } from "../errors/errors.js";
import { hashJSON } from "../json/canonical-json.js";
import { describeDepthLimit, exceedsDepth } from "../json/value-limits.js";
import { RunResumeError } from "../run/errors.js";
import {
  type Decision,
  type Decisions,
  decisionSchema,
  type Interrupt,
  type InterruptRequest,
  joinInterruptId,
  type ResumeContext,
} from "../run/interrupt.js";

function quoteIds(ids: readonly string[]): string {
  return ids.map((id) => JSON.stringify(id)).join(", ");
}

/**
 * Checks the decisions of a resume against the pending interrupts; anything ambiguous fails closed.
 * `resume` calls it first; an adapter that collects decisions before resuming (the Restate `decide`
 * handler) calls it too, so a decision is refused when it is given rather than when the run continues.
 *
 * @param interrupts - the pending interrupts (every one needs a decision)
 * @param decisions - the decisions keyed by interrupt id (untrusted: parsed with `decisionSchema`)
 * @param where - the caller's name for messages, e.g. `"Pipeline.resume"`
 * @example
 * ```ts
 * const parsed = checkDecisions(error.interrupts, { "s1/call_1": { action: "approve" } }, "my-inbox");
 * ```
 * @returns the parsed decisions
 * @throws RunResumeError `RESUME_UNKNOWN_INTERRUPT`, `RESUME_INCOMPLETE`, `RESUME_INVALID_DECISION` or `RESUME_ARGS_CHANGED`
 */
export function checkDecisions(
  interrupts: readonly Interrupt[],
  decisions: unknown,
  where: string,
): Decisions {
  if (typeof decisions !== "object" || decisions === null || Array.isArray(decisions)) {
    throw new RunResumeError(
      "RESUME_INVALID_DECISION",
      `${where}: decisions must be an object keyed by interrupt id, e.g. { "${interrupts[0]?.id ?? "s1/call_1"}": { action: "approve" } }.`,
    );
  }
  const pending = new Map(interrupts.map((item) => [item.id, item]));
  const given = Object.keys(decisions);
  const unknown = given.filter((id) => !pending.has(id));
  if (unknown.length > 0) {
    throw new RunResumeError(
      "RESUME_UNKNOWN_INTERRUPT",
      `${where}: no pending interrupt has the id ${quoteIds(unknown)}. Pending: ${quoteIds([...pending.keys()]) || "none"}.`,
    );
  }
  const missing = [...pending.keys()].filter((id) => !Object.hasOwn(decisions, id));
  if (missing.length > 0) {
    throw new RunResumeError(
      "RESUME_INCOMPLETE",
      `${where}: every pending interrupt needs a decision; missing: ${quoteIds(missing)}.`,
    );
  }
  const issues: Issue[] = [];
  const parsed: Record<string, Decision> = {};
  const changed: string[] = [];
  for (const id of given) {
    const value = (decisions as Record<string, unknown>)[id];
    if (exceedsDepth(value)) {
      issues.push({
        path: [id],
        message: `the decision nests objects and arrays deeper than ${describeDepthLimit()}, the limit for values in a run (maxValueDepth). Send a flatter value.`,
      });
      continue;
    }
    const result = decisionSchema.safeParse(value);
    if (!result.success) {
      issues.push(...zodIssues(result.error, [id]));
      continue;
    }
    const decision = result.data;
    const interrupt = pending.get(id)!;
    if (decision.action === "edit" && interrupt.kind !== "tool_approval") {
      issues.push({ path: [id, "action"], message: '"edit" applies to tool calls only; use "respond".' });
    }
    if (decision.argsHash !== undefined && decision.argsHash !== interrupt.argsHash) changed.push(id);
    parsed[id] = decision;
  }
  if (issues.length > 0) {
    throw new RunResumeError(
      "RESUME_INVALID_DECISION",
      `${where}: invalid decisions:\n${formatIssues(issues)}`,
      {
        issues,
      },
    );
  }
  if (changed.length > 0) {
    throw new RunResumeError(
      "RESUME_ARGS_CHANGED",
      `${where}: the decisions for ${quoteIds(changed)} were made for other arguments (argsHash differs). Show the person the current arguments and decide again.`,
    );
  }
  return parsed;
}

/** The decisions under `prefix`, keyed by their id relative to it (what the component gave). */
export function localDecisions(decisions: Decisions, prefix: string): Decisions {
  const out: Record<string, Decision> = {};
  for (const [id, decision] of Object.entries(decisions)) {
    if (prefix === "") out[id === "root" ? "" : id] = decision;
    else if (id === prefix) out[""] = decision;
    else if (id.startsWith(`${prefix}/`)) out[id.slice(prefix.length + 1)] = decision;
  }
  return out;
}

/** The resume context of a component given its local decisions and saved state. */
export function resumeContext(decisions: Decisions, state: unknown): ResumeContext {
  const only = decisions[""];
  return { decisions, state, response: only?.action === "respond" ? only.value : undefined };
}

/** Turns a component's interrupt requests into run-level interrupts under `prefix` (ids) and `path`. */
export function toInterrupts(
  requests: readonly InterruptRequest[],
  prefix: string,
  path: readonly string[],
): Interrupt[] {
  return requests.map((request) => {
    const interrupt: Record<string, unknown> = {
      id: joinInterruptId(prefix, request.id),
      kind: request.kind ?? "component",
      path: [...path, ...(request.path ?? [])],
    };
    if (request.callId !== undefined) interrupt.callId = request.callId;
    if (request.tool !== undefined) interrupt.tool = request.tool;
    if (request.arguments !== undefined) {
      interrupt.arguments = request.arguments;
      interrupt.argsHash = hashJSON(request.arguments);
    }
    if (request.payload !== undefined) interrupt.payload = request.payload;
    if (request.by !== undefined) interrupt.by = request.by;
    return interrupt as unknown as Interrupt;
  });
}
