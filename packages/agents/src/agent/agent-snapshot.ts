import {
  DeserializationError,
  formatIssues,
  fromSnapshotJSON,
  type Issue,
  SerializationError,
  toSnapshotJSON,
} from "@junction/core";
import { z } from "zod";
import { State } from "../state/state.js";
import type { StateSchema } from "../state/state-schema.js";
import { conversationTurnSchema } from "./conversation.js";

/**
 * The Agent's part of a run snapshot: where its loop stopped, as data. The pending tool calls are the
 * last assistant message of `state.messages`; `calls` records which of them wait for a decision.
 * Tools, the generator, hooks and callbacks are never in it: they come from the Agent on resume.
 */

/** A call's standing decision for the rest of the run (`scope: "run"`). */
const stickySchema = z.discriminatedUnion("action", [
  z.strictObject({ action: z.literal("approve") }),
  z.strictObject({ action: z.literal("reject"), message: z.string().optional() }),
]);

/** The zod schema of the Agent's resume state. */
export const agentSnapshotSchema = z
  .strictObject({
    kind: z.literal("junction.Agent"),
    version: z.literal(1),
    at: z.literal("beforeTool").describe("The pause point: after the beforeTool hooks, before any tool ran."),
    step: z.number().int().min(0).describe("Steps completed before the paused one."),
    state: z.record(z.string(), z.unknown()).describe("The State's data (JSON), every key."),
    calls: z
      .array(
        z.strictObject({
          index: z.number().int().min(0),
          tool: z.string(),
          gate: z.string().optional().describe("The local interrupt id when the call waits for a decision."),
          argsHash: z.string().optional(),
          rejected: z
            .string()
            .optional()
            .describe('Rejected by a standing decision (scope "run"): the message.'),
        }),
      )
      .describe("The pending tool calls of the paused step, in call order."),
    sticky: z.record(z.string(), stickySchema).describe('Decisions made with scope "run", by tool name.'),
    stopReason: z.string().optional().describe("A control.stop(reason) made before the pause."),
    conversation: conversationTurnSchema.optional(),
  })
  .meta({ title: "Junction Agent resume state" });

/** The Agent's resume state. */
export type AgentSnapshot = z.output<typeof agentSnapshotSchema>;
/** A standing decision. */
export type StickyDecision = z.output<typeof stickySchema>;

/** The JSON form of every key of `state`. */
export function stateDataToJSON(state: State, keys: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const key of keys) {
    if (!state.has(key)) continue;
    const value = toSnapshotJSON(state.get(key), [key], issues);
    if (value !== undefined) out[key] = value;
  }
  if (issues.length > 0) {
    throw new SerializationError(
      `Agent: the State cannot be saved in a run snapshot:\n${formatIssues(issues)}\nState values must have a JSON form (named types such as ChatMessage do).`,
      { issues },
    );
  }
  return out;
}

/** Reads the Agent's resume state (untrusted: validated, then the State checks every value). */
export function readAgentSnapshot(
  doc: unknown,
  schema: StateSchema,
): { snapshot: AgentSnapshot; state: State } {
  const parsed = agentSnapshotSchema.safeParse(doc);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
      message: issue.message,
    }));
    throw new DeserializationError(
      `Agent.resume: the snapshot's agent state is invalid:\n${formatIssues(issues)}`,
      {
        issues,
      },
    );
  }
  const data: Record<string, unknown> = {};
  const issues: Issue[] = [];
  for (const [key, value] of Object.entries(parsed.data.state)) {
    const spec = schema[key];
    if (spec === undefined) {
      issues.push({ path: ["state", key], message: `the Agent has no State key "${key}".` });
      continue;
    }
    try {
      data[key] = fromSnapshotJSON(spec.type, value);
    } catch (error) {
      issues.push({ path: ["state", key], message: error instanceof Error ? error.message : String(error) });
    }
  }
  if (issues.length > 0) {
    throw new DeserializationError(
      `Agent.resume: the snapshot's State does not fit this Agent:\n${formatIssues(issues)}`,
      {
        issues,
      },
    );
  }
  return { snapshot: parsed.data, state: new State({ schema, data }) };
}

/** The JSON Schema (draft 2020-12) of the Agent's resume state (`component` of a direct Agent run's snapshot). */
export function agentSnapshotJSONSchema(): Record<string, unknown> {
  return z.toJSONSchema(agentSnapshotSchema, { io: "input", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
}
