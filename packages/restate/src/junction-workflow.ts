import { type AnyComponent, Pipeline, type PipelineRunOptions } from "@junction/core";
import * as restate from "@restatedev/restate-sdk";
import { DefinitionChangedError } from "./errors.js";
import { definitionFingerprint } from "./fingerprint.js";
import { type RestateDurableOptions, restateDurable } from "./restate-durable.js";
import { decodeRunInputs } from "./run-inputs.js";

/** Run options the workflow passes to every run (everything but `signal` and `durable`). */
export type WorkflowRunOptions = Omit<PipelineRunOptions, "signal" | "durable">;

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
  /** `"running"`, `"completed"` or `"failed"`; `undefined` before the run started. */
  readonly status: "running" | "completed" | "failed" | undefined;
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
 * - `cancel` — cancels the run; the pending step fails and the run ends with a cancellation error.
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
          const outputs =
            target instanceof Pipeline
              ? await target.run(inputs, { ...runOptions, durable })
              : await target.run(inputs, { ...componentOptions(runOptions), durable });
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
