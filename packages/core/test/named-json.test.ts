import { decodeWireValue, defineNamedType, fromSnapshotJSON, type Issue, unwrapSchema } from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  static fromJSON(json: unknown): Point {
    const { x, y } = (json ?? {}) as { x?: unknown; y?: unknown };
    if (typeof x !== "number" || typeof y !== "number") throw new TypeError("x and y must be numbers");
    return new Point(x, y);
  }
}

const pointSchema = defineNamedType("test.NamedJsonPoint", z.instanceof(Point), {
  fromJSON: Point.fromJSON,
  wire: { jsonSchema: { type: "object" }, decode: Point.fromJSON },
});
const opaqueSchema = defineNamedType("test.NamedJsonOpaque", z.instanceof(Map));

describe("one schema walk and one named-type decoder for every caller", () => {
  test("unwrapSchema looks through optional, nullable, default and readonly wrappers", () => {
    const list = z.array(pointSchema);
    expect(unwrapSchema(list.nullable().optional())).toBe(list);
    expect(unwrapSchema(list.readonly().default([]))).toBe(list.readonly().def.innerType);
    expect(unwrapSchema(z.string())._zod.def.type).toBe("string");
  });

  test("remote callers' JSON (decodeWireValue): every failure is an issue with its path, the value stays", () => {
    const issues: Issue[] = [];
    const schema = z.object({
      points: z.array(pointSchema).optional(),
      table: z.record(z.string(), pointSchema),
    });
    const value = decodeWireValue(
      schema,
      { points: [{ x: 1, y: 2 }, { x: "a" }], table: { a: { x: 3, y: 4 } } },
      ["input"],
      issues,
    ) as { points: unknown[]; table: Record<string, unknown> };
    expect(value.points[0]).toBeInstanceOf(Point);
    expect(value.points[1]).toEqual({ x: "a" });
    expect(value.table.a).toEqual(new Point(3, 4));
    expect(issues).toEqual([
      { path: ["input", "points", 1], message: "not a valid test.NamedJsonPoint: x and y must be numbers" },
    ]);
  });

  test("a named type without a wire form cannot be given by a remote caller", () => {
    const issues: Issue[] = [];
    decodeWireValue(opaqueSchema.optional(), { a: 1 }, ["cache"], issues);
    expect(issues).toEqual([
      { path: ["cache"], message: '"test.NamedJsonOpaque" values cannot be given as JSON.' },
    ]);
  });

  test("snapshots (fromSnapshotJSON): a malformed saved value throws the type's own error", () => {
    expect(fromSnapshotJSON(z.array(pointSchema), [{ x: 1, y: 1 }])).toEqual([new Point(1, 1)]);
    expect(() => fromSnapshotJSON(z.record(z.string(), pointSchema), { a: { x: "bad" } })).toThrow(
      "x and y must be numbers",
    );
    // Without a fromJSON the saved JSON is kept as it is.
    expect(fromSnapshotJSON(opaqueSchema, { a: 1 })).toEqual({ a: 1 });
  });
});
