import type { Logger } from "@junction/core";
import type { AnyTool } from "@junction/llm";
import type { HookControl, HookPoint } from "./hooks.js";

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
