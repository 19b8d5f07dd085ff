import {
  ComponentError,
  type ConversionStrategy,
  checkCompatibility,
  defineNamedType,
  registerConversion,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/**
 * The compatibility table. Cases are translated from the reference's `test/core/test_type_utils.py`
 * (Python types → zod schemas) and extended with the rules where Junction deliberately differs; each
 * difference is marked `DIFFERS:`.
 */

class Class1 {
  readonly kind: string = "one";
}
class Class2 {
  readonly kind: string = "two";
}
class Class3 extends Class1 {}

class Message {
  constructor(readonly text: string | undefined) {}
}
class Celsius {
  constructor(readonly degrees: number) {}
}
class Fahrenheit {
  constructor(readonly degrees: number) {}
}

const class1 = z.instanceof(Class1);
const class2 = z.instanceof(Class2);
const class3 = z.instanceof(Class3);
const message = defineNamedType("compat_test.Message", z.instanceof(Message));
const celsius = defineNamedType("compat_test.Celsius", z.instanceof(Celsius));
const fahrenheit = defineNamedType("compat_test.Fahrenheit", z.instanceof(Fahrenheit));
const documentA = defineNamedType("compat_test.DocumentA", z.object({ content: z.string() }));
const documentB = defineNamedType("compat_test.DocumentB", z.object({ content: z.string() }));

// Test strategies, confined to the test's own named types so they cannot change the other rows.
const isString = (schema: z.ZodType) => schema._zod.def.type === "string";
const strategies: ConversionStrategy[] = [
  {
    name: "compat_test.wrap_message",
    priority: 10,
    match: (sender, receiver, helpers) => {
      const element = helpers.arrayElement(receiver);
      return sender === message && element === message ? (value) => [value] : undefined;
    },
  },
  {
    name: "compat_test.unwrap_message",
    priority: 20,
    match: (sender, receiver, helpers) =>
      helpers.arrayElement(sender) === message && helpers.isStrictlyCompatible(message, receiver)
        ? (value) => {
            const items = value as unknown[];
            if (items.length !== 1) throw new Error(`Cannot unwrap a list of ${items.length} items.`);
            return items[0];
          }
        : undefined,
  },
  {
    name: "compat_test.message_to_string",
    priority: 30,
    match: (sender, receiver) =>
      sender === message && isString(receiver)
        ? (value) => {
            const text = (value as Message).text;
            if (text === undefined) throw new Error("Cannot convert a Message without text to a string.");
            return text;
          }
        : undefined,
  },
  {
    name: "compat_test.string_to_message",
    priority: 40,
    match: (sender, receiver) =>
      isString(sender) && receiver === message ? (value) => new Message(value as string) : undefined,
  },
  {
    name: "compat_test.temperature_to_number",
    priority: 50,
    match: (sender, receiver) => {
      if (receiver._zod.def.type !== "number") return undefined;
      if (sender === celsius) return (value) => (value as Celsius).degrees;
      if (sender === fahrenheit) return (value) => (((value as Fahrenheit).degrees - 32) * 5) / 9;
      return undefined;
    },
  },
];
for (const strategy of strategies) registerConversion(strategy);

type Expected = boolean | string;
type Row = readonly [label: string, sender: z.ZodType, receiver: z.ZodType, expected: Expected];

function answer(sender: z.ZodType, receiver: z.ZodType): Expected {
  const result = checkCompatibility(sender, receiver);
  if (!result.compatible) return false;
  return result.conversion?.name ?? true;
}

/** Schemas every "same type" and "T into wider T" row is built from (the reference's type groups). */
const samples: Record<string, () => z.ZodType> = {
  boolean: () => z.boolean(),
  "bytes (Uint8Array)": () => z.instanceof(Uint8Array),
  "dict (record)": () => z.record(z.string(), z.unknown()),
  "float (number)": () => z.number(),
  "int (z.int())": () => z.int(),
  "list (unknown[])": () => z.array(z.unknown()),
  string: () => z.string(),
  "Record<string, number>": () => z.record(z.string(), z.number()),
  "Record<string, Class1>": () => z.record(z.string(), class1),
  "number[]": () => z.array(z.number()),
  "Class1[]": () => z.array(class1),
  "Set<string>": () => z.set(z.string()),
  "[number]": () => z.tuple([z.number()]),
  "boolean[][][]": () => z.array(z.set(z.array(z.boolean()))),
  "Record<string, Record<string, Record<string, number>>>": () =>
    z.record(z.string(), z.record(z.string(), z.record(z.string(), z.number()))),
  'tuple ["a"|"b"|"c" | null, string | Record<number, Class1>]': () =>
    z.tuple([z.enum(["a", "b", "c"]).nullable(), z.union([z.string(), z.record(z.number(), class1)])]),
  'literal "a" | "b" | "c"': () => z.literal(["a", "b", "c"]),
  "named Message": () => message,
  "number | string": () => z.union([z.number(), z.string()]),
  "number | null": () => z.number().nullable(),
  "string | undefined": () => z.string().optional(),
};

const sameTypeRows: Row[] = Object.entries(samples).flatMap(([label, make]): Row[] => {
  const schema = make();
  const rows: Row[] = [[`${label} into itself`, schema, schema, true]];
  // z.instanceof schemas are custom: a fresh copy is not the identical schema (the Class1 rows share one).
  const custom = label.includes("Uint8Array");
  if (!label.startsWith("named")) rows.push([`${label} into an equal copy`, schema, make(), !custom]);
  return rows;
});

const widerRows: Row[] = Object.entries(samples).flatMap(([label, make]): Row[] => {
  const schema = make();
  return [
    [`${label} into optional`, schema, schema.optional(), true],
    [`${label} into nullable`, schema, schema.nullable(), true],
    [`${label} into | bigint`, schema, z.union([schema, z.bigint()]), true],
    [`${label} into any`, schema, z.any(), true],
    [`${label} into unknown`, schema, z.unknown(), true],
    [`optional ${label} into ${label}`, schema.optional(), schema, label.includes("undefined")],
    [`${label} | bigint into ${label}`, z.union([schema, z.bigint()]), schema, false],
    [`any into ${label}`, z.any(), schema, false],
  ];
});

const referenceRows: Row[] = [
  // DIFFERS: the reference accepts bool → int (Python's bool subclasses int); a JS boolean is not a number.
  ["boolean into number", z.boolean(), z.number(), false],
  ['"a"|"b" into "a"|"b"|"c"', z.literal(["a", "b"]), z.literal(["a", "b", "c"]), true],
  // DIFFERS: the reference compares literal arguments in order.
  ['"b"|"a" into "a"|"b"|"c" (reordered)', z.literal(["b", "a"]), z.literal(["a", "b", "c"]), true],
  ["number into number | string", z.number(), z.union([z.number(), z.string()]), true],
  ["string into string | number | boolean", z.string(), z.union([z.string(), z.number(), z.boolean()]), true],
  ["number[] into any[]", z.array(z.number()), z.array(z.any()), true],
  ["Class1[] into any[]", z.array(class1), z.array(z.any()), true],
  [
    "boolean nested into any nested",
    z.array(z.set(z.array(z.boolean()))),
    z.array(z.set(z.array(z.any()))),
    true,
  ],
  // DIFFERS: subclass → superclass is accepted by the reference; z.instanceof schemas are opaque.
  ["Class3 into Class1", class3, class1, false],
  [
    "Record<string, number> into Record<string, any>",
    z.record(z.string(), z.number()),
    z.record(z.string(), z.any()),
    true,
  ],
  [
    "Record<string, Record<string, number>> into Record<string, Record<string, unknown>>",
    z.record(z.string(), z.record(z.string(), z.number())),
    z.record(z.string(), z.record(z.string(), z.unknown())),
    true,
  ],
  [
    "deeply nested tuple into its optional variant",
    z.tuple([z.enum(["a", "b", "c"]), z.union([z.string(), z.record(z.number(), class1)])]),
    z.tuple([z.enum(["a", "b", "c"]).nullable(), z.union([z.string(), z.record(z.number(), class1)])]),
    true,
  ],
  // Incompatible (reference: incompatible_type_cases).
  [
    "[number, string] into [any] (different lengths)",
    z.tuple([z.number(), z.string()]),
    z.tuple([z.any()]),
    false,
  ],
  ["number into string", z.number(), z.string(), false],
  ["Class1 into Class2", class1, class2, false],
  ["number[] into string[]", z.array(z.number()), z.array(z.string()), false],
  ["Class1[] into Class2[]", z.array(class1), z.array(class2), false],
  ['"a"|"b"|"c" into "x"|"y"', z.literal(["a", "b", "c"]), z.literal(["x", "y"]), false],
  ['enum ["TEST1"] into enum ["TEST2"]', z.enum(["TEST1"]), z.enum(["TEST2"]), false],
  [
    "string nested into boolean nested",
    z.array(z.set(z.array(z.string()))),
    z.array(z.set(z.array(z.boolean()))),
    false,
  ],
  ["string[] in a set into a set of string[]", z.array(z.set(z.string())), z.set(z.array(z.string())), false],
  [
    "Record<string, n> into Record<number, n>",
    z.record(z.string(), z.number()),
    z.record(z.number(), z.number()),
    false,
  ],
  [
    "Record<string, number> into Record<string, string>",
    z.record(z.string(), z.number()),
    z.record(z.string(), z.string()),
    false,
  ],
  [
    "Record<string, any> into Record<string, number>",
    z.record(z.string(), z.any()),
    z.record(z.string(), z.number()),
    false,
  ],
  [
    "Record<string, Class1> into Record<string, Class2>",
    z.record(z.string(), class1),
    z.record(z.string(), class2),
    false,
  ],
  [
    "number | boolean into number | string (partial overlap)",
    z.union([z.number(), z.boolean()]),
    z.union([z.number(), z.string()]),
    false,
  ],
  [
    "number | Class1 into number | Class2",
    z.union([z.number(), class1]),
    z.union([z.number(), class2]),
    false,
  ],
  // Containers of primitives into bare containers, and not back.
  ["number[] into unknown[]", z.array(z.number()), z.array(z.unknown()), true],
  ["unknown[] into number[]", z.array(z.unknown()), z.array(z.number()), false],
  [
    "Record<string, number> into Record<string, unknown>",
    z.record(z.string(), z.number()),
    z.record(z.string(), z.unknown()),
    true,
  ],
  [
    "Record<string, unknown> into Record<string, number>",
    z.record(z.string(), z.unknown()),
    z.record(z.string(), z.number()),
    false,
  ],
  ["[number, string] into unknown[]", z.tuple([z.number(), z.string()]), z.array(z.unknown()), true],
  ["unknown[] into [number, string]", z.array(z.unknown()), z.tuple([z.number(), z.string()]), false],
  ["any[] into unknown[]", z.array(z.any()), z.array(z.unknown()), true],
  ["unknown[] into any[]", z.array(z.unknown()), z.array(z.any()), true],
  ["number[][] into unknown[][]", z.array(z.array(z.number())), z.array(z.array(z.unknown())), true],
  ["unknown[][] into number[][]", z.array(z.array(z.unknown())), z.array(z.array(z.number())), false],
  ["number[][][] into unknown[]", z.array(z.array(z.array(z.number()))), z.array(z.unknown()), true],
  // Functions: parameters contravariant, result covariant.
  // DIFFERS: the reference lets any callable into a bare `Callable`; like TypeScript, a receiver that may
  // call with any arguments (`z.function()`) only accepts functions that take any arguments.
  [
    "(number, string) => boolean into bare function",
    z.function({ input: [z.number(), z.string()], output: z.boolean() }),
    z.function(),
    false,
  ],
  ["(...unknown[]) => boolean into bare function", z.function({ output: z.boolean() }), z.function(), true],
  [
    "bare function into (number, string) => boolean",
    z.function(),
    z.function({ input: [z.number(), z.string()], output: z.boolean() }),
    false,
  ],
  [
    "(unknown[]) => number into (unknown[]) => any",
    z.function({ input: [z.array(z.unknown())], output: z.number() }),
    z.function({ input: [z.array(z.unknown())], output: z.any() }),
    true,
  ],
  [
    "(number, string) => boolean into (number, string) => unknown[]",
    z.function({ input: [z.number(), z.string()], output: z.boolean() }),
    z.function({ input: [z.number(), z.string()], output: z.array(z.unknown()) }),
    false,
  ],
  [
    "(number, number) => boolean into (number, string) => boolean",
    z.function({ input: [z.number(), z.number()], output: z.boolean() }),
    z.function({ input: [z.number(), z.string()], output: z.boolean() }),
    false,
  ],
  [
    "(number, string) => boolean into (number, string, number) => boolean",
    z.function({ input: [z.number(), z.string()], output: z.boolean() }),
    z.function({ input: [z.number(), z.string(), z.number()], output: z.boolean() }),
    false,
  ],
];

const shared = z.instanceof(Class1);
const junctionRows: Row[] = [
  // Literals and enums into base types and wider enums, in any order.
  ['"a" into string', z.literal("a"), z.string(), true],
  ["3 into number", z.literal(3), z.number(), true],
  ["true into boolean", z.literal(true), z.boolean(), true],
  ["3.5 into int", z.literal(3.5), z.int(), false],
  ['"ab" into string.min(2)', z.literal("ab"), z.string().min(2), true],
  ['"a" into string.min(2)', z.literal("a"), z.string().min(2), false],
  ['enum ["x","y"] into string', z.enum(["x", "y"]), z.string(), true],
  ['enum ["x","y"] into enum ["y","z","x"]', z.enum(["x", "y"]), z.enum(["y", "z", "x"]), true],
  ['enum ["x","y","z"] into enum ["x","y"]', z.enum(["x", "y", "z"]), z.enum(["x", "y"]), false],
  [
    '"x" | "y" (union of literals) into enum ["y","x"]',
    z.union([z.literal("x"), z.literal("y")]),
    z.enum(["y", "x"]),
    true,
  ],
  ['string into "a"', z.string(), z.literal("a"), false],
  ["null into nullable string", z.null(), z.string().nullable(), true],
  ["undefined into optional string", z.undefined(), z.string().optional(), true],
  ["undefined into string", z.undefined(), z.string(), false],
  // Refinements: the receiver's checks must follow from the sender's.
  ["int into number", z.int(), z.number(), true],
  ["number into int", z.number(), z.int(), false],
  ["string.min(3) into string.min(1)", z.string().min(3), z.string().min(1), true],
  ["string into string.min(1)", z.string(), z.string().min(1), false],
  ["email into string", z.email(), z.string(), true],
  ["string into email", z.string(), z.email(), false],
  ["number.gt(5) into number.gte(0)", z.number().gt(5), z.number().gte(0), true],
  ["number[].min(2) into number[].min(1)", z.array(z.number()).min(2), z.array(z.number()).min(1), true],
  // Optional and nullable: T into T | undefined / T | null, never the reverse.
  ["string | undefined into string | null", z.string().optional(), z.string().nullable(), false],
  [
    "string | null into string | null | undefined",
    z.string().nullable(),
    z.string().nullable().optional(),
    true,
  ],
  // DIFFERS: a receiver with a default accepts `undefined` (it receives the default).
  ["string | undefined into string with a default", z.string().optional(), z.string().default("x"), true],
  ["string with a default into string", z.string().default("x"), z.string(), true],
  ["readonly string[] into string[]", z.array(z.string()).readonly(), z.array(z.string()), true],
  // Objects, structurally.
  ["{a, b} into {a}", z.object({ a: z.string(), b: z.number() }), z.object({ a: z.string() }), true],
  ["{a} into {a, b}", z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() }), false],
  [
    "{a} into {a, b?}",
    z.object({ a: z.string() }),
    z.object({ a: z.string(), b: z.number().optional() }),
    true,
  ],
  ["{a?} into {a}", z.object({ a: z.string().optional() }), z.object({ a: z.string() }), false],
  ['{a: "x"} into {a: string}', z.object({ a: z.literal("x") }), z.object({ a: z.string() }), true],
  [
    "{a, b} into strict {a}",
    z.object({ a: z.string(), b: z.number() }),
    z.strictObject({ a: z.string() }),
    false,
  ],
  [
    "loose {a} into {a, b?: number}",
    z.looseObject({ a: z.string() }),
    z.object({ a: z.string(), b: z.number().optional() }),
    false,
  ],
  [
    "{a: number} into Record<string, number>",
    z.object({ a: z.number() }),
    z.record(z.string(), z.number()),
    true,
  ],
  [
    "Record<string, number> into {a: number}",
    z.record(z.string(), z.number()),
    z.object({ a: z.number() }),
    false,
  ],
  // Records with finite keys.
  [
    'Record<"a", n> into Record<"a"|"b", n> (exhaustive)',
    z.record(z.enum(["a"]), z.number()),
    z.record(z.enum(["a", "b"]), z.number()),
    false,
  ],
  [
    'Record<"a"|"b", n> into Record<string, n>',
    z.record(z.enum(["a", "b"]), z.number()),
    z.record(z.string(), z.number()),
    true,
  ],
  [
    'Record<"a", n> into Partial<Record<"a"|"b", n>>',
    z.record(z.enum(["a"]), z.number()),
    z.partialRecord(z.enum(["a", "b"]), z.number()),
    true,
  ],
  // Unions on either side.
  [
    '"a" | number into string | number',
    z.union([z.literal("a"), z.number()]),
    z.union([z.number(), z.string()]),
    true,
  ],
  ["string | number into string", z.union([z.string(), z.number()]), z.string(), false],
  [
    "discriminated union into a wider union",
    z.discriminatedUnion("k", [z.object({ k: z.literal("a") })]),
    z.union([z.object({ k: z.string() }), z.null()]),
    true,
  ],
  // Arrays and tuples element-wise.
  [
    "[string, number] into (string | number)[]",
    z.tuple([z.string(), z.number()]),
    z.array(z.union([z.string(), z.number()])),
    true,
  ],
  [
    "[string] into [string, number?]",
    z.tuple([z.string()]),
    z.tuple([z.string(), z.number().optional()]),
    true,
  ],
  ["[string, ...number[]] into [string]", z.tuple([z.string()], z.number()), z.tuple([z.string()]), false],
  // Named types by identity; z.custom/z.instanceof only when identical.
  ["DocumentA into DocumentB (same shape, different names)", documentA, documentB, false],
  ["{content} into DocumentA", z.object({ content: z.string() }), documentA, false],
  ["DocumentA into {content}", documentA, z.object({ content: z.string() }), true],
  ["Message[] into optional Message[]", z.array(message), z.array(message).optional(), true],
  ["an instanceof schema into the same schema", shared, shared, true],
  ["z.custom() into another z.custom()", z.custom<string>(), z.custom<string>(), false],
  ["z.custom() into unknown", z.custom<string>(), z.unknown(), true],
  // Pipes and transforms: a pipeline sends what `run` returned, so both sides are what their schemas accept.
  [
    "string → length (transform) into number",
    z.string().transform((value) => value.length),
    z.number(),
    false,
  ],
  [
    "string → length (transform) into string",
    z.string().transform((value) => value.length),
    z.string(),
    true,
  ],
  ['"a" with a catch into string', z.literal("a").catch("a"), z.string(), false],
  [
    "string into string → length (transform)",
    z.string(),
    z.string().transform((value) => value.length),
    true,
  ],
  [
    "number into string → length (transform)",
    z.number(),
    z.string().transform((value) => value.length),
    false,
  ],
  // Other containers and wrappers.
  ['Set<"a"> into Set<string>', z.set(z.literal("a")), z.set(z.string()), true],
  [
    "Map<string, number> into Map<string, string>",
    z.map(z.string(), z.number()),
    z.map(z.string(), z.string()),
    false,
  ],
  ["Promise<int> into Promise<number>", z.promise(z.int()), z.promise(z.number()), true],
  ['template "id-" + string into string', z.templateLiteral(["id-", z.string()]), z.string(), true],
  ['"id-7" into template "id-" + number', z.literal("id-7"), z.templateLiteral(["id-", z.number()]), true],
  [
    "{a} & {b} into {a}",
    z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    z.object({ a: z.string() }),
    true,
  ],
  [
    "{a: string} into {a: string} & {b?: number}",
    z.object({ a: z.string() }),
    z.intersection(z.object({ a: z.string() }), z.object({ b: z.number().optional() })),
    true,
  ],
  ["string into nonoptional(string | undefined)", z.string(), z.string().optional().nonoptional(), true],
  [
    "string | undefined into nonoptional(string | undefined)",
    z.string().optional(),
    z.string().optional().nonoptional(),
    false,
  ],
  ["string into string.pipe(string.min(2))", z.string(), z.string().pipe(z.string().min(2)), false],
  [
    "string.min(2) into string.pipe(string.min(1))",
    z.string().min(2),
    z.string().pipe(z.string().min(1)),
    true,
  ],
  [
    "{a: number, extra: number} into catchall(number) {a}",
    z.object({ a: z.number(), extra: z.number() }),
    z.object({ a: z.number() }).catchall(z.number()),
    true,
  ],
  [
    "{a: number, extra: string} into catchall(number) {a}",
    z.object({ a: z.number(), extra: z.string() }),
    z.object({ a: z.number() }).catchall(z.number()),
    false,
  ],
  ["lazy string into string", z.lazy(() => z.string()), z.string(), true],
  ["never into string", z.never(), z.string(), true],
  ["string into never", z.string(), z.never(), false],
  // Recursive schemas.
  ["a recursive tree into an equal copy", treeSchema(), treeSchema(), true],
];

