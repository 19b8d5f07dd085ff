import {
  checkCompatibility,
  DeserializationError,
  defineNamedType,
  SerializationError,
  socketSchemaFromJSON,
  socketSchemaToJSON,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

class Note {
  constructor(readonly text: string) {}
}
const note = defineNamedType("socket_json_test.Note", z.instanceof(Note));
const card = defineNamedType("socket_json_test.Card", z.object({ title: z.string() }));

/** The shapes dynamic sockets use; each must keep its compatibility answers through JSON. */
const shapes: Record<string, z.ZodType> = {
  string: z.string(),
  number: z.number(),
  integer: z.int(),
  boolean: z.boolean(),
  "string.min(2)": z.string().min(2),
  'literal "a"': z.literal("a"),
  "literal 3": z.literal(3),
  'enum ["x","y"]': z.enum(["x", "y"]),
  "string[]": z.array(z.string()),
  "number[][]": z.array(z.array(z.number())),
  "[string, number]": z.tuple([z.string(), z.number()]),
  "{a: string, b?: number}": z.object({ a: z.string(), b: z.number().optional() }),
  "strict {a}": z.strictObject({ a: z.string() }),
  "loose {a}": z.looseObject({ a: z.string() }),
  "{n: number = 2}": z.object({ n: z.number().default(2) }),
  "string | number": z.union([z.string(), z.number()]),
  "string | undefined": z.string().optional(),
  "string | null": z.string().nullable(),
  "string with a default": z.string().default("x"),
  "named Note": note,
  "named Card": card,
  "Note[]": z.array(note),
  "Note | undefined": note.optional(),
  "Note | null": note.nullable(),
  "{notes: Note[], card?: Card}": z.object({ notes: z.array(note), card: card.optional() }),
  "Record<string, number>": z.record(z.string(), z.number()),
  "Record<string, Note[]>": z.record(z.string(), z.array(note)),
  'Record<"a"|"b", number>': z.record(z.enum(["a", "b"]), z.number()),
  'Partial<Record<"a"|"b", number>>': z.partialRecord(z.enum(["a", "b"]), z.number()),
  "(string | undefined)[]": z.array(z.string().optional()),
  unknown: z.unknown(),
};

describe("socket schemas through JSON keep their compatibility answers", () => {
  const entries = Object.entries(shapes);
  test.each(entries)("%s", (_label, schema) => {
    const json = socketSchemaToJSON(schema);
    // The JSON is plain data.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    const restored = socketSchemaFromJSON(json);
    for (const [probeLabel, probe] of entries) {
      const context = `${_label} vs ${probeLabel}`;
      expect(checkCompatibility(restored, probe).compatible, `${context} (as sender)`).toBe(
        checkCompatibility(schema, probe).compatible,
      );
      expect(checkCompatibility(probe, restored).compatible, `${context} (as receiver)`).toBe(
        checkCompatibility(probe, schema).compatible,
      );
    }
  });

  test("a restored schema accepts and rejects the same values", () => {
    const schema = z.object({
      name: z.string().min(1),
      tags: z.array(z.enum(["a", "b"])),
      note: note.optional(),
    });
    const restored = socketSchemaFromJSON(socketSchemaToJSON(schema));
    expect(restored.safeParse({ name: "x", tags: ["a"], note: new Note("n") }).success).toBe(true);
    expect(restored.safeParse({ name: "", tags: ["a"] }).success).toBe(false);
    expect(restored.safeParse({ name: "x", tags: ["c"] }).success).toBe(false);
    expect(restored.safeParse({ name: "x", tags: [], note: "not a note" }).success).toBe(false);
  });

  test("z.number().int() is written as a plain integer, without the safe-integer bounds", () => {
    const json = socketSchemaToJSON(z.object({ count: z.number().int(), page: z.number().int().min(1) }));
    expect(json.properties).toEqual({ count: { type: "integer" }, page: { type: "integer", minimum: 1 } });
    const restored = socketSchemaFromJSON(json);
    expect(restored.safeParse({ count: 3, page: 1 }).success).toBe(true);
    expect(restored.safeParse({ count: 1.5, page: 1 }).success).toBe(false);
    expect(restored.safeParse({ count: 2 ** 60, page: 1 }).success).toBe(false);
  });

  test("defaults survive the round trip", () => {
    const restored = socketSchemaFromJSON(socketSchemaToJSON(z.object({ n: z.number().default(2) })));
    expect(restored.parse({})).toEqual({ n: 2 });
  });

  test("recursive schemas are written with references and read back", () => {
    const tree: z.ZodType = z.object({
      label: z.string(),
      get children() {
        return z.array(tree);
      },
    });
    const restored = socketSchemaFromJSON(socketSchemaToJSON(tree));
    expect(restored.safeParse({ label: "a", children: [{ label: "b", children: [] }] }).success).toBe(true);
    expect(restored.safeParse({ label: "a", children: [{ label: 1, children: [] }] }).success).toBe(false);
    expect(checkCompatibility(restored, tree).compatible).toBe(true);
  });
});

describe("named types are written by name", () => {
  test("at the top level and nested in arrays, objects and records", () => {
    expect(socketSchemaToJSON(note)).toMatchObject({ "x-junction-type": "socket_json_test.Note" });
    expect(socketSchemaToJSON(card)).not.toHaveProperty("properties");
    const json = socketSchemaToJSON(
      z.object({ notes: z.array(note), byName: z.record(z.string(), card), maybe: note.optional() }),
    );
    expect(json).toMatchObject({
      type: "object",
      properties: {
        notes: { type: "array", items: { "x-junction-type": "socket_json_test.Note" } },
        byName: { additionalProperties: { "x-junction-type": "socket_json_test.Card" } },
        maybe: { "x-junction-type": "socket_json_test.Note", "x-junction-optional": true },
      },
      required: ["notes", "byName"],
    });
  });

  test("reading resolves names to the registered schemas", () => {
    const restored = socketSchemaFromJSON({
      type: "array",
      items: { "x-junction-type": "socket_json_test.Note" },
    });
    expect((restored._zod.def as { element?: unknown }).element).toBe(note);
  });

  test("an unknown name is a DeserializationError that names it and every other problem", () => {
    const read = () =>
      socketSchemaFromJSON({
        type: "object",
        properties: { a: { "x-junction-type": "nope.Missing" }, b: { $ref: "#/$defs/Gone" } },
      });
    expect(read).toThrow(DeserializationError);
    expect(read).toThrow(/unknown named type "nope.Missing"/);
    try {
      read();
    } catch (error) {
      const paths = (error as DeserializationError).issues.map((issue) => issue.path.join("."));
      expect(paths).toEqual(["properties.a.x-junction-type", "properties.b.$ref"]);
    }
  });
});

describe("what JSON Schema cannot describe is refused", () => {
  test("a custom schema that is not a named type", () => {
    expect(() => socketSchemaToJSON(z.object({ when: z.instanceof(Note) }))).toThrow(SerializationError);
    expect(() => socketSchemaToJSON(z.object({ when: z.instanceof(Note) }))).toThrow(/defineNamedType/);
  });

  test("a transform and a date, both reported", () => {
    const write = () =>
      socketSchemaToJSON(z.object({ size: z.string().transform((value) => value.length), at: z.date() }));
    expect(write).toThrow(SerializationError);
    try {
      write();
    } catch (error) {
      expect((error as SerializationError).issues).toHaveLength(2);
    }
  });

  test("a non-object document is a DeserializationError", () => {
    expect(() => socketSchemaFromJSON("string")).toThrow(DeserializationError);
  });
});

describe("untrusted documents fail with a DeserializationError, never anything else", () => {
  const hostile: [string, unknown][] = [
    ["a reference to itself", { $ref: "#" }],
    [
      "references that only lead to each other",
      { $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } }, $ref: "#/$defs/A" },
    ],
    ["a reference into the prototype", { $defs: {}, $ref: "#/$defs/constructor" }],
    ["a reference with malformed percent-encoding", { $defs: { a: {} }, $ref: "#/$defs/%E0%A4%A" }],
    ["an empty list of types", { type: [] }],
    ["an empty anyOf", { anyOf: [] }],
    ["an enum of objects", { enum: [{}] }],
    ["a named type that is not a string", { "x-junction-type": 42 }],
    [
      "nesting deeper than any socket",
      JSON.parse(`${'{"type":"array","items":'.repeat(500)}{}${"}".repeat(500)}`),
    ],
    ["an unknown keyword combination", { type: "strange" }],
  ];
  test.each(hostile)("%s", (_label, json) => {
    expect(() => socketSchemaFromJSON(json)).toThrow(DeserializationError);
  });

  test("a __proto__ property is an ordinary key", () => {
    const json = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    );
    const schema = socketSchemaFromJSON(json);
    expect(Object.keys((schema._zod.def as unknown as { shape: object }).shape)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
