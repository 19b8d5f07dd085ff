import { defineComponent } from "@junction/core";
import { seededRandom } from "../../support/seeded-random.js";

/**
 * `defineComponent` for the conformance suite's components: the same declaration, plus an optional
 * delay before each run so that the harness can make components finish in a shuffled order when the
 * pipeline runs them concurrently (results must not depend on it).
 */

let delayFor: (() => number | undefined) | undefined;

/**
 * Sets (or clears, with `undefined`) the function that picks a delay in milliseconds before each
 * component run.
 */
export function setRunDelay(next: (() => number | undefined) | undefined): void {
  delayFor = next;
}

/** A seeded pseudo-random delay source (mulberry32), so shuffled runs are reproducible. */
export function seededDelays(seed: number, maxMilliseconds: number): () => number {
  const random = seededRandom(seed);
  return () => Math.floor(random() * (maxMilliseconds + 1));
}

/** Like `defineComponent`, but honours {@link setRunDelay}. */
export const defineTestComponent: typeof defineComponent = ((definition: any) =>
  defineComponent({
    ...definition,
    run: async (inputs: unknown, context: unknown) => {
      const delay = delayFor?.();
      if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
      return definition.run(inputs, context);
    },
  })) as typeof defineComponent;
