import {
  checkDecisions,
  type Decision,
  type Decisions,
  type Interrupt,
  RunResumeError,
} from "@junction/core";
import * as restate from "@restatedev/restate-sdk";

/** What the workflow keeps in its state while it waits: the round and the pending interrupts. */
export interface PendingInterrupts {
  /** 1 for the first pause of the run, 2 for the next, … (names the durable promises). */
  readonly round: number;
  readonly interrupts: readonly Interrupt[];
}

/** The body of the `decide` handler. */
export interface DecideRequest {
  /** Decisions keyed by interrupt id (any subset of the pending ones; each can be decided once). */
  readonly decisions: Decisions;
  /**
   * The definition fingerprint the person saw (from the `interrupts` handler). When given, it must be
   * the run's: a decision made against another definition is refused.
   */
  readonly fingerprint?: string | undefined;
}

/** What the `interrupts` handler returns. */
export interface InterruptsView {
  /** The run's fingerprint. */
  readonly fingerprint: string | undefined;
  /** The pause the interrupts belong to (`undefined` when the run is not waiting). */
  readonly round: number | undefined;
  /** The pending interrupts, each with whether it has been decided. */
  readonly interrupts: readonly (Interrupt & { readonly decided: boolean })[];
  /** Why the last decisions were refused when the run continued (an edit the tool's schema rejects). */
  readonly refused?: string | undefined;
}

/** The durable promise that carries the decision on interrupt `id` of pause `round`. */
export function decisionPromiseName(round: number, id: string): string {
  return `junction:decision:${round}:${id}`;
}

const httpStatus: Partial<Record<string, number>> = {
  RESUME_UNKNOWN_INTERRUPT: 404,
  RESUME_INVALID_DECISION: 400,
  RESUME_ARGS_CHANGED: 409,
  RESUME_DEFINITION_CHANGED: 409,
  RUN_NOT_RESUMABLE: 409,
  RUN_ALREADY_RESUMED: 409,
};

/** A refused decision as a Restate terminal error: the code as metadata, an HTTP status for the ingress. */
function refuse(code: string, message: string): restate.TerminalError {
  return new restate.TerminalError(message, {
    errorCode: httpStatus[code] ?? 400,
    metadata: { code },
  });
}

/**
 * Validates decisions exactly as `resume` does (known interrupt id, decision shape, `argsHash`, and the
 * definition fingerprint when the caller sends one), refusing any that was already decided, then
 * resolves their durable promises. All or nothing: one bad decision refuses the whole request.
 */
export async function decide(
  ctx: restate.WorkflowSharedContext,
  body: unknown,
  where: string,
): Promise<{ readonly round: number; readonly accepted: readonly string[] }> {
  const request = (body ?? {}) as Partial<DecideRequest>;
  const pending = (await ctx.get<PendingInterrupts>("pending")) ?? undefined;
  const fingerprint = (await ctx.get<string>("fingerprint")) ?? undefined;
  if (pending === undefined) {
    throw refuse("RUN_NOT_RESUMABLE", `${where}: run "${ctx.key}" is not waiting for decisions.`);
  }
  if (request.fingerprint !== undefined && request.fingerprint !== fingerprint) {
    throw refuse(
      "RESUME_DEFINITION_CHANGED",
      `${where}: the decision was made for definition fingerprint ${request.fingerprint}; run "${ctx.key}" runs ${fingerprint}. Read the interrupts again and decide on what this run shows.`,
    );
  }
  const decisions = request.decisions;
  let parsed: Decisions;
  try {
    if (typeof decisions !== "object" || decisions === null || Array.isArray(decisions)) {
      throw new RunResumeError(
        "RESUME_INVALID_DECISION",
        `${where}: the body must be { decisions: { "<interrupt id>": { action: "approve" } } }.`,
      );
    }
    const ids = Object.keys(decisions);
    const known = new Set(pending.interrupts.map((item) => item.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0 || ids.length === 0) {
      throw new RunResumeError(
        "RESUME_UNKNOWN_INTERRUPT",
        `${where}: run "${ctx.key}" has no pending interrupt ${unknown.map((id) => JSON.stringify(id)).join(", ") || "named"}. Pending: ${[...known].map((id) => JSON.stringify(id)).join(", ")}.`,
      );
    }
    const chosen = pending.interrupts.filter((item) => ids.includes(item.id));
    parsed = checkDecisions(chosen, decisions, where);
  } catch (error) {
    if (error instanceof RunResumeError) throw refuse(error.code, error.message);
    throw error;
  }
  const entries = Object.entries(parsed) as [string, Decision][];
  for (const [id] of entries) {
    if ((await ctx.promise<Decision>(decisionPromiseName(pending.round, id)).peek()) !== undefined) {
      throw refuse(
        "RUN_ALREADY_RESUMED",
        `${where}: interrupt "${id}" of run "${ctx.key}" was already decided.`,
      );
    }
  }
  for (const [id, decision] of entries) {
    await ctx.promise<Decision>(decisionPromiseName(pending.round, id)).resolve(decision);
  }
  return { round: pending.round, accepted: entries.map(([id]) => id) };
}

/** The `interrupts` handler: what the run waits for. */
export async function listInterrupts(ctx: restate.WorkflowSharedContext): Promise<InterruptsView> {
  const pending = (await ctx.get<PendingInterrupts>("pending")) ?? undefined;
  const fingerprint = (await ctx.get<string>("fingerprint")) ?? undefined;
  const refused = (await ctx.get<string>("refused")) ?? undefined;
  const interrupts = [];
  for (const interrupt of pending?.interrupts ?? []) {
    const decided = await ctx.promise<Decision>(decisionPromiseName(pending!.round, interrupt.id)).peek();
    interrupts.push({ ...interrupt, decided: decided !== undefined });
  }
  return { fingerprint, round: pending?.round, interrupts, ...(refused === undefined ? {} : { refused }) };
}

/**
 * Inside the `run` handler: records the pending interrupts in the workflow's state and waits (durably:
 * the invocation suspends) for one decision per interrupt.
 */
export async function awaitDecisions(
  ctx: restate.WorkflowContext,
  round: number,
  interrupts: readonly Interrupt[],
): Promise<Decisions> {
  ctx.set<PendingInterrupts>("pending", { round, interrupts: JSON.parse(JSON.stringify(interrupts)) });
  ctx.set("status", "interrupted");
  const values = await restate.RestatePromise.all(
    interrupts.map((item) => ctx.promise<Decision>(decisionPromiseName(round, item.id)).get()),
  );
  ctx.clear("pending");
  ctx.clear("refused");
  ctx.set("status", "running");
  return Object.fromEntries(interrupts.map((item, index) => [item.id, values[index]!]));
}
