import { z } from "zod";
import { decisionSchema } from "./interrupt.js";

/** The format name every snapshot carries. */
export const runSnapshotFormat = "junction.run-snapshot";

/** Run ids are used as file and directory names: letters, digits, `_`, `-`, `.`; no leading dot. */
export const runIdPattern: RegExp = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

const runIdSchema = z.string().regex(runIdPattern).describe("The run's id (also its store key).");
const hashSchema = z.string().max(200);

const interruptSchema = z
  .strictObject({
    id: z.string().max(2000).describe("Deterministic path: <component>#<visit>/…/<local id>."),
    kind: z.enum(["tool_approval", "component"]),
    path: z.array(z.string().max(500)).max(64).describe("Component names from the root."),
    callId: z.string().max(500).optional(),
    tool: z.string().max(200).optional(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    argsHash: hashSchema.optional(),
    payload: z.unknown().optional(),
    by: z.string().max(200).optional(),
  })
  .describe("A pending interrupt.");

const entrySchema = z
  .strictObject({
    from: z.string().nullable().describe("The sending component; null for the caller's input."),
    value: z.unknown().optional(),
    noOutput: z.literal(true).optional().describe("The sender ran without producing this output."),
  })
  .describe("One value waiting in an input socket.");

const pausedComponentSchema = z.strictObject({
  visit: z.number().int().min(1),
  state: z.unknown().optional().describe("The component's own resume state (the Agent's loop state)."),
});

const leaseSchema = z.strictObject({
  owner: z.string().max(300).describe("A unique id of the process that runs the run."),
  host: z.string().max(300).describe("The host name of that process."),
  pid: z.number().int().min(0).describe("Its process id."),
  ms: z
    .number()
    .int()
    .min(1)
    .describe("How long the lease lasts after the runner's last write (this snapshot, or a later delta)."),
});

/** One journaled step: its deterministic name and its result (`toDurableJSON`). */
export const journalEntrySchema = z.strictObject({
  step: z.string().max(4000),
  value: z.unknown(),
});

/** The pipeline part of a snapshot: the run state at a wave boundary (see docs/interrupts.md). */
export const pipelineSectionSchema = z
  .strictObject({
    sockets: z
      .record(z.string(), z.record(z.string(), z.array(entrySchema)))
      .describe("What each input socket holds, by component and socket."),
    visits: z.record(z.string(), z.number().int().min(0)).describe("Runs per component so far."),
    outputs: z.record(z.string(), z.record(z.string(), z.unknown())).describe("The run's outputs so far."),
    promoted: z.array(z.string()).describe('Sockets ("component.socket") promoted to lazy variadic.'),
    includeOutputsFrom: z.array(z.string()),
    wave: z.array(z.string()).describe("The members of the interrupted wave still to commit, in order."),
    finished: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .describe("Members of `wave` that finished before the pause: their outputs, committed on resume."),
    paused: z.record(z.string(), pausedComponentSchema).describe("The members that interrupted."),
  })
  .describe("A pipeline run paused between waves.");

/** The zod schema the snapshot loader validates with (after an untrusted-data copy). */
export const runSnapshotSchema = z
  .strictObject({
    format: z.literal(runSnapshotFormat),
    version: z.literal(1),
    runId: runIdSchema,
    seq: z.number().int().min(1).describe("The store version; saves compare-and-swap on it."),
    parent: z.number().int().min(1).nullable().describe("The previous snapshot of this run."),
    branchOf: z
      .strictObject({ runId: runIdSchema, seq: z.number().int().min(1) })
      .optional()
      .describe("Set when the run was resumed from an older snapshot of another run (time travel)."),
    status: z.enum(["running", "interrupted", "completed", "failed"]),
    createdAt: z.string().max(100),
    root: z.strictObject({
      kind: z.enum(["pipeline", "component"]),
      type: z.string().max(500),
      fingerprint: hashSchema.describe("Hash of the pipeline or component definition."),
    }),
    inputs: z.record(z.string(), z.unknown()).describe("The original run inputs (JSON)."),
    pipeline: pipelineSectionSchema.optional(),
    component: z.unknown().optional().describe("A directly run component's resume state."),
    interrupts: z.array(interruptSchema).describe("Pending interrupts."),
    decisions: z
      .record(z.string(), decisionSchema)
      .describe("Decisions applied by the resume that wrote this."),
    outputs: z.record(z.string(), z.unknown()).optional().describe("A completed run's outputs (JSON)."),
    error: z.string().max(20_000).optional().describe("Why a failed run failed."),
    steps: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Deltas written after this snapshot (durability "steps").'),
    durability: z
      .enum(["interrupts", "steps"])
      .optional()
      .describe(
        'How the run is written: "steps" journals every step\'s result as a delta after this snapshot.',
      ),
    lease: leaseSchema
      .optional()
      .describe("Who runs a `running` run, so a crashed runner's run can be taken over."),
    journal: z
      .array(journalEntrySchema)
      .max(1_000_000)
      .optional()
      .describe(
        "Steps that finished before this snapshot (a run taken over after a crash): replayed, not re-run.",
      ),
    includeOutputsFrom: z
      .array(z.string().max(500))
      .max(10_000)
      .optional()
      .describe('A pipeline run\'s includeOutputsFrom (kept for a run started with durability "steps").'),
    signature: z.string().max(200).optional().describe("hmac-sha256 over the canonical JSON without it."),
  })
  .meta({
    title: "Junction run snapshot",
    description:
      "A paused or recorded run, written by RunStore implementations and read by Pipeline.resume / component.resume.",
  });

/** A run snapshot (format `junction.run-snapshot`, version 1): plain JSON data. */
export type RunSnapshot = z.output<typeof runSnapshotSchema>;
/** The pipeline part of a {@link RunSnapshot}. */
export type PipelineSnapshotSection = z.output<typeof pipelineSectionSchema>;
/** A run's status. */
export type RunStatus = RunSnapshot["status"];

/** The JSON Schema (draft 2020-12) of a run snapshot, generated from the loader's zod schema. */
export function runSnapshotJSONSchema(): Record<string, unknown> {
  return z.toJSONSchema(runSnapshotSchema, { io: "input", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
}
