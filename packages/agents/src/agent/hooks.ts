import type { Issue, Logger, MaybePromise, Span, Tracer } from "@junction/core";
import type { AnyTool } from "@junction/llm";
import type { State } from "../state/state.js";

/** The points in an agent run where hooks are called, in the order they first occur. */
export const hookPoints = [
  "beforeRun",
  "beforeLlm",
  "beforeTool",
  "afterTool",
  "onExit",
  "afterRun",
] as const;

/** A point in the agent loop where hooks run. */
export type HookPoint = (typeof hookPoints)[number];

/** What a hook can do besides changing the State. */
export interface HookControl {
  /** The hook point being run. */
  readonly point: HookPoint;
  /** Steps completed so far. */
  readonly stepCount: number;
  /** The exit reason about to end the run (`onExit`) or that ended it (`afterRun`); otherwise `undefined`. */
  readonly exitReason: string | undefined;
  /** The tools of the current step (in `beforeRun`, the tools the run starts with). */
  readonly tools: readonly AnyTool[];
  /** The run's abort signal. */
  readonly signal: AbortSignal | undefined;
  /** The run's logger. */
  readonly logger: Logger;
  /**
   * Ends the run with `reason` as its `exit_reason`. Checked after the `beforeLlm` hooks of the next
   * step (so the model is not called again); `onExit` hooks are not run for it.
   */
  stop(reason: string): void;
  /** In `onExit`: vetoes the exit, so the loop continues (still bounded by `maxAgentSteps`). Ignored elsewhere. */
  continueRun(): void;
  /**
   * In `beforeTool`: holds the step's tool calls (those in `callIds`, default all) for a person's decision.
   * After the hooks, the run stops with a `RunInterruptedError` before any tool runs; on resume the
   * decisions apply (approve, edit, reject, respond) and the hooks are not run again.
   *
   * @example
   * ```ts
   * beforeTool: (state, control) => control.interrupt({ payload: { reason: "needs review" } })
   * ```
   */
  interrupt(options?: { readonly callIds?: readonly string[] | undefined; readonly payload?: unknown }): void;
}

/** A hook as a function: acts on the State, and on the run through `control`. */
export type HookFunction = (state: State, control: HookControl) => MaybePromise<void>;

/** A hook as an object with a `run` method (and an optional name for traces). */
export interface HookObject {
  /** Called at the hook point. */
  run(state: State, control: HookControl): MaybePromise<void>;
  /** A name for traces and logs (default: the class or function name). */
  readonly name?: string | undefined;
}

/** A hook: a function or an object with `run`. */
export type AgentHook = HookFunction | HookObject;

/** Hooks by hook point: one hook or a list (run in list order). */
export type AgentHooks = { readonly [P in HookPoint]?: AgentHook | readonly AgentHook[] };

/** A validated hook. */
export interface NormalizedHook {
  /** The hook as given. */
  readonly source: AgentHook;
  /** The function to call. */
  readonly run: HookFunction;
  /** A name for traces. */
  readonly name: string;
}

/** Hooks by point, validated; points without hooks map to empty lists. */
export type NormalizedHooks = Readonly<Record<HookPoint, readonly NormalizedHook[]>>;

const pointSet = new Set<string>(hookPoints);

function hookName(hook: AgentHook): string {
  if (typeof hook === "function") return hook.name || "anonymous";
  return hook.name ?? (hook.constructor?.name !== "Object" ? hook.constructor?.name : undefined) ?? "hook";
}

/** Validates the `hooks` option, recording every problem in `issues` (paths under `["hooks"]`). */
export function normalizeHooks(hooks: unknown, issues: Issue[]): NormalizedHooks {
  const out = Object.fromEntries(hookPoints.map((point) => [point, [] as NormalizedHook[]])) as Record<
    HookPoint,
    NormalizedHook[]
  >;
  if (hooks === undefined) return out;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) {
    issues.push({
      path: ["hooks"],
      message: `hooks must be an object keyed by hook point (${hookPoints.join(", ")}).`,
    });
    return out;
  }
  for (const [point, value] of Object.entries(hooks)) {
    if (!pointSet.has(point)) {
      issues.push({
        path: ["hooks", point],
        message: `unknown hook point "${point}". Valid points: ${hookPoints.map((name) => `"${name}"`).join(", ")}.`,
      });
      continue;
    }
    const list = Array.isArray(value) ? value : [value];
    list.forEach((hook: unknown, index) => {
      const path = Array.isArray(value) ? ["hooks", point, index] : ["hooks", point];
      if (typeof hook === "function") {
        out[point as HookPoint].push({
          source: hook as HookFunction,
          run: hook as HookFunction,
          name: hookName(hook as HookFunction),
        });
      } else if (
        typeof hook === "object" &&
        hook !== null &&
        typeof (hook as HookObject).run === "function"
      ) {
        const object = hook as HookObject;
        out[point as HookPoint].push({
          source: object,
          run: (state, control) => object.run(state, control),
          name: hookName(object),
        });
      } else {
        issues.push({
          path,
          message:
            "a hook must be a function (state, control) => void or an object with a run(state, control) method.",
        });
      }
    });
  }
  return out;
}

/** Where hooks report and trace. */
export interface HookRunContext {
  readonly tracer: Tracer;
  readonly parent: Span | undefined;
}

/**
 * Runs the hooks of one point in order, each in its own span.
 *
 * @returns when every hook has run (a throwing hook rejects; later hooks do not run)
 */
export async function runHooks(
  point: HookPoint,
  hooks: readonly NormalizedHook[],
  state: State,
  control: HookControl,
  context: HookRunContext,
): Promise<void> {
  for (const hook of hooks) {
    const span = context.tracer.startSpan(
      "junction.agent.hook",
      { "junction.agent.hook.point": point, "junction.agent.hook.name": hook.name },
      context.parent,
    );
    try {
      await hook.run(state, control);
    } finally {
      span.end();
    }
  }
}
