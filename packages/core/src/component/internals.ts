import { ComponentError } from "../errors/errors.js";
import type { ResumeContext } from "../run/interrupt.js";

import type { AnyComponent, ComponentDefinition, RunContext } from "./contract.js";

/** Internal slots the engine uses; not part of the public API. */
export const componentInternals = Symbol.for("junction.component.internals");

/** What the engine reads from an instance. */
export interface ComponentInternals {
  readonly definition: ComponentDefinition<any, any, any, any, any>;
  readonly resources: unknown;
  /** Runs `run` with prepared inputs (defaults filled, not validated). */
  invoke(
    inputs: Record<string, unknown>,
    context: Omit<RunContext, "params" | "resources">,
  ): Promise<unknown>;
  /**
   * As {@link invoke}, but a warm component whose `run` returns at once hands back its outputs as they
   * are (no promise), and a synchronous failure is thrown.
   */
  call(inputs: Record<string, unknown>, context: Omit<RunContext, "params" | "resources">): unknown;
  /** {@link call} with a context fixed for every call: the run context is built once, here. */
  bind(context: Omit<RunContext, "params" | "resources">): (inputs: Record<string, unknown>) => unknown;
  /** Validates and completes the inputs of a direct call. */
  prepare(inputs: Record<string, unknown>, componentName: string | undefined): Record<string, unknown>;
  /** The definition's `checkResume`, bound to this instance (a no-op without one). */
  checkResume(resume: ResumeContext): void;
  /** The pipeline that holds the instance, if any. */
  owner: { readonly pipeline: object; readonly name: string } | undefined;
}

/** Reads an instance's internal slots. */
export function getComponentInternals(component: AnyComponent): ComponentInternals {
  const internals = (component as unknown as { [componentInternals]?: ComponentInternals })[
    componentInternals
  ];
  if (internals === undefined) {
    throw new ComponentError(
      "Expected a component instance made by a defineComponent class; got an object without its internals.",
    );
  }
  return internals;
}

/** True when `value` is an instance of a `defineComponent` class. */
export function isComponent(value: unknown): value is AnyComponent {
  return typeof value === "object" && value !== null && componentInternals in value;
}
