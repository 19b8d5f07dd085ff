import type { Logger } from "@junction/core";
import type { AnyTool } from "@junction/llm";
import type { HookControl, HookPoint } from "./hooks.js";
import type { HookInterrupt } from "./tool-gates.js";

/** The per-run implementation of {@link HookControl}: the loop reads what hooks asked for. */
export class RunControl implements HookControl {
  point: HookPoint = "beforeRun";
  stepCount = 0;
  exitReason: string | undefined = undefined;
  tools: readonly AnyTool[] = [];
  /** Set by `stop`; read after the `beforeLlm` hooks. */
  stopReason: string | undefined = undefined;
  /** Set by `continueRun` during `onExit`. */
  continueRequested = false;
  /** Set by `interrupt` during `beforeTool`; cleared by the loop. */
  interrupts: HookInterrupt[] = [];
  /** The ids of the step's pending tool calls (for checking `interrupt`'s `callIds`). */
  pendingCallIds: ReadonlySet<string> = new Set();

  constructor(
    readonly signal: AbortSignal | undefined,
    readonly logger: Logger,
  ) {}

  stop(reason: string): void {
    if (typeof reason !== "string" || reason === "") {
      throw new TypeError(
        "control.stop(reason): the reason must be a non-empty string; it becomes the exit_reason.",
      );
    }
    this.stopReason = reason;
  }

  interrupt(
    options: { readonly callIds?: readonly string[] | undefined; readonly payload?: unknown } = {},
  ): void {
    if (this.point !== "beforeTool") {
      throw new TypeError(
        `control.interrupt() was called in a "${this.point}" hook; it only works in "beforeTool" hooks, where it holds the step's tool calls for a decision.`,
      );
    }
    const callIds = options.callIds;
    const unknown = callIds?.filter((id) => !this.pendingCallIds.has(id)) ?? [];
    if (unknown.length > 0) {
      throw new TypeError(
        `control.interrupt(): no pending tool call has the id ${unknown.map((id) => JSON.stringify(id)).join(", ")}. Pending: ${[...this.pendingCallIds].map((id) => JSON.stringify(id)).join(", ") || "none"}.`,
      );
    }
    this.interrupts.push({
      callIds: callIds === undefined ? undefined : [...callIds],
      payload: options.payload,
    });
  }

  continueRun(): void {
    if (this.point !== "onExit") {
      this.logger.warn(
        `Agent: control.continueRun() was called in a "${this.point}" hook; it only has an effect in "onExit" hooks.`,
      );
      return;
    }
    this.continueRequested = true;
  }
}