const conversionRows: Row[] = [
  ["Message into string", message, z.string(), "compat_test.message_to_string"],
  ["string into Message", z.string(), message, "compat_test.string_to_message"],
  ["Message into Message[]", message, z.array(message), "compat_test.wrap_message"],
  ["Message[] into Message", z.array(message), message, "compat_test.unwrap_message"],
  ["Message into Message (strict wins)", message, message, true],
  ["Message into Message | string (strict wins)", message, z.union([message, z.string()]), true],
  [
    "Message into string | number",
    message,
    z.union([z.string(), z.number()]),
    "compat_test.message_to_string",
  ],
  ["number into string | Message", z.number(), z.union([z.string(), message]), false],
  ["Message into Message[] | null", message, z.array(message).nullable(), "compat_test.wrap_message"],
  ["Message into optional Message[]", message, z.array(message).optional(), "compat_test.wrap_message"],
  [
    "Message into string | Message[] (priority)",
    message,
    z.union([z.string(), z.array(message)]),
    "compat_test.wrap_message",
  ],
  [
    "Message into Message[] | string (priority, reordered)",
    message,
    z.union([z.array(message), z.string()]),
    "compat_test.wrap_message",
  ],
  [
    "Message[] into string | Message",
    z.array(message),
    z.union([z.string(), message]),
    "compat_test.unwrap_message",
  ],
  ["string | Message into string (mixed sender)", z.union([z.string(), message]), z.string(), false],
  ["optional Message into string", message.optional(), z.string(), false],
  ["Message[][] into Message[] (one level only)", z.array(z.array(message)), z.array(message), false],
  ["Celsius into number", celsius, z.number(), "compat_test.temperature_to_number"],
  [
    "Celsius | Fahrenheit into number",
    z.union([celsius, fahrenheit]),
    z.number(),
    "compat_test.temperature_to_number",
  ],
  ["Celsius | Message into string", z.union([celsius, message]), z.string(), false],
  ["Celsius into string", celsius, z.string(), false],
];

