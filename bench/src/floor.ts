/**
 * The plain-JavaScript lower bound of each workload: the same work as direct async calls and
 * `Promise.all`, with no framework. Every framework figure is also reported as a ratio to this floor.
 */
import { sleep } from "./harness.js";

/** W1 floor: `n` awaited async calls in a line, each adding 1. */
export function floorChain(n: number): () => Promise<number> {
  const addOne = async (value: number) => value + 1;
  return async () => {
    let value = 0;
    for (let index = 0; index < n; index += 1) value = await addOne(value);
    return value;
  };
}

/** W2 floor: `branches` timers of `delayMs` awaited together, then a join. */
export function floorFanOut(branches: number, delayMs: number): () => Promise<number> {
  return async () => {
    const results = await Promise.all(
      Array.from({ length: branches }, async (_, index) => {
        await sleep(delayMs);
        return index;
      }),
    );
    return results.length;
  };
}

/**
 * Agent floor: a loop that asks a scripted "model" function for tool calls, runs them with
 * `Promise.all`, appends the messages to an array, and stops when the model answers.
 */
export function floorAgent(options: {
  steps: number;
  callsPerStep: number;
  toolDelayMs: number;
  onToolCall?: () => void;
}): () => Promise<number> {
  const increment = async (value: number) => {
    options.onToolCall?.();
    if (options.toolDelayMs > 0) await sleep(options.toolDelayMs);
    return String(value + 1);
  };
  return async () => {
    const messages: unknown[] = [{ role: "user", text: "count" }];
    let turn = 0;
    for (;;) {
      turn += 1;
      if (turn > options.steps) {
        messages.push({ role: "assistant", text: "done" });
        break;
      }
      const calls = Array.from({ length: options.callsPerStep }, (_, index) => ({
        name: "increment",
        value: index,
      }));
      messages.push({ role: "assistant", calls });
      const results = await Promise.all(calls.map((call) => increment(call.value)));
      for (const result of results) messages.push({ role: "tool", result });
    }
    return messages.length;
  };
}

/** W6 floor: the same three conditions as plain JavaScript (`RegExp` for the regex variant). */
export function floorRouter(variant: "plain" | "regex", runs: number): () => Promise<number> {
  const refund = /^(refund|return)s?\b/;
  const number = /[0-9]{4}-[0-9]{4}/;
  const conditions: readonly ((input: { query: string; priority: string }) => boolean)[] =
    variant === "plain"
      ? [(input) => input.query.length > 100, (input) => input.priority === "high"]
      : [(input) => refund.test(input.query), (input) => number.test(input.query)];
  const inputs = { query: "where is my parcel? it was due on monday", priority: "normal" };
  return async () => {
    let routed = 0;
    for (let index = 0; index < runs; index += 1) {
      const result = await Promise.resolve(
        conditions.some((condition) => condition(inputs)) ? {} : { fallback: inputs.query },
      );
      if (result.fallback !== undefined) routed += 1;
    }
    return routed;
  };
}
