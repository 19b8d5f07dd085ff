import {
  type AnyComponent,
  type Decisions,
  type Durable,
  Pipeline,
  type PipelineRunOptions,
  RunInterruptedError,
  RunResumeError,
  type RunSnapshot,
  runIdPattern,
} from "@junction/core";
import * as restate from "@restatedev/restate-sdk";
import { awaitDecisions, decide, listInterrupts } from "./decisions.js";
import { DefinitionChangedError } from "./errors.js";
import { definitionFingerprint } from "./fingerprint.js";
import { type RestateDurableOptions, restateDurable } from "./restate-durable.js";
import { decodeRunInputs } from "./run-inputs.js";

/**
 * Run options the workflow passes to every run: everything but `signal` and `durable` (the workflow's)
 * and the run-store options (`store`, `runId`, `durability`): on Restate the journal is the store, and
 * the run id is the workflow key.
 */
export type WorkflowRunOptions = Omit<
  PipelineRunOptions,
  "signal" | "durable" | "store" | "runId" | "durability"
>;

/** Options of {@link junctionWorkflow}. */
export interface JunctionWorkflowOptions extends RestateDurableOptions {
  /** The Restate service name (default `"JunctionRun"`): the URL is `/<name>/<runId>/run`. */
  readonly name?: string | undefined;
  /** What each run executes: a pipeline, or a component such as an Agent. */
  readonly target: Pipeline | AnyComponent;
  /** Options of every run (`includeOutputsFrom`, `concurrency`, `logger`, …). */
  readonly runOptions?: WorkflowRunOptions | undefined;
  /**
   * A version label mixed into the definition fingerprint, for a change the structure does not show
   * (a hook's or a tool's code). A run started by another fingerprint refuses to continue here.
   */
  readonly version?: string | undefined;
}

/** What the `status` handler returns. */
export interface RunStatus {
  /**
   * `"running"`, `"interrupted"` (waiting for decisions: see the `interrupts` handler), `"completed"` or
   * `"failed"`; `undefined` before the run started.
   */
  readonly status: "running" | "interrupted" | "completed" | "failed" | undefined;
  /** The definition fingerprint of the code that started the run. */
  readonly fingerprint: string | undefined;
  /** The failure message of a failed run. */
  readonly error?: string | undefined;
}

/**
 * A Restate workflow that runs a Junction pipeline or agent, keyed by run id: each component run, model
 * call and tool call is a journaled step (see `restateDurable`), so a run survives crashes and deploys
 * and finished steps never run again.
 *
 * Handlers (`POST /<name>/<runId>/<handler>` on the Restate ingress):
 * - `run` — the run itself (exactly once per run id); the body is the run inputs as JSON, the response
 *   the outputs as JSON. It first checks the definition fingerprint recorded by the code that started
 *   the run: changed code is refused with a clear error (Restate retries until the old code serves it).
 * - `status` — `{ status, fingerprint, error? }`.
 * - `interrupts` — what a paused run waits for: `{ fingerprint, round, interrupts }`, each interrupt
 *   (id, tool, arguments, `argsHash`, payload…) with `decided`.
 * - `decide` — `{ decisions: { "<interrupt id>": { action: "approve" } }, fingerprint? }`: validated like
 *   `resume` (known id, decision shape, `argsHash`, and the fingerprint when sent) and refused with an
 *   HTTP 4xx otherwise; each accepted decision resolves the interrupt's durable promise.
 * - `cancel` — cancels the run; the pending step fails and the run ends with a cancellation error.
 *
 * **Interrupts.** When the run stops at interrupts (a tool that needs approval, a hook's or a
 * component's interrupt), the handler records them in the workflow's state and waits on one durable
 * promise per interrupt — the invocation suspends, and survives restarts of the service and the server.
 * When every interrupt is decided, it resumes the run (`resume(snapshot, decisions, { durable })`) in
 * the same invocation: nothing before the pause runs again (it is in the journal). If the resume refuses
 * the decisions (an edit the tool's schema rejects), the run waits again, with the reason in `refused`.
 *
 * @param options - the target, run options, service name, retry policy and version label
 * @returns the workflow definition, to serve with {@link serveJunction} (or any Restate endpoint)
 * @example
 * ```ts
 * const tips = junctionWorkflow({ name: "TipAgent", target: agent });
 * const endpoint = await serveJunction({ services: [tips], port: 9080 });
 * // then: register http://127.0.0.1:9080 with the Restate server and POST /TipAgent/run-1/run
 * ```
 */
