import { type Durable, fromDurableJSON, toDurableJSON } from "@junction/core";
import { type Context, RestatePromise, type RunOptions } from "@restatedev/restate-sdk";

/** Options of {@link restateDurable}. */
export interface RestateDurableOptions {
  /**
   * Retries of one step (a component run, a model call) before its failure is final, as Restate's
   * `ctx.run` options. Default: 3 attempts, so a deterministic failure fails the run instead of being
   * retried for hours; raise it for flaky model endpoints.
   */
  readonly retry?: Omit<RunOptions<unknown>, "serde"> | undefined;
}

const defaultRetry: Omit<RunOptions<unknown>, "serde"> = { maxRetryAttempts: 3 };

/**
 * The durability seam on Restate: each step is a `ctx.run` journal entry named by the step (results
 * stored as `toDurableJSON`), a batch is joined with `RestatePromise.all`, and the clock is
 * `ctx.date.now()`. Used by the Junction workflow; use it directly to run a pipeline or an agent from
 * your own Restate handler.
 *
 * @param ctx - the handler's Restate context
 * @param options - retry policy of each step
 * @example
 * ```ts
 * const out = await pipeline.run(inputs, { durable: restateDurable(ctx) });
 * ```
 */
export function restateDurable(ctx: Context, options: RestateDurableOptions = {}): Durable {
  const retry = options.retry ?? defaultRetry;
  return {
    step: <T>(name: string, run: () => Promise<T>): Promise<T> =>
      ctx
        .run(name, async () => toDurableJSON(await run()), retry)
        .map((json, failure) => {
          if (failure !== undefined) throw failure;
          return fromDurableJSON(json) as T;
        }),
    all: <T>(steps: readonly Promise<T>[]): Promise<T[]> =>
      RestatePromise.all(steps as readonly RestatePromise<T>[]) as unknown as Promise<T[]>,
    now: () => ctx.date.now(),
    // The invocation id stays the same across retries and replays of the invocation.
    idempotencyKey: (name: string) => `${ctx.request().id}/${name}`,
  };
}
