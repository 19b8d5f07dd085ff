import { ComponentError } from "../errors/errors.js";
import type { ComponentInterrupt, Decisions } from "../run/interrupt.js";
import type { RunSnapshot } from "../run/run-snapshot.js";
import type { AnyComponent, ComponentResumeOptions, ComponentRunOptions } from "./contract.js";

/**
 * The seam between the component contract and the durable-run machinery. A direct `component.run`
 * that stops at an interrupt, runs with `durability: "steps"`, or is resumed needs snapshots and a run
 * store; the contract states what it needs here, and `durable/` provides it when it loads (the package
 * index loads it), so the contract never imports the machinery.
 */

/** What a direct component run needs from the durable-run machinery. */
export interface DirectRunServices {
  /** Runs the component with every step written to the store (`durability: "steps"`). */
  runWithSteps(
    component: AnyComponent,
    inputs: Record<string, unknown>,
    prepared: Record<string, unknown>,
    options: ComponentRunOptions,
  ): Promise<Record<string, unknown>>;
  /** Saves the snapshot of a run stopped at `signal` and rejects with a `RunInterruptedError`. */
  pause(
    component: AnyComponent,
    inputs: Record<string, unknown>,
    signal: ComponentInterrupt,
    options: ComponentRunOptions,
  ): Promise<never>;
  /** Continues a stopped direct run with the decisions on its interrupts. */
  resume(
    component: AnyComponent,
    target: string | RunSnapshot,
    decisions: Decisions,
    options: ComponentResumeOptions,
  ): Promise<Record<string, unknown>>;
}

let provided: DirectRunServices | undefined;

/** Called once by `durable/` as it loads: the implementation of {@link DirectRunServices}. */
export function provideDirectRunServices(services: DirectRunServices): void {
  provided = services;
}

/** The provided services; throws when only the contract was loaded (import from `@junction/core`). */
export function directRunServices(): DirectRunServices {
  if (provided === undefined) {
    throw new ComponentError(
      "The durable-run machinery is not loaded: import components and pipelines from @junction/core, not from its source files.",
    );
  }
  return provided;
}