export function junctionWorkflow(options: JunctionWorkflowOptions) {
  const { target } = options;
  const fingerprint = definitionFingerprint(target, options.version);
  const runOptions = options.runOptions ?? {};
  const durableOptions: RestateDurableOptions = { retry: options.retry };
  return restate.workflow({
    name: options.name ?? "JunctionRun",
    handlers: {
      run: async (ctx: restate.WorkflowContext, body: unknown): Promise<unknown> => {
        const started = await ctx.run("junction:definition", () => fingerprint);
        if (started !== fingerprint) {
          throw new DefinitionChangedError(
            `Junction run "${ctx.key}" was started by code with definition fingerprint ${started}; this deployment has ${fingerprint}. Keep the deployment that started the run registered until its runs finish, and register changed code as a new deployment (a new endpoint URL).`,
            started,
            fingerprint,
          );
        }
        ctx.set("fingerprint", fingerprint);
        ctx.set("invocation", ctx.request().id);
        ctx.set("status", "running");
        try {
          const durable = restateDurable(ctx, durableOptions);
          const inputs = decodeRunInputs(target, body);
          const runId = runIdPattern.test(ctx.key) ? { runId: ctx.key } : {};
          const options = target instanceof Pipeline ? runOptions : componentOptions(runOptions);
          let attempt = () => target.run(inputs, { ...options, ...runId, durable });
          let outputs: unknown;
          for (let round = 1; ; round += 1) {
            try {
              outputs = await attempt();
              break;
            } catch (error) {
              const paused = pausedAt(error);
              if (paused === undefined) throw error;
              const decisions = await awaitDecisions(ctx, round, paused.interrupts);
              attempt = () => resumeRefusing(ctx, target, paused, decisions, { ...options, durable });
            }
          }
          ctx.set("status", "completed");
          return toPlainJSON(outputs);
        } catch (error) {
          if (isRetryable(error)) throw error;
          const message = error instanceof Error ? error.message : String(error);
          ctx.set("status", "failed");
          ctx.set("error", message);
          throw new restate.TerminalError(message);
        }
      },
      status: restate.handlers.workflow.shared(
        async (ctx: restate.WorkflowSharedContext): Promise<RunStatus> => {
          const error = (await ctx.get<string>("error")) ?? undefined;
          return {
            status: (await ctx.get<RunStatus["status"]>("status")) ?? undefined,
            fingerprint: (await ctx.get<string>("fingerprint")) ?? undefined,
            ...(error === undefined ? {} : { error }),
          };
        },
      ),
      interrupts: restate.handlers.workflow.shared((ctx: restate.WorkflowSharedContext) =>
        listInterrupts(ctx),
      ),
      decide: restate.handlers.workflow.shared((ctx: restate.WorkflowSharedContext, body: unknown) =>
        decide(ctx, body, `${options.name ?? "JunctionRun"}.decide`),
      ),
      cancel: restate.handlers.workflow.shared(
        async (ctx: restate.WorkflowSharedContext): Promise<boolean> => {
          const invocation = await ctx.get<string>("invocation");
          if (invocation === null || invocation === undefined) return false;
          ctx.invocation(restate.InvocationIdParser.fromString(invocation)).cancel();
          return true;
        },
      ),
    },
  });
}

/** A pause to wait on: the interrupts, and the snapshot to resume from. */
interface Paused {
  readonly interrupts: RunInterruptedError["interrupts"];
  readonly snapshot: RunSnapshot;
}

/** The pause in `error`, when the run stopped at interrupts (the workflow passes no store, so the
 * snapshot rides on the error); a refused resume carries the previous pause. */
function pausedAt(error: unknown): Paused | undefined {
  if (error instanceof RunInterruptedError && error.snapshot !== undefined) {
    return { interrupts: error.interrupts, snapshot: error.snapshot };
  }
  if (error instanceof RefusedDecisions) return error.paused;
  return undefined;
}

/** A resume refused the decisions before anything ran: wait for new ones on the same pause. */
class RefusedDecisions extends Error {
  constructor(
    message: string,
    readonly paused: Paused,
  ) {
    super(message);
  }
}

type ResumeTarget = {
  resume(snapshot: RunSnapshot, decisions: Decisions, options: object): Promise<unknown>;
};

/**
 * Resumes the run. When the resume refuses the decisions (an edit the tool's schema rejects) before it
 * started any durable step, nothing ran, so the workflow may wait for new decisions on the same pause;
 * if steps had started, waiting again would run them a second time, so the run fails instead.
 */
async function resumeRefusing(
  ctx: restate.WorkflowContext,
  target: Pipeline | AnyComponent,
  paused: Paused,
  decisions: Decisions,
  options: { readonly durable: Durable },
): Promise<unknown> {
  let started = 0;
  const durable: Durable = {
    step: (name, run) => {
      started += 1;
      return options.durable.step(name, run);
    },
    all: (steps) => options.durable.all(steps),
    now: () => options.durable.now(),
    ...(options.durable.idempotencyKey === undefined
      ? {}
      : { idempotencyKey: options.durable.idempotencyKey.bind(options.durable) }),
  };
  try {
    return await (target as ResumeTarget).resume(paused.snapshot, decisions, { ...options, durable });
  } catch (error) {
    const refused = refusedDecisions(error);
    if (refused === undefined || started > 0) throw error;
    ctx.set("refused", refused.message);
    throw new RefusedDecisions(refused.message, paused);
  }
}

/** The `RunResumeError` about the decisions themselves in `error`'s cause chain (a pipeline wraps it). */
function refusedDecisions(error: unknown): RunResumeError | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; depth += 1) {
    if (
      current instanceof RunResumeError &&
      (current.code === "RESUME_INVALID_DECISION" || current.code === "RESUME_ARGS_CHANGED")
    ) {
      return current;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function componentOptions(options: WorkflowRunOptions) {
  return {
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };
}

/** Outputs as plain JSON (class instances through their `toJSON`), as a client receives them. */
function toPlainJSON(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/**
 * True for failures Restate must retry rather than end the run with: its own non-terminal errors
 * (anywhere in the cause chain) and a definition change.
 */
function isRetryable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; depth += 1) {
    if (current instanceof restate.TerminalError) return false;
    if (current instanceof restate.RestateError) return true;
    if (current instanceof DefinitionChangedError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
