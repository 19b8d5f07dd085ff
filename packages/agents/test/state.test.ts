import { mergeLists, replaceValues, State, StateError } from "@junction/agents";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const basicSchema = {
  numbers: { type: z.array(z.unknown()) },
  metadata: { type: z.record(z.string(), z.unknown()) },
  name: { type: z.string().nullable() },
};

function numbersHandler(current: unknown, value: unknown): number[] {
  const all = [...((current as number[] | undefined) ?? []), ...(value as number[])];
  return [...new Set(all)].sort((a, b) => a - b);
}

describe("mergeLists / replaceValues", () => {
  test("merging two lists concatenates without modifying either", () => {
    const current = [1, 2, 3];
    const added = [4, 5, 6];
    expect(mergeLists(current, added)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(current).toEqual([1, 2, 3]);
    expect(added).toEqual([4, 5, 6]);
  });
  test("a single value is appended as one item", () => {
    expect(mergeLists([1, 2, 3], 4)).toEqual([1, 2, 3, 4]);
    expect(mergeLists(1, 2)).toEqual([1, 2]);
    expect(mergeLists(1, [2, 3])).toEqual([1, 2, 3]);
    expect(mergeLists(undefined, [2])).toEqual([2]);
  });
  test("replaceValues returns the new value", () => {
    expect(replaceValues("old", "new")).toBe("new");
  });
});

describe("State", () => {
  test("starts empty or with the given data", () => {
    expect(new State({ schema: basicSchema }).data).toEqual({});
    const state = new State({ schema: basicSchema, data: { numbers: [1, 2, 3], name: "test" } });
    expect(state.data.numbers).toEqual([1, 2, 3]);
    expect(state.data.name).toBe("test");
  });

  test("get returns the value, or the default when the key has none", () => {
    const state = new State({ schema: basicSchema, data: { name: "test" } });
    expect(state.get("name")).toBe("test");
    expect(state.get("metadata")).toBeUndefined();
    expect(state.get("metadata", "default")).toBe("default");
  });

  test("list keys append by default; other keys are replaced", () => {
    const state = new State({ schema: basicSchema });
    state.set("numbers", [1, 2]);
    expect(state.get("numbers")).toEqual([1, 2]);
    state.set("numbers", [3, 4]);
    expect(state.get("numbers")).toEqual([1, 2, 3, 4]);
    state.set("numbers", "not_a_list");
    expect(state.get("numbers")).toEqual([1, 2, 3, 4, "not_a_list"]);
    state.set("name", "first");
    state.set("name", "second");
    expect(state.get("name")).toBe("second");
  });

  test("a custom handler merges instead", () => {
    const state = new State({ schema: { numbers: { type: z.array(z.number()), handler: numbersHandler } } });
    state.set("numbers", [3, 2, 1]);
    expect(state.get("numbers")).toEqual([1, 2, 3]);
    state.set("numbers", [6, 5, 4, 1]);
    expect(state.get("numbers")).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("a handler override applies to one set", () => {
    const state = new State({ schema: basicSchema });
    state.set("name", "first");
    state.set("name", "second", (current, value) => (current ? `${current}-${value}` : value));
    expect(state.get("name")).toBe("first-second");
    state.set("numbers", [1, 2]);
    state.set("numbers", [9], replaceValues);
    expect(state.get("numbers")).toEqual([9]);
  });

  test("nested structures merge through a custom handler", () => {
    const state = new State({
      schema: {
        complex: {
          type: z.record(z.string(), z.array(z.number())),
          handler: (current, value) => {
            const a = (current ?? {}) as Record<string, number[]>;
            const b = value as Record<string, number[]>;
            const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
            return Object.fromEntries([...keys].map((k) => [k, [...(a[k] ?? []), ...(b[k] ?? [])]]));
          },
        },
      },
    });
    state.set("complex", { a: [1, 2], b: [3, 4] });
    state.set("complex", { b: [5, 6], c: [7, 8] });
    expect(state.get("complex")).toEqual({ a: [1, 2], b: [3, 4, 5, 6], c: [7, 8] });
  });

  test("has reports whether a key has a value; null is a value", () => {
    const state = new State({ schema: basicSchema, data: { name: "test" } });
    expect(state.has("name")).toBe(true);
    expect(state.has("numbers")).toBe(false);
    expect(state.has("not_in_schema")).toBe(false);
    state.set("name", null);
    expect(state.has("name")).toBe(true);
    expect(state.get("name", "default")).toBeNull();
  });

  test("unknown keys throw on set and get, naming the key and the known keys", () => {
    const state = new State({ schema: basicSchema });
    expect(() => (state as State).set("any_key", "value")).toThrow(StateError);
    expect(() => (state as State).set("any_key", "value")).toThrow(
      /"any_key" is not in the State schema.*"numbers"/,
    );
    expect(() => (state as State).get("any_key")).toThrow(/"any_key"/);
    expect(() => new State({ schema: basicSchema, data: { nope: 1 } as never })).toThrow(/"nope"/);
  });

  test("values are checked against the key's schema; list keys check the items appended", () => {
    const state = new State({ schema: { count: { type: z.number() }, tags: { type: z.array(z.string()) } } });
    expect(() => state.set("count", "three" as never)).toThrow(StateError);
    expect(() => state.set("tags", 1 as never)).toThrow(/tags/);
    expect(() => state.set("tags", ["ok", 2] as never)).toThrow(/tags\[1\]/);
    expect(state.has("tags")).toBe(false);
    state.set("tags", "one");
    state.set("tags", ["two"]);
    expect(state.get("tags")).toEqual(["one", "two"]);
  });

  test("construction reports every problem at once", () => {
    let error: unknown;
    try {
      new State({
        schema: {
          a: { type: z.number() },
          b: { type: "string" as never },
          c: { type: z.string(), handler: 1 as never },
        },
        data: { a: "x" as never },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).issues.map((issue) => issue.path.join("."))).toEqual([
      "b.type",
      "c.handler",
      "data.a",
    ]);
  });

  test("lists read from the State cannot be mutated, and are snapshots", () => {
    const state = new State({ schema: { items: { type: z.array(z.number()) } }, data: { items: [1, 2] } });
    const items = state.get("items") as number[];
    expect(() => items.push(3)).toThrow(TypeError);
    expect(() => {
      items[0] = 9;
    }).toThrow(TypeError);
    expect(state.get("items")).toEqual([1, 2]);
    state.set("items", 3);
    expect(items).toEqual([1, 2]);
    expect(items.length).toBe(2);
    expect(state.get("items")).toEqual([1, 2, 3]);
    expect(Array.isArray(items)).toBe(true);
    expect(JSON.stringify(state.data)).toBe('{"items":[1,2,3]}');
    expect(items.map((n) => n * 10)).toEqual([10, 20]);
  });

  test("the data passed in is copied, not aliased", () => {
    const input = [1, 2];
    const state = new State({ schema: { items: { type: z.array(z.number()) } }, data: { items: input } });
    input.push(3);
    expect(state.get("items")).toEqual([1, 2]);
  });

  test("lists default to mergeLists through optional/nullable wrappers", () => {
    const state = new State({ schema: { docs: { type: z.array(z.string()).optional() } } });
    state.set("docs", "a");
    state.set("docs", ["b"]);
    expect(state.get("docs")).toEqual(["a", "b"]);
    expect(state.schema.docs.handler).toBe(mergeLists);
  });

  test("a custom handler that returns the current list unchanged keeps it", () => {
    const state = new State({
      schema: { items: { type: z.array(z.number()), handler: (current) => current } },
      data: { items: [1] },
    });
    state.set("items", [2]);
    expect(state.get("items")).toEqual([1]);
  });
});
