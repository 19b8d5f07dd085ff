import {
  fromDurableJSON,
  inProcessDurable,
  registerDurableType,
  SerializationError,
  scopeDurable,
  toDurableJSON,
} from "@junction/core";
import { expect, test } from "vitest";

class Money {
  constructor(readonly cents: number) {}
}
registerDurableType({
  name: "ctest.Money",
  type: Money,
  toJSON: (money) => money.cents,
  fromJSON: (cents) => new Money(cents as number),
});

/** Through JSON text, as a journal stores it. */
function roundTrip(value: unknown): unknown {
  return fromDurableJSON(JSON.parse(JSON.stringify(toDurableJSON(value))));
}

test("step results survive the journal: plain JSON, registered classes, dates, errors, undefined", () => {
  const value = {
    text: "hi",
    list: [1, null, undefined, Number.NaN, new Money(250)],
    nested: { price: new Money(5), at: new Date("2026-12-01T10:00:00.000Z") },
    missing: undefined,
    big: 12n,
  };
  const back = roundTrip(value) as typeof value;
  expect(back).toEqual(value);
  expect(back.nested.price).toBeInstanceOf(Money);
  expect(Object.hasOwn(back, "missing")).toBe(true);
  const error = roundTrip(new TypeError("boom")) as Error;
  expect([error.name, error.message]).toEqual(["TypeError", "boom"]);
});

test("objects that look like tags, and __proto__ keys, come back as they were", () => {
  const tagged = { $junction: "ctest.Money", value: 3 };
  expect(roundTrip(tagged)).toEqual(tagged);
  const hostile = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
  const back = roundTrip(hostile) as Record<string, unknown>;
  expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  expect(Object.hasOwn(back, "__proto__")).toBe(true);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("a value that cannot be journaled is refused with its path and how to fix it", () => {
  class Opaque {}
  expect(() => toDurableJSON({ out: [new Opaque()] })).toThrow(SerializationError);
  expect(() => toDurableJSON({ out: [new Opaque()] })).toThrow(/Opaque at \$\.out\[0\].*registerDurableType/);
  expect(() => toDurableJSON({ run: () => 1 })).toThrow(/function at \$\.run/);
  expect(() => fromDurableJSON({ $junction: "nope.Unknown", value: 1 })).toThrow(/not registered/);
  expect(() =>
    registerDurableType({ name: "ctest.Money", type: class Other {}, toJSON: () => 1, fromJSON: () => ({}) }),
  ).toThrow(/already taken/);
});

test("scopeDurable prefixes step names; the in-process object runs steps directly", async () => {
  const names: string[] = [];
  const recording = {
    ...inProcessDurable,
    step: <T>(name: string, run: () => Promise<T>) => {
      names.push(name);
      return run();
    },
  };
  const scoped = scopeDurable(scopeDurable(recording, "outer#1"), "agent#2");
  expect(await scoped.step("llm#0", async () => 7)).toBe(7);
  expect(names).toEqual(["outer#1/agent#2/llm#0"]);
  expect(await inProcessDurable.all([inProcessDurable.step("a", async () => 1), Promise.resolve(2)])).toEqual(
    [1, 2],
  );
});

class Note {
  constructor(
    readonly text: string,
    readonly author?: string,
  ) {}
}
registerDurableType({
  name: "ctest.Note",
  type: Note,
  toJSON: (note) => ({ text: note.text, author: note.author }),
  fromJSON: (json) => new Note((json as { text: string }).text, (json as { author?: string }).author),
});

test("a registered class's JSON is JSON data: an undefined field is left out at once, not after a restart", () => {
  const written = toDurableJSON([new Note("hi")]);
  expect(written).toEqual([{ $junction: "ctest.Note", value: { text: "hi" } }]);
  expect(Object.keys((written as { value: object }[])[0]!.value)).toEqual(["text"]);
  expect(JSON.parse(JSON.stringify(written))).toStrictEqual(written);
  expect(fromDurableJSON(written)).toEqual([new Note("hi")]);
});