function treeSchema(): z.ZodType {
  const tree: z.ZodType = z.object({
    label: z.string(),
    get children() {
      return z.array(tree);
    },
  });
  return tree;
}

describe("checkCompatibility", () => {
  const tables = { sameTypeRows, widerRows, referenceRows, junctionRows, conversionRows };
  test("the table holds at least 80 sender/receiver pairs", () => {
    const total = Object.values(tables).reduce((sum, rows) => sum + rows.length, 0);
    expect(total).toBeGreaterThanOrEqual(80);
  });
  for (const [name, rows] of Object.entries(tables)) {
    test.each(rows.map((row) => [...row]))(`${name}: %s`, (_label, sender, receiver, expected) => {
      expect(answer(sender as z.ZodType, receiver as z.ZodType)).toBe(expected);
    });
  }
});

describe("conversions", () => {
  test("convert turns the sender's value into the receiver's", () => {
    const toText = checkCompatibility(message, z.string()).conversion;
    expect(toText?.convert(new Message("hi"))).toBe("hi");
    expect(() => toText?.convert(new Message(undefined))).toThrow(/without text/);
    expect(checkCompatibility(message, z.array(message)).conversion?.convert(new Message("a"))).toEqual([
      new Message("a"),
    ]);
    const unwrap = checkCompatibility(z.array(message), message).conversion;
    expect(unwrap?.priority).toBe(20);
    expect(() => unwrap?.convert([new Message("a"), new Message("b")])).toThrow(/2 items/);
  });

  test("a union sender converts each value with its own member's conversion", () => {
    const conversion = checkCompatibility(z.union([celsius, fahrenheit]), z.number()).conversion;
    expect(conversion?.convert(new Celsius(20))).toBe(20);
    expect(conversion?.convert(new Fahrenheit(212))).toBe(100);
  });

  test("registering the same strategy twice is a no-op; another one under its name is an error", () => {
    const strategy = strategies[0]!;
    expect(() => registerConversion(strategy)).not.toThrow();
    expect(() => registerConversion({ ...strategy })).toThrow(ComponentError);
    expect(() => registerConversion({ ...strategy })).toThrow(
      /"compat_test.wrap_message" is already registered/,
    );
  });

  test("an invalid strategy is rejected with every problem", () => {
    const invalid = { name: "", priority: Number.NaN, match: "no" } as unknown as ConversionStrategy;
    expect(() => registerConversion(invalid)).toThrow(/`name`.*`priority`.*`match`/);
  });

  test("helpers.arrayElement looks through optional and default wrappers only", () => {
    const seen: (z.ZodType | undefined)[] = [];
    registerConversion({
      name: "compat_test.probe",
      priority: 1000,
      match: (sender, _receiver, helpers) => {
        if (sender === celsius) seen.push(helpers.arrayElement(_receiver));
        return undefined;
      },
    });
    const element = z.number();
    checkCompatibility(celsius, z.array(element).optional().default([]));
    checkCompatibility(celsius, z.array(element).nullable());
    checkCompatibility(celsius, z.string());
    // The nullable receiver is offered as a whole and as its members (the array, and null).
    expect(seen).toContain(element);
    expect(seen.filter((item) => item === element).length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)).toBeUndefined();
  });
});

