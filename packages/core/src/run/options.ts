import type { RunStore } from "./run-store.js";

/** The options every run takes (pipeline or component): where its snapshots go and how much is written. */

/**
 * How much of a run is written to its store.
 * - `"interrupts"` (the default): a snapshot when the run stops at an interrupt, and at its resume and
 *   end. Nothing is written for a run that never interrupts.
 * - `"steps"`: also a snapshot when the run starts, then a delta after every step — each component run
 *   of a pipeline, each model call and each tool call of an Agent — holding that step's result. A run
 *   whose process died is continued with `resume(runId, {}, { store })` in another process: finished
 *   steps are replayed from their deltas (no model call or finished tool runs again); steps that were in
 *   flight run again, so tools should be idempotent (they get the step's `idempotencyKey`).
 */
export type Durability = "interrupts" | "steps";

/** Refuses an unknown `durability` and a combination that cannot work, before anything runs. */
export function checkDurability(
  durability: unknown,
  where: string,
  options: { readonly store?: unknown; readonly durable?: unknown } = {},
): void {
  if (durability === undefined || durability === "interrupts") return;
  if (durability !== "steps") {
    throw new TypeError(
      `${where}: durability must be "interrupts" or "steps" (got ${JSON.stringify(durability)}).`,
    );
  }
  if (options.store === undefined) {
    throw new TypeError(
      `${where}: durability "steps" writes every step to a store, and no store was given. Pass { store } (a FileRunStore to survive the process), or remove durability.`,
    );
  }
  if (options.durable !== undefined) {
    throw new TypeError(
      `${where}: durability "steps" and a durable backend (the "durable" option, e.g. Restate) both journal the run's steps; use one. On Restate, drop durability and store.`,
    );
  }
}

/** Run options shared by pipelines and components: where and how a run is kept. */
export interface DurableRunOptions {
  /** Where snapshots go. Without a store, an interrupt's snapshot rides on the {@link RunInterruptedError}. */
  readonly store?: RunStore | undefined;
  /** The run's id (default: a new `run_<uuid>`). */
  readonly runId?: string | undefined;
  /** `"interrupts"` (the default) or `"steps"` (needs a store); see {@link Durability}. */
  readonly durability?: Durability | undefined;
  /**
   * How long a `running` run stays claimed by its process after the process last wrote (default 60 s;
   * the runner writes a heartbeat every third of it). After that, or at once when the runner was on this
   * host and its process is gone, `resume(runId, {}, { store })` may take the run over.
   */
  readonly leaseMs?: number | undefined;
}

/** Options of `pipeline.resume` / `component.resume` besides the run options. */
export interface ResumeOptions extends DurableRunOptions {
  /** Resume even though the pipeline's or component's definition changed since the snapshot (default false). */
  readonly allowDefinitionChange?: boolean | undefined;
}
