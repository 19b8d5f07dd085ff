import { z } from "zod";
import { JunctionError } from "../errors/errors.js";

/** A value JSON can hold. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

/**
 * A pending interrupt: a point where a run stopped and waits for a decision. Its `id` is a path that is
 * deterministic and unique within the run: `<component>#<visit>` for each pipeline level, then what the
 * component adds (the Agent adds `s<step>/<toolCallId>`), e.g. `"agent#1/s2/call_9"`.
 */
export interface Interrupt {
  /** The interrupt's id (decisions are keyed by it). */
  readonly id: string;
  /** `"tool_approval"` for a tool call waiting for approval; `"component"` for any other interrupt. */
  readonly kind: "tool_approval" | "component";
  /** The component names from the root to the component that interrupted (empty for a direct run). */
  readonly path: readonly string[];
  /** The tool call waiting for approval (`tool_approval` only). */
  readonly callId?: string | undefined;
  /** The tool's name (`tool_approval` only). */
  readonly tool?: string | undefined;
  /** The call's arguments, as the model sent them (`tool_approval` only). */
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
  /** `"sha256:…"` of the canonical JSON of `arguments`: a decision may carry it to bind itself to them. */
  readonly argsHash?: string | undefined;
  /** What the component or hook wants the person to see (JSON). */
  readonly payload?: unknown;
  /** What asked for the interrupt: `"needsApproval"`, `"hook"`, or the component's type. */
  readonly by?: string | undefined;
}

/** What a component passes to `context.interrupt`: one request per interrupt, ids local to the component. */
export interface InterruptRequest {
  /** The id within the component (`""` for the component's only interrupt). */
  readonly id: string;
  /** Component names inside this component, for an interrupt of a nested run (a `SuperComponent`). */
  readonly path?: readonly string[] | undefined;
  /** Default `"component"`. */
  readonly kind?: Interrupt["kind"] | undefined;
  readonly callId?: string | undefined;
  readonly tool?: string | undefined;
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
  readonly payload?: unknown;
  readonly by?: string | undefined;
}

/** Fields every decision may carry: who decided, when, and the arguments hash it was made for. */
const decisionBase = {
  /** Binds the decision to the arguments it was made for; a different hash fails the resume. */
  argsHash: z.string().optional(),
  /** Who decided (free text, kept in the snapshot history). */
  by: z.string().optional(),
  /** When (ISO 8601, free text). */
  at: z.string().optional(),
};

/** The zod schema of a {@link Decision}. */
export const decisionSchema = z.discriminatedUnion("action", [
  z.strictObject({
    action: z.literal("approve"),
    scope: z.enum(["once", "run"]).optional(),
    ...decisionBase,
  }),
  z.strictObject({
    action: z.literal("edit"),
    arguments: z.record(z.string(), z.unknown()),
    ...decisionBase,
  }),
  z.strictObject({
    action: z.literal("reject"),
    message: z.string().optional(),
    scope: z.enum(["once", "run"]).optional(),
    ...decisionBase,
  }),
  z.strictObject({ action: z.literal("respond"), value: z.unknown(), ...decisionBase }),
]);

/**
 * A person's answer to an interrupt.
 *
 * - `approve`: run the tool call (`scope: "run"` approves every later call of the same tool in this run);
 * - `edit`: run it with these arguments instead (validated against the tool's parameters);
 * - `reject`: do not run it; the model gets an error tool result with `message`
 *   (`scope: "run"` rejects every later call of the same tool);
 * - `respond`: the answer to a component's interrupt (for a tool call: the tool result, the tool does not run).
 */
export type Decision = z.output<typeof decisionSchema>;

/** Decisions keyed by interrupt id. */
export type Decisions = Readonly<Record<string, Decision>>;

/** What a component sees on `context.resume` when it runs again after an interrupt. */
export interface ResumeContext {
  /** The decisions for this component's interrupts, keyed by the ids it gave (local ids). */
  readonly decisions: Decisions;
  /** The JSON state the component passed with its interrupt (`undefined` when it passed none). */
  readonly state: unknown;
  /** The `value` of a `respond` decision for the component's only interrupt (id `""`). */
  readonly response: unknown;
}

/** What `context.interrupt` takes. */
export interface InterruptOptions {
  /** The interrupts; default: one interrupt with id `""` carrying `payload`. */
  readonly interrupts?: readonly InterruptRequest[] | undefined;
  /** Shown to the person (default form only). */
  readonly payload?: unknown;
  /** JSON the component gets back as `context.resume.state`, so it can continue where it stopped. */
  readonly state?: unknown;
}

/**
 * What `context.interrupt(...)` throws: the component stops, and the run around it (a pipeline, or a
 * direct `component.run`) turns it into a snapshot and a {@link RunInterruptedError}. Let it propagate;
 * code that catches errors around a nested run must rethrow it (`ComponentInterrupt.isInstance`).
 */
export class ComponentInterrupt extends JunctionError {
  /** The interrupts, with ids local to the component. */
  readonly interrupts: readonly InterruptRequest[];
  /** The component's state to resume from (JSON). */
  readonly state: unknown;

  /** @param interrupts - local interrupt requests @param state - the component's resume state */
  constructor(interrupts: readonly InterruptRequest[], state: unknown) {
    super(
      "COMPONENT_INTERRUPTED",
      `A component interrupted (${interrupts.map((item) => JSON.stringify(item.id)).join(", ")}). Run it through Pipeline.run or component.run, which turn this into a RunInterruptedError with a snapshot.`,
    );
    this.interrupts = interrupts;
    this.state = state;
  }

  /** True for a {@link ComponentInterrupt}, even one from another copy of this package. */
  static override isInstance(value: unknown): value is ComponentInterrupt {
    return JunctionError.isInstance(value) && value.code === "COMPONENT_INTERRUPTED";
  }
}

/** Throws a {@link ComponentInterrupt}; the implementation behind `context.interrupt`. */
export function throwInterrupt(options: InterruptOptions = {}): never {
  const requests = options.interrupts ?? [{ id: "", payload: options.payload }];
  if (requests.length === 0) {
    throw new TypeError("context.interrupt: give at least one interrupt (or none, for the default one).");
  }
  const ids = new Set<string>();
  for (const request of requests) {
    if (typeof request.id !== "string" || ids.has(request.id)) {
      throw new TypeError(
        `context.interrupt: interrupt ids must be distinct strings; got ${JSON.stringify(request.id)} twice or not a string.`,
      );
    }
    ids.add(request.id);
  }
  throw new ComponentInterrupt(requests, options.state);
}

/** Joins a prefix and a local id into an interrupt id. */
export function joinInterruptId(prefix: string, local: string): string {
  if (prefix === "") return local === "" ? "root" : local;
  return local === "" ? prefix : `${prefix}/${local}`;
}