describe("soundness", () => {
  // Every pair of these schemas is checked; whenever the answer is "compatible" without a conversion,
  // every probe value the sender accepts must be accepted by the receiver. The one documented assumption
  // (a stripping object sender carries only its declared keys, as in TypeScript) is honoured by
  // giving such senders only probes without undeclared keys.
  const pool: z.ZodType[] = [
    z.string(),
    z.string().min(2),
    z.email(),
    z.number(),
    z.int(),
    z.number().gt(0),
    z.boolean(),
    z.null(),
    z.undefined(),
    z.literal("a"),
    z.literal(["a", "b"]),
    z.enum(["b", "c"]),
    z.literal(1),
    z.string().optional(),
    z.string().nullable(),
    z.string().default("d"),
    z.union([z.string(), z.number()]),
    z.array(z.string()),
    z.array(z.number()).min(1),
    z.array(z.union([z.string(), z.number()])),
    z.tuple([z.string(), z.number()]),
    z.tuple([z.string()], z.number()),
    z.object({ a: z.string() }),
    z.object({ a: z.string(), b: z.number().optional() }),
    z.strictObject({ a: z.string() }),
    z.looseObject({ a: z.string() }),
    z.object({ a: z.literal("a") }),
    z.record(z.string(), z.string()),
    z.record(z.string(), z.number()),
    z.record(z.enum(["a", "b"]), z.string()),
    z.partialRecord(z.enum(["a", "b"]), z.string()),
    z.set(z.string()),
    message,
    z.array(message),
    z.any(),
    z.unknown(),
    z.string().transform((value) => value.length),
    z.string().pipe(z.string().min(2)),
    z.literal("a").catch("a"),
    z.number().nullable().optional(),
    z.array(z.object({ a: z.string() })),
    z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    z.tuple([z.string(), z.number().optional()]),
    z.array(z.literal(["a", "b"])).readonly(),
  ];
  const probes: unknown[] = [
    "",
    "a",
    "b",
    "c",
    "ab",
    "x@example.com",
    0,
    1,
    -1,
    1.5,
    true,
    null,
    undefined,
    [],
    ["a"],
    [1],
    ["a", 1],
    ["a", 1, 2],
    { a: "a" },
    { a: "x" },
    { a: "a", b: 1 },
    { a: "a", b: "x" },
    { a: "x", c: true },
    { b: "x" },
    { a: 1 },
    new Set(["a"]),
    new Message("m"),
    [new Message("m")],
    [{ a: "a" }],
    [{ a: 1 }],
    ["a", undefined],
    ["a", "b"],
  ];

  test("no compatible pair lets a value through that the receiver rejects", () => {
    const violations: string[] = [];
    let checkedPairs = 0;
    for (const [senderIndex, sender] of pool.entries()) {
      for (const [receiverIndex, receiver] of pool.entries()) {
        const result = checkCompatibility(sender, receiver);
        if (!result.compatible || result.conversion !== undefined) continue;
        checkedPairs += 1;
        for (const probe of probes) {
          if (!sender.safeParse(probe).success || hasUndeclaredKeys(sender, probe)) continue;
          // An `undefined` output is never sent; a sender's default only matters for its own parsing.
          if (probe === undefined && sender._zod.optin === "defaulted") continue;
          if (!receiver.safeParse(probe).success) {
            violations.push(`#${senderIndex} → #${receiverIndex} with ${String(JSON.stringify(probe))}`);
          }
        }
      }
    }
    expect(violations).toEqual([]);
    expect(checkedPairs).toBeGreaterThan(150);
  });
});

function hasUndeclaredKeys(schema: z.ZodType, value: unknown): boolean {
  const def = schema._zod.def as { type: string; shape?: Record<string, unknown>; catchall?: unknown };
  if (def.type !== "object" || def.catchall !== undefined || typeof value !== "object" || value === null) {
    return false;
  }
  return Object.keys(value).some((key) => !Object.hasOwn(def.shape ?? {}, key));
}
