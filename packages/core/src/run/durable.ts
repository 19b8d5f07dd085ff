/**
 * The durability seam: named steps that a durable-execution backend can journal.
 *
 * The engine and the agent loop call {@link Durable.step} around the work whose result must survive a
 * crash — one component run, one model call, one tool call — and {@link Durable.all} to join the tool
 * calls of one batch. In-process nothing is journaled and nothing is called: when no `durable` is
 * passed, the engine and the agent call the work directly (see {@link inProcessDurable} for the
 * object form). A backend such as `@junction/restate` records each step's result under its name and,
 * when the run is replayed after a crash, returns the recorded result instead of doing the work again.
 */

/**
 * Durable steps for one run, or for one component inside a run (see {@link scopeDurable}).
 *
 * **Names.** Step names are deterministic paths built from what the run did, never from time or
 * randomness: a component run is `<component>#<visit>` (`"retriever#1"`); inside a component that
 * records its own steps (the Agent) names are prefixed with that component's name, e.g.
 * `"agent#1/llm#0"` for the first model call, `"agent#1/tool#0/call_9"` for tool call `call_9` of step
 * 0. A tool may use its step name as an idempotency key.
 *
 * **Order.** A journaling backend matches steps by the order in which they are *started*, so callers
 * start steps in an order that depends only on the run's data: the engine starts the members of a wave
 * in wave order and runs a component that records its own steps on its own; the agent starts the calls
 * of a tool batch in call order and joins them with {@link Durable.all}.
 *
 * **Values.** A backend stores results as JSON written with `toDurableJSON` (plain JSON plus registered
 * classes such as `ChatMessage`), so a step's result must be made of those.
 *
 * **Extension point.** Interrupts add `awaitDecisions` here: a durable wait for the decisions on a run's
 * pending interrupts, which a backend implements with durable promises.
 */
export interface Durable {
  /**
   * Runs `run` as the durable step `name` and returns its result. A journaling backend returns the
   * recorded result without calling `run` when the step already completed in an earlier attempt; a
   * step that was in flight during a crash runs again (at-least-once), so side effects must be
   * idempotent (use `name` as the key).
   *
   * @param name - the step's deterministic name (see the interface documentation)
   * @param run - the work; called at most once per attempt, never inside another step
   */
  step<T>(name: string, run: () => Promise<T>): Promise<T>;
  /**
   * Waits for steps started together (the calls of one tool batch) and returns their results in the
   * given order, whatever order they finished in; rejects with the first failure like `Promise.all`.
   *
   * @param steps - promises returned by {@link Durable.step} of this object, unchanged
   */
  all<T>(steps: readonly Promise<T>[]): Promise<T[]>;
  /**
   * The current time in milliseconds since the epoch; a journaling backend records it, so a replay
   * sees the same time (asynchronous because recording it is).
   */
  now(): Promise<number>;
  /**
   * A key for step `name` that is unique in the run and the same every time the step runs again (after
   * a crash): what a tool passes to a service so its side effect happens once. Optional: backends that
   * cannot name the run leave it out, and tools then get no key.
   */
  idempotencyKey?(name: string): string;
}

/**
 * The in-process implementation: runs every step directly, joins with `Promise.all`, reads the clock.
 * This is what a run without `durable` behaves like (the engine then skips the calls altogether).
 *
 * @example
 * ```ts
 * const out = await pipeline.run({ value: 1 }, { durable: inProcessDurable }); // same as without it
 * ```
 */
export const inProcessDurable: Durable = Object.freeze({
  step: <T>(_name: string, run: () => Promise<T>): Promise<T> => run(),
  all: <T>(steps: readonly Promise<T>[]): Promise<T[]> => Promise.all(steps),
  now: (): Promise<number> => Promise.resolve(Date.now()),
});

/**
 * A view of `durable` whose step names are prefixed with `prefix/`: what a component that records its
 * own steps receives, so its names are unique within the run (`"agent#1/llm#0"`).
 *
 * @param durable - the run's (or the enclosing component's) durable steps
 * @param prefix - the path segment, e.g. `"agent#1"`
 */
export function scopeDurable(durable: Durable, prefix: string): Durable {
  const head = `${prefix}/`;
  return {
    step: (name, run) => durable.step(head + name, run),
    all: (steps) => durable.all(steps),
    now: () => durable.now(),
    ...(durable.idempotencyKey === undefined
      ? {}
      : { idempotencyKey: (name: string) => durable.idempotencyKey!(head + name) }),
  };
}
