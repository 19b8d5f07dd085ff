import { inspect } from "node:util";
import "@junction/components";
import { DeserializationError, Pipeline } from "@junction/core";
import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import { baseDocument } from "./components.js";
import { type HostileCase, type HostileInput, hostileCases } from "./corpus.js";

const prototypes = [
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
];
const before = prototypes.map((prototype) => Reflect.ownKeys(prototype).map(String).sort());

function assertNothingPolluted(): void {
  prototypes.forEach((prototype, index) => {
    expect(Reflect.ownKeys(prototype).map(String).sort()).toEqual(before[index]);
  });
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted).toBeUndefined();
  expect(probe.isAdmin).toBeUndefined();
  expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
}

afterEach(assertNothingPolluted);

/** No error message from the corpus is longer than this (characters): quotes of user data are excerpts. */
const maxMessage = 20_000;

function load(input: HostileInput): Pipeline {
  const text = (source: string | (() => string)) => (typeof source === "function" ? source() : source);
  if ("yaml" in input) return Pipeline.fromYAML(text(input.yaml));
  if ("json" in input) return Pipeline.fromJSON(JSON.parse(text(input.json)));
  return Pipeline.fromJSON(input.value());
}

function pathText(path: readonly (string | number)[]): string {
  return path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join("");
}

async function check(entry: HostileCase): Promise<void> {
  let loaded: Pipeline | undefined;
  let caught: unknown;
  try {
    loaded = load(entry.input);
  } catch (error) {
    caught = error;
  }
  if ("loads" in entry.expect) {
    if (caught !== undefined) throw caught;
    // Loaded harmlessly: it writes back and runs like any pipeline.
    const doc = loaded!.toJSON();
    expect(Pipeline.fromJSON(doc).toJSON()).toEqual(doc);
    const open = Object.entries(loaded!.inputs()).filter(([, sockets]) => sockets.text !== undefined);
    if (open.length > 0) await loaded!.run(Object.fromEntries(open.map(([name]) => [name, { text: "x" }])));
    return;
  }
  expect(caught, "the document should be refused").toBeInstanceOf(DeserializationError);
  const error = caught as DeserializationError;
  expect(error.message).toMatch(entry.expect.rejects);
  for (const issue of error.issues.slice(0, 50)) expect(error.message).toContain(issue.message);
  expect(error.message.length).toBeLessThan(maxMessage);
  for (const issue of error.issues) expect(issue.message.length).toBeLessThan(2_000);
  if (entry.expect.paths !== undefined) {
    expect(error.issues.map((issue) => pathText(issue.path))).toEqual(entry.expect.paths);
  }
  if (entry.expect.secret !== undefined) {
    expect(inspect(error, { depth: 20 })).not.toContain(entry.expect.secret);
    expect(JSON.stringify(error.issues)).not.toContain(entry.expect.secret);
  }
}

describe("hostile documents are refused clearly or loaded harmlessly", () => {
  for (const entry of hostileCases) {
    test(entry.name, () => check(entry), 30_000);
  }
});

describe("random documents with dangerous keys", () => {
  const dangerousKey = fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "valueOf",
    "type",
  );
  const key = fc.oneof(dangerousKey, fc.string({ maxLength: 6 }));
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.jsonValue({ maxDepth: 2 }),
      fc.array(tie("node"), { maxLength: 3 }),
      fc.dictionary(key, tie("node"), { maxKeys: 4 }),
    ),
  })).node;

  test("never pollute, never throw anything but DeserializationError", () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (patch) => {
        const doc = { ...baseDocument(), ...patch };
        const variants = [doc, JSON.parse(JSON.stringify(doc))];
        for (const variant of variants) {
          try {
            Pipeline.fromJSON(variant);
          } catch (error) {
            if (!(error instanceof DeserializationError)) throw error;
          }
        }
        assertNothingPolluted();
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
