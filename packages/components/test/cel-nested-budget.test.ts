import { ConditionalRouter, RouteConditionError } from "@junction/components";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/** The step budget of nested loops, from a second angle: exists/filter, and per evaluation. */

function router(condition: string) {
  return new ConditionalRouter({
    routes: [
      { condition, output: "'hit'", outputName: "hit", outputType: z.string() },
      { condition: "true", output: "'miss'", outputName: "miss", outputType: z.string() },
    ],
  });
}

describe("a nested loop's step budget", () => {
  test("nested exists over 3,000 items (9 million pairs) stops at maxSteps instead of running them", async () => {
    const items = Array.from({ length: 3_000 }, (_, index) => index);
    const started = Date.now();
    const error = await router("items.exists(a, items.filter(b, b == a + 5000).size() > 0)")
      .run({ items })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouteConditionError);
    expect((error as Error).message).toMatch(/took more than 1000000 steps/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("the budget is per evaluation: a nested loop under it answers every time, run after run", async () => {
    const items = Array.from({ length: 100 }, (_, index) => index);
    const component = router("items.exists(a, items.exists(b, a + b == 198))");
    for (let round = 0; round < 20; round += 1) {
      expect(await component.run({ items })).toEqual({ hit: "hit" });
    }
    expect(await component.run({ items: items.slice(0, 50) })).toEqual({ miss: "miss" });
  });
});
