import { mergeById, State } from "@junction/agents";
import { describe, expect, test } from "vitest";
import { z } from "zod";

describe("mergeById", () => {
  test("a retrieved item already in the list replaces it in place; new items are appended in order", () => {
    const merged = mergeById(
      [
        { id: "a", score: 1 },
        { id: "b", score: 1 },
      ],
      [
        { id: "b", score: 3 },
        { id: "c", score: 2 },
      ],
    );
    expect(merged).toEqual([
      { id: "a", score: 1 },
      { id: "b", score: 3 },
      { id: "c", score: 2 },
    ]);
  });

  test("a missing current value counts as empty; one item merges like a list of one", () => {
    expect(mergeById(undefined, { id: "a" })).toEqual([{ id: "a" }]);
    expect(mergeById([{ id: "a", n: 1 }], { id: "a", n: 2 })).toEqual([{ id: "a", n: 2 }]);
  });

  test("duplicates inside one value collapse to the last; items without an id are appended", () => {
    expect(mergeById([], [{ id: "a", n: 1 }, { id: "a", n: 2 }, "x", { n: 3 }])).toEqual([
      { id: "a", n: 2 },
      "x",
      { n: 3 },
    ]);
  });

  test("does not modify the current list", () => {
    const current = [{ id: "a", n: 1 }];
    mergeById(current, [{ id: "a", n: 2 }]);
    expect(current).toEqual([{ id: "a", n: 1 }]);
  });

  test("as a declared handler, a State key merges by id", () => {
    const state = new State({
      schema: { hits: { type: z.array(z.object({ id: z.string(), n: z.number() })), handler: mergeById } },
    });
    state.set("hits", [{ id: "a", n: 1 }]);
    state.set("hits", [
      { id: "a", n: 2 },
      { id: "b", n: 1 },
    ]);
    expect(state.get("hits")).toEqual([
      { id: "a", n: 2 },
      { id: "b", n: 1 },
    ]);
  });
});
